import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import EditOutlined from '@mui/icons-material/EditOutlined';
import RestartAltOutlined from '@mui/icons-material/RestartAltOutlined';
import SaveOutlined from '@mui/icons-material/SaveOutlined';
import type { ReviewSettingsView } from '@sutura/domain/review';
import { mayAdminWrite } from '@sutura/domain/roles';
import { errorText } from '@/lib/http';
import { useSession } from '@/lib/session';
import { useSingleFlight } from '@/lib/single-flight';
import { useToast } from '@/lib/toast';
import { PendingButton } from '@/components/pending-button';
import { RetryAlert } from '@/components/retry-alert';
import { useReviewSettings, useSetDefaultShare, useSetSurgeryShare } from '@/features/admin/api/review-api';
import { ReadOnlyNotice } from '@/features/admin/components/read-only-notice';
import { ShareChoice, useShareText } from '@/features/admin/components/share-choice';
import { draftOf, shareOf } from '@/features/admin/model/share-draft';
import { SurgeryShareDialog } from '@/features/admin/components/surgery-share-dialog';

type Surgery = ReviewSettingsView['surgeries'][number];

/**
 * `/admin/double-review`: the share of cases an independent second expert reviews — the
 * installation's default, and each surgery following it or with its own (docs/double-review.md).
 * Administrators change them; copil reads them.
 */
export function DoubleReviewPage() {
  const { t } = useTranslation(['review', 'errors']);
  const { session } = useSession();
  const canWrite = mayAdminWrite(session?.roles ?? []);
  const settings = useReviewSettings();

  return (
    <Box sx={{ maxWidth: 1000, mx: 'auto', width: '100%', display: 'grid', gap: 3, minWidth: 0 }} data-testid="admin-page">
      <ReadOnlyNotice />
      <Typography sx={{ color: 'text.secondary' }}>{t('settings.intro')}</Typography>
      {settings.data ? (
        <>
          <DefaultShareSection key={settings.data.secondReviewShare} share={settings.data.secondReviewShare} canWrite={canWrite} />
          <SurgeriesSection settings={settings.data} canWrite={canWrite} />
        </>
      ) : settings.isError ? (
        <RetryAlert error={settings.error} retry={t('retry')} onRetry={() => void settings.refetch()} />
      ) : (
        <Box role="status" aria-label={t('loading')}>
          <Skeleton variant="rectangular" height={320} />
        </Box>
      )}
    </Box>
  );
}

function DefaultShareSection({ share, canWrite }: { share: number; canWrite: boolean }) {
  const { t } = useTranslation(['review', 'errors']);
  const toast = useToast();
  const shareText = useShareText();
  const save = useSetDefaultShare();
  const [draft, setDraft] = useState(() => draftOf(share));
  const [error, setError] = useState<string | undefined>();
  const flight = useSingleFlight(async () => {
    const checked = shareOf(draft);
    if ('error' in checked) {
      setError(checked.error);
      return;
    }
    setError(undefined);
    try {
      await save.mutateAsync({ secondReviewShare: checked.share });
      toast('success', t('settings.defaultSaved', { share: shareText(checked.share) }));
    } catch (e) {
      toast('error', errorText(e));
    }
  });

  return (
    <Paper variant="outlined" component="section" aria-labelledby="review-default-title" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 2 }}>
      <Typography id="review-default-title" variant="h2" component="h2" sx={{ fontSize: 20, mb: 1 }}>
        {t('settings.defaultTitle')}
      </Typography>
      <Typography sx={{ mb: 2 }} data-testid="review-default-current">
        {t('settings.defaultCurrent', { share: shareText(share) })}
      </Typography>
      {canWrite && (
        <Box
          component="form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void flight.run();
          }}
          sx={{ display: 'grid', gap: 2 }}
        >
          <ShareChoice
            legend={t('settings.defaultLegend')}
            draft={draft}
            onChange={(next) => {
              setDraft(next);
              setError(undefined);
            }}
            error={error}
            disabled={flight.pending}
            testId="review-default"
          />
          <Box>
            <PendingButton
              type="submit"
              variant="contained"
              pending={flight.pending}
              icon={<SaveOutlined aria-hidden />}
              data-testid="review-default-save"
              data-write
            >
              {t('settings.save')}
            </PendingButton>
          </Box>
        </Box>
      )}
    </Paper>
  );
}

