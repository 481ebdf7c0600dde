import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import GavelOutlined from '@mui/icons-material/GavelOutlined';
import LockOpenOutlined from '@mui/icons-material/LockOpenOutlined';
import SaveOutlined from '@mui/icons-material/SaveOutlined';
import SearchOutlined from '@mui/icons-material/SearchOutlined';
import { legalHoldBody, retentionRulesSchema, type RetentionRules, type RetentionView } from '@sutura/domain/retention';
import { mayAdminWrite } from '@sutura/domain/roles';
import { errorText } from '@/lib/http';
import { useSession } from '@/lib/session';
import { useSingleFlight } from '@/lib/single-flight';
import { useToast } from '@/lib/toast';
import { PendingButton } from '@/components/pending-button';
import { RetentionSummary } from '@/components/retention-summary';
import { RetryAlert } from '@/components/retry-alert';
import { useHoldCase, useReleaseHold, useRetention, useRetentionPreview, useSetRetentionRules } from '@/features/admin/api/retention-api';
import { ReadOnlyNotice } from '@/features/admin/components/read-only-notice';
import { formatBytes } from '@/features/admin/model/bytes';

const section = { p: { xs: 2, sm: 3 }, borderRadius: 2 } as const;

/**
 * `/admin/retention`: how long each kind of data is kept, what the next daily run would delete (a
 * dry run), and the cases under legal hold (docs/data-lifecycle.md). Administrators change them;
 * copil reads them.
 */
export function RetentionPage() {
  const { t } = useTranslation(['retention', 'errors']);
  const { session } = useSession();
  const canWrite = mayAdminWrite(session?.roles ?? []);
  const retention = useRetention();

  return (
    <Box sx={{ maxWidth: 1000, mx: 'auto', width: '100%', display: 'grid', gap: 3, minWidth: 0 }} data-testid="admin-page">
      <ReadOnlyNotice />
      <Typography sx={{ color: 'text.secondary' }}>{t('intro')}</Typography>
      {retention.data ? (
        <>
          <RulesSection key={JSON.stringify(retention.data.rules)} view={retention.data} canWrite={canWrite} />
          <PreviewSection />
          <HoldsSection view={retention.data} canWrite={canWrite} />
        </>
      ) : retention.isError ? (
        <RetryAlert error={retention.error} retry={t('retry')} onRetry={() => void retention.refetch()} />
      ) : (
        <Box role="status" aria-label={t('loading')}>
          <Skeleton variant="rectangular" height={320} />
        </Box>
      )}
    </Box>
  );
}

