import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip, { type ChipProps } from '@mui/material/Chip';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ForumOutlined from '@mui/icons-material/ForumOutlined';
import RateReviewOutlined from '@mui/icons-material/RateReviewOutlined';
import { DISAGREEMENT_STATUSES, MAX_REVIEW_ROUNDS, type Disagreement, type DisagreementStatus } from '@sutura/domain/review';
import { mayAdminWrite } from '@sutura/domain/roles';
import { ApiRequestError, errorText } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { useSession } from '@/lib/session';
import { useSingleFlight } from '@/lib/single-flight';
import { useToast } from '@/lib/toast';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { RetryAlert } from '@/components/retry-alert';
import { formatDate, formatDateTime } from '@/components/video/format';
import { useAskThirdReview, useDisagreements, useReviewSettings } from '@/features/admin/api/review-api';
import { DiscussedDialog } from '@/features/admin/components/discussed-dialog';
import { ReadOnlyNotice } from '@/features/admin/components/read-only-notice';
import { useUrlParams } from '@/features/admin/hooks/use-url-params';

const STATUS_COLOURS: Record<DisagreementStatus, ChipProps['color']> = {
  flagged: 'error',
  third_review: 'quaternary',
  discussed: 'success',
};

const asStatus = (value: string): DisagreementStatus | undefined =>
  (DISAGREEMENT_STATUSES as readonly string[]).includes(value) ? (value as DisagreementStatus) : undefined;

/** The levels of an item, round by round: "2 / 4". */
const levelsText = (levels: Record<string, number>) =>
  Object.entries(levels)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([, level]) => String(level))
    .join(' / ');

/**
 * `/admin/disagreements`: the cases two experts rated 2 levels apart or more, newest first, by
 * status and surgery (docs/double-review.md). Administrators ask a third review or mark one
 * discussed with a note; copil reads them.
 */