function SurgeriesSection({ settings, canWrite }: { settings: ReviewSettingsView; canWrite: boolean }) {
  const { t } = useTranslation(['review', 'errors']);
  const toast = useToast();
  const shareText = useShareText();
  const setShare = useSetSurgeryShare();
  const [editing, setEditing] = useState<Surgery | null>(null);
  const reset = useSingleFlight(async (surgery: Surgery) => {
    try {
      await setShare.mutateAsync({ id: surgery.id, secondReviewShare: null });
      toast('success', t('settings.surgeryReset', { surgery: surgery.name }));
    } catch (e) {
      toast('error', errorText(e));
    }
  });

  return (
    <Paper variant="outlined" component="section" aria-labelledby="review-surgeries-title" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 2 }}>
      <Typography id="review-surgeries-title" variant="h2" component="h2" sx={{ fontSize: 20, mb: 1 }}>
        {t('settings.surgeriesTitle')}
      </Typography>
      <Typography sx={{ color: 'text.secondary', mb: 2 }}>{t('settings.surgeriesIntro')}</Typography>
      {settings.surgeries.length === 0 ? (
        <Alert severity="info">{t('settings.noSurgery')}</Alert>
      ) : (
        <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid' }} data-testid="review-surgeries">
          {settings.surgeries.map((surgery) => {
            const own = surgery.secondReviewShare !== null;
            return (
              <Box
                component="li"
                key={surgery.id}
                data-testid="review-surgery"
                data-surgery-id={surgery.id}
                sx={{
                  display: 'flex',
                  flexWrap: 'wrap',
                  alignItems: 'center',
                  gap: 1,
                  py: 1.5,
                  borderTop: 1,
                  borderColor: 'divider',
                  '&:first-of-type': { borderTop: 0 },
                }}
              >
                <Box sx={{ flex: '1 1 240px', minWidth: 0 }}>
                  <Typography sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>{surgery.name}</Typography>
                  <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mt: 0.5 }}>
                    <Chip
                      size="small"
                      variant={own ? 'filled' : 'outlined'}
                      color={own ? 'primary' : 'default'}
                      label={own ? t('settings.own') : t('settings.followsDefault')}
                    />
                    <Typography component="span" variant="body2" data-testid="review-surgery-share">
                      {shareText(surgery.secondReviewShare ?? settings.secondReviewShare)}
                    </Typography>
                  </Box>
                </Box>
                {canWrite && (
                  <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
                    <Button
                      size="small"
                      variant="outlined"
                      startIcon={<EditOutlined aria-hidden />}
                      onClick={() => setEditing(surgery)}
                      disabled={reset.pending}
                      aria-label={t('named', { action: own ? t('settings.changeOwn') : t('settings.setOwn'), name: surgery.name })}
                      data-testid="review-surgery-edit"
                      data-write
                    >
                      {own ? t('settings.changeOwn') : t('settings.setOwn')}
                    </Button>
                    {own && (
                      <PendingButton
                        size="small"
                        pending={reset.pending}
                        icon={<RestartAltOutlined aria-hidden />}
                        onClick={() => void reset.run(surgery)}
                        aria-label={t('named', { action: t('settings.reset'), name: surgery.name })}
                        data-testid="review-surgery-reset"
                        data-write
                      >
                        {t('settings.reset')}
                      </PendingButton>
                    )}
                  </Box>
                )}
              </Box>
            );
          })}
        </Box>
      )}
      {editing && <SurgeryShareDialog surgery={editing} defaultShare={settings.secondReviewShare} onClose={() => setEditing(null)} />}
    </Paper>
  );
}