function RulesSection({ view, canWrite }: { view: RetentionView; canWrite: boolean }) {
  const { t } = useTranslation(['retention', 'errors']);
  const toast = useToast();
  const save = useSetRetentionRules();
  const [source, setSource] = useState(String(view.rules.sourceDays));
  const [uploads, setUploads] = useState(String(view.rules.uploadDays));
  const [analysedOn, setAnalysedOn] = useState(view.rules.analysedYears !== null);
  const [analysed, setAnalysed] = useState(String(view.rules.analysedYears ?? 10));
  const [errors, setErrors] = useState<Partial<Record<keyof RetentionRules, string>>>({});
  const flight = useSingleFlight(async () => {
    const draft = {
      sourceDays: Number(source),
      uploadDays: Number(uploads),
      analysedYears: analysedOn ? Number(analysed) : null,
    };
    const checked = retentionRulesSchema.safeParse(draft);
    if (!checked.success) {
      const next: typeof errors = {};
      for (const issue of checked.error.issues) next[issue.path[0] as keyof RetentionRules] = t(`errors:${issue.message}`);
      setErrors(next);
      return;
    }
    setErrors({});
    try {
      await save.mutateAsync(checked.data);
      toast('success', t('rules.saved'));
    } catch (e) {
      toast('error', errorText(e));
    }
  });

  return (
    <Paper variant="outlined" component="section" aria-labelledby="retention-rules-title" sx={section}>
      <Typography id="retention-rules-title" variant="h2" component="h2" sx={{ fontSize: 20, mb: 1 }}>
        {t('rules.title')}
      </Typography>
      <RetentionSummary rules={view.rules} testId="retention-summary" />
      <Typography variant="body2" sx={{ color: 'text.secondary', my: 2 }}>
        {t('rules.defaults', {
          source: view.defaults.sourceDays,
          uploads: view.defaults.uploadDays,
        })}
      </Typography>
      {canWrite && (
        <Box
          component="form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void flight.run();
          }}
          sx={{ display: 'grid', gap: 2, maxWidth: 480 }}
        >
          <TextField
            label={t('rules.sourceDays')}
            type="number"
            value={source}
            onChange={(e) => setSource(e.target.value)}
            error={!!errors.sourceDays}
            helperText={errors.sourceDays ?? t('rules.sourceHelp')}
            slotProps={{ htmlInput: { min: 1, 'data-testid': 'retention-source-days' } }}
          />
          <TextField
            label={t('rules.uploadDays')}
            type="number"
            value={uploads}
            onChange={(e) => setUploads(e.target.value)}
            error={!!errors.uploadDays}
            helperText={errors.uploadDays ?? t('rules.uploadHelp')}
            slotProps={{ htmlInput: { min: 1, 'data-testid': 'retention-upload-days' } }}
          />
          <FormControlLabel
            control={<Switch checked={analysedOn} onChange={(e) => setAnalysedOn(e.target.checked)} data-testid="retention-analysed-on" />}
            label={t('rules.analysedOn')}
          />
          {analysedOn && (
            <TextField
              label={t('rules.analysedYears')}
              type="number"
              value={analysed}
              onChange={(e) => setAnalysed(e.target.value)}
              error={!!errors.analysedYears}
              helperText={errors.analysedYears ?? t('rules.analysedHelp')}
              slotProps={{ htmlInput: { min: 1, 'data-testid': 'retention-analysed-years' } }}
            />
          )}
          <Box>
            <PendingButton
              type="submit"
              variant="contained"
              pending={flight.pending}
              icon={<SaveOutlined aria-hidden />}
              data-testid="retention-save"
              data-write
            >
              {t('rules.save')}
            </PendingButton>
          </Box>
        </Box>
      )}
    </Paper>
  );
}

function PreviewSection() {
  const { t, i18n } = useTranslation('retention');
  const [asked, setAsked] = useState(false);
  const preview = useRetentionPreview();
  const bytes = (n: number) => formatBytes(n, i18n.language);
  return (
    <Paper variant="outlined" component="section" aria-labelledby="retention-preview-title" sx={section}>
      <Typography id="retention-preview-title" variant="h2" component="h2" sx={{ fontSize: 20, mb: 1 }}>
        {t('preview.title')}
      </Typography>
      <Typography sx={{ color: 'text.secondary', mb: 2 }}>{t('preview.intro')}</Typography>
      <Button
        variant="outlined"
        startIcon={<SearchOutlined aria-hidden />}
        onClick={() => {
          setAsked(true);
          void preview.refetch();
        }}
        data-testid="retention-preview"
      >
        {t('preview.run')}
      </Button>
      {asked && preview.data && (
        <Box sx={{ mt: 2, display: 'grid', gap: 1 }} data-testid="retention-preview-result" role="status">
          <Typography sx={{ fontWeight: 700 }}>
            {t('preview.total', { count: preview.data.total, bytes: bytes(preview.data.bytes) })}
          </Typography>
          <Box component="ul" sx={{ m: 0, pl: 3 }}>
            {preview.data.byRule.map((r) => (
              <Typography component="li" key={r.rule}>
                {t(`preview.rule.${r.rule}`, { count: r.count, bytes: bytes(r.bytes) })}
              </Typography>
            ))}
          </Box>
          {preview.data.candidates.length > 0 && (
            <Box component="ul" sx={{ m: 0, pl: 3, overflowWrap: 'anywhere' }} data-testid="retention-candidates">
              {preview.data.candidates.map((c) => (
                <Typography component="li" variant="body2" key={`${c.rule}:${c.videoId}:${c.keys[0] ?? ''}`}>
                  {t('preview.candidate', { rule: t(`ruleName.${c.rule}`), id: c.videoId, bytes: bytes(c.bytes) })}
                </Typography>
              ))}
            </Box>
          )}
        </Box>
      )}
      {asked && preview.isError && <Alert severity="error">{errorText(preview.error)}</Alert>}
    </Paper>
  );
}