export function DisagreementsPage() {
  const { t } = useTranslation(['review', 'errors']);
  const { session } = useSession();
  const canWrite = mayAdminWrite(session?.roles ?? []);
  const toast = useToast();
  const lang = currentLanguage();
  const { values, update } = useUrlParams(['status', 'surgeryId'] as const);
  const status = asStatus(values.status);
  const surgeryId = values.surgeryId || undefined;
  const list = useDisagreements({ status, surgeryId });
  const surgeries = useReviewSettings().data?.surgeries ?? [];
  const ask = useAskThirdReview();
  const [asking, setAsking] = useState<Disagreement | null>(null);
  const [discussing, setDiscussing] = useState<Disagreement | null>(null);

  const caseName = (d: Disagreement) =>
    t('disagreements.caseName', {
      surgery: d.surgery ?? t('disagreements.noSurgery'),
      author: `${d.author.firstName} ${d.author.lastName}`.trim(),
      date: formatDate(d.caseCreatedAt, lang),
    });

  const askFlight = useSingleFlight(async (d: Disagreement) => {
    try {
      await ask.mutateAsync(d.videoId);
      toast('success', t('disagreements.thirdDone'));
      setAsking(null);
    } catch (e) {
      toast('error', errorText(e));
      // Already changed elsewhere: the list now shows it as it is.
      if (e instanceof ApiRequestError && (e.code === 'REVIEW_NOT_POSSIBLE' || e.code === 'NOT_FOUND')) setAsking(null);
    }
  });

  return (
    <Box sx={{ maxWidth: 1100, mx: 'auto', width: '100%', display: 'grid', gap: 2, minWidth: 0 }} data-testid="admin-page">
      <ReadOnlyNotice />
      <Typography sx={{ color: 'text.secondary' }}>{t('disagreements.intro')}</Typography>
      <Box
        role="search"
        aria-label={t('disagreements.filters')}
        sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))' } }}
      >
        <TextField
          select
          size="small"
          label={t('disagreements.statusFilter')}
          value={status ?? ''}
          onChange={(e) => update({ status: e.target.value })}
          slotProps={{
            select: { displayEmpty: true, SelectDisplayProps: { 'data-testid': 'disagreements-status' } as object },
            inputLabel: { shrink: true },
          }}
        >
          <MenuItem value="">{t('disagreements.allStatuses')}</MenuItem>
          {DISAGREEMENT_STATUSES.map((s) => (
            <MenuItem key={s} value={s}>
              {t(`disagreements.status.${s}`)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={t('disagreements.surgeryFilter')}
          value={surgeries.some((s) => s.id === surgeryId) ? surgeryId : ''}
          onChange={(e) => update({ surgeryId: e.target.value })}
          slotProps={{
            select: { displayEmpty: true, SelectDisplayProps: { 'data-testid': 'disagreements-surgery' } as object },
            inputLabel: { shrink: true },
          }}
        >
          <MenuItem value="">{t('disagreements.allSurgeries')}</MenuItem>
          {surgeries.map((s) => (
            <MenuItem key={s.id} value={s.id}>
              {s.name}
            </MenuItem>
          ))}
        </TextField>
      </Box>

      {list.isError ? (
        <RetryAlert error={list.error} retry={t('retry')} onRetry={() => void list.refetch()} />
      ) : !list.data ? (
        <Box role="status" aria-label={t('loading')} sx={{ display: 'grid', gap: 1.5 }}>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} variant="rounded" height={140} />
          ))}
        </Box>
      ) : (
        <>
          <Typography role="status" variant="body2" sx={{ color: 'text.secondary' }} data-testid="disagreements-count">
            {t('disagreements.count', { count: list.data.items.length })}
          </Typography>
          {list.data.items.length === 0 ? (
            <Paper variant="outlined" sx={{ p: 3, textAlign: 'center' }} data-testid="disagreements-empty">
              <Typography>{t('disagreements.empty')}</Typography>
            </Paper>
          ) : (
            <Box
              component="ul"
              sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1.5, opacity: list.isPlaceholderData ? 0.6 : 1 }}
              aria-busy={list.isFetching}
              data-testid="disagreements-list"
            >
              {list.data.items.map((d) => {
                const name = caseName(d);
                const rounds = Math.max(0, ...d.items.map((i) => Object.keys(i.levels).length));
                const canAskThird = canWrite && d.status === 'flagged' && rounds < MAX_REVIEW_ROUNDS;
                const canDiscuss = canWrite && d.status !== 'discussed';
                return (
                  <Paper
                    component="li"
                    variant="outlined"
                    key={d.videoId}
                    data-testid="disagreement"
                    data-video-id={d.videoId}
                    data-status={d.status}
                    aria-labelledby={`disagreement-${d.videoId}`}
                    sx={{ p: { xs: 2, sm: 2.5 }, borderRadius: 2, display: 'grid', gap: 1.5, minWidth: 0 }}
                  >
                    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'flex-start', justifyContent: 'space-between' }}>
                      <Typography
                        id={`disagreement-${d.videoId}`}
                        variant="h2"
                        component="h2"
                        sx={{ fontSize: 18, overflowWrap: 'anywhere', flex: '1 1 240px' }}
                      >
                        {canWrite ? (
                          <Link component={RouterLink} to={`/videos/${encodeURIComponent(d.videoId)}`} data-testid="disagreement-case">
                            {name}
                          </Link>
                        ) : (
                          <span data-testid="disagreement-case">{name}</span>
                        )}
                      </Typography>
                      <Chip
                        size="small"
                        color={STATUS_COLOURS[d.status]}
                        label={t(`disagreements.status.${d.status}`)}
                        sx={{ fontWeight: 700 }}
                        data-testid="disagreement-status"
                      />
                    </Box>
                    <Box
                      component="dl"
                      sx={{
                        m: 0,
                        display: 'grid',
                        gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'max-content minmax(0, 1fr)' },
                        columnGap: 2,
                        rowGap: 0.5,
                        '& dt': { color: 'text.secondary' },
                        '& dd': { m: 0, mb: { xs: 0.75, sm: 0 }, fontWeight: 600, overflowWrap: 'anywhere' },
                      }}
                    >
                      <dt>{t('disagreements.surgery')}</dt>
                      <dd data-testid="disagreement-surgery">{d.surgery ?? t('disagreements.noSurgery')}</dd>
                      <dt>{t('disagreements.gap')}</dt>
                      <dd data-testid="disagreement-gap">{t('disagreements.gapValue', { count: d.maxGap })}</dd>
                      <dt>{t('disagreements.flaggedAt')}</dt>
                      <dd>
                        <time dateTime={d.flaggedAt}>{formatDateTime(d.flaggedAt, lang)}</time>
                      </dd>
                      <dt>
                        {t('disagreements.items', { rounds: rounds === 3 ? t('disagreements.threeRounds') : t('disagreements.twoRounds') })}
                      </dt>
                      <dd>
                        <Box component="ul" sx={{ m: 0, pl: 2.5 }} data-testid="disagreement-items">
                          {d.items.map((item) => (
                            <li key={`${item.kind}-${item.key}`} data-testid="disagreement-item">
                              {t('disagreements.itemLevels', { name: item.name, levels: levelsText(item.levels) })}
                            </li>
                          ))}
                        </Box>
                      </dd>
                      {d.note !== null && (
                        <>
                          <dt>{t('disagreements.noteShown')}</dt>
                          <Box component="dd" data-testid="disagreement-note" sx={{ whiteSpace: 'pre-wrap', fontWeight: '400 !important' }}>
                            {d.note}
                          </Box>
                        </>
                      )}
                      {d.resolvedAt !== null && d.status === 'discussed' && (
                        <>
                          <dt>{t('disagreements.discussedAt')}</dt>
                          <dd>
                            <time dateTime={d.resolvedAt}>{formatDateTime(d.resolvedAt, lang)}</time>
                          </dd>
                        </>
                      )}
                    </Box>
                    {(canAskThird || canDiscuss) && (
                      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
                        {canAskThird && (
                          <Button
                            size="small"
                            variant="outlined"
                            startIcon={<RateReviewOutlined aria-hidden />}
                            onClick={() => setAsking(d)}
                            aria-label={t('named', { action: t('disagreements.askThird'), name })}
                            data-testid="disagreement-ask-third"
                            data-write
                          >
                            {t('disagreements.askThird')}
                          </Button>
                        )}
                        {canDiscuss && (
                          <Button
                            size="small"
                            variant="contained"
                            startIcon={<ForumOutlined aria-hidden />}
                            onClick={() => setDiscussing(d)}
                            aria-label={t('named', { action: t('disagreements.markDiscussed'), name })}
                            data-testid="disagreement-discussed"
                            data-write
                          >
                            {t('disagreements.markDiscussed')}
                          </Button>
                        )}
                      </Box>
                    )}
                  </Paper>
                );
              })}
            </Box>
          )}
        </>
      )}
      {asking && (
        <ConfirmDialog
          open
          title={t('disagreements.askThirdTitle')}
          text={t('disagreements.askThirdText', { name: caseName(asking) })}
          confirm={t('disagreements.askThirdConfirm')}
          cancel={t('cancel')}
          pending={askFlight.pending}
          testId="ask-third"
          onConfirm={() => void askFlight.run(asking)}
          onClose={() => setAsking(null)}
        />
      )}
      {discussing && <DiscussedDialog videoId={discussing.videoId} caseName={caseName(discussing)} onClose={() => setDiscussing(null)} />}
    </Box>
  );
}