function HoldsSection({ view, canWrite }: { view: RetentionView; canWrite: boolean }) {
  const { t, i18n } = useTranslation(['retention', 'errors']);
  const toast = useToast();
  const hold = useHoldCase();
  const release = useReleaseHold();
  const [videoId, setVideoId] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ videoId?: string; reason?: string }>({});
  const place = useSingleFlight(async () => {
    const next: typeof errors = {};
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(videoId.trim())) next.videoId = t('holds.badId');
    const checked = legalHoldBody.safeParse({ reason });
    if (!checked.success) next.reason = t(`errors:${checked.error.issues[0]!.message}`);
    setErrors(next);
    if (next.videoId || next.reason || !checked.success) return;
    try {
      await hold.mutateAsync({ videoId: videoId.trim(), reason: checked.data.reason });
      toast('success', t('holds.placed'));
      setVideoId('');
      setReason('');
    } catch (e) {
      toast('error', errorText(e));
    }
  });
  const lift = useSingleFlight(async (id: string) => {
    try {
      await release.mutateAsync(id);
      toast('success', t('holds.released'));
    } catch (e) {
      toast('error', errorText(e));
    }
  });
  const date = (iso: string) => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' }).format(new Date(iso));

  return (
    <Paper variant="outlined" component="section" aria-labelledby="retention-holds-title" sx={section}>
      <Typography id="retention-holds-title" variant="h2" component="h2" sx={{ fontSize: 20, mb: 1 }}>
        {t('holds.title')}
      </Typography>
      <Typography sx={{ color: 'text.secondary', mb: 2 }}>{t('holds.intro')}</Typography>
      {canWrite && (
        <Box
          component="form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void place.run();
          }}
          sx={{ display: 'grid', gap: 2, maxWidth: 560, mb: 2 }}
        >
          <TextField
            label={t('holds.caseId')}
            value={videoId}
            onChange={(e) => setVideoId(e.target.value)}
            error={!!errors.videoId}
            helperText={errors.videoId ?? t('holds.caseIdHelp')}
            slotProps={{ htmlInput: { 'data-testid': 'hold-case-id' } }}
          />
          <TextField
            label={t('holds.reason')}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            error={!!errors.reason}
            helperText={errors.reason}
            multiline
            minRows={2}
            slotProps={{ htmlInput: { 'data-testid': 'hold-reason' } }}
          />
          <Box>
            <PendingButton
              type="submit"
              variant="contained"
              pending={place.pending}
              icon={<GavelOutlined aria-hidden />}
              data-testid="hold-place"
              data-write
            >
              {t('holds.place')}
            </PendingButton>
          </Box>
        </Box>
      )}
      {view.holds.length === 0 ? (
        <Alert severity="info">{t('holds.none')}</Alert>
      ) : (
        <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }} data-testid="holds">
          {view.holds.map((h) => (
            <Box
              component="li"
              key={h.videoId}
              data-testid="hold"
              data-video-id={h.videoId}
              sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', py: 1.5, borderTop: 1, borderColor: 'divider' }}
            >
              <Box sx={{ flex: '1 1 260px', minWidth: 0, overflowWrap: 'anywhere' }}>
                <Typography sx={{ fontWeight: 700 }}>
                  {t('holds.case', { surgery: h.surgery ?? t('holds.noSurgery'), author: h.author })}
                </Typography>
                <Typography variant="body2">{h.reason}</Typography>
                <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                  {t('holds.since', { date: date(h.heldAt), by: h.heldBy ?? t('holds.someone') })}
                </Typography>
              </Box>
              {canWrite && (
                <PendingButton
                  size="small"
                  pending={lift.pending}
                  icon={<LockOpenOutlined aria-hidden />}
                  onClick={() => void lift.run(h.videoId)}
                  data-testid="hold-release"
                  data-write
                >
                  {t('holds.release')}
                </PendingButton>
              )}
            </Box>
          ))}
        </Box>
      )}
    </Paper>
  );
}
