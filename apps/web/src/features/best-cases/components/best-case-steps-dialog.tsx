import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import AddOutlined from '@mui/icons-material/AddOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import SaveOutlined from '@mui/icons-material/SaveOutlined';
import { BEST_CASE_STEPS_MAX, type AdminBestCaseDetail } from '@sutura/domain/best-cases';
import { PendingButton } from '@/components/pending-button';
import { formatClock } from '@/components/video/format';
import { VideoPlayer } from '@/components/video/video-player';
import { errorText } from '@/lib/http';
import { useToast } from '@/lib/toast';
import { useSurgeries } from '@/lib/vocabularies';
import { useAdminBestCase, useBestCaseSteps } from '@/features/best-cases/api/best-cases';

interface Row {
  key: number;
  surgeryStepId: string;
  time: string;
}

/** `m:ss`, `h:mm:ss` or seconds; undefined when it is none of them. */
export function parseTime(text: string): number | undefined {
  const trimmed = text.trim();
  if (/^\d+(?:[.,]\d+)?$/.test(trimmed)) return Number(trimmed.replace(',', '.'));
  const match = /^(?:(\d+):)?(\d{1,2}):(\d{2})$/.exec(trimmed);
  if (!match) return undefined;
  const [, h = '0', m = '0', s = '0'] = match;
  if (Number(s) >= 60) return undefined;
  return Number(h) * 3600 + Number(m) * 60 + Number(s);
}

function StepsForm({ detail, onClose }: { detail: AdminBestCaseDetail; onClose(): void }) {
  const { t } = useTranslation(['best-cases', 'videos']);
  const toast = useToast();
  const save = useBestCaseSteps();
  const surgeries = useSurgeries({ keep: [detail.surgery?.id] });
  const vocabulary = surgeries.data?.find((s) => s.id === detail.surgery?.id)?.steps ?? [];
  const duration = detail.duration ?? 0;
  const withHours = duration >= 3600;
  const nextKey = useRef(detail.steps.length);
  const [rows, setRows] = useState<Row[]>(() =>
    detail.steps.map((s, i) => ({ key: i, surgeryStepId: s.surgeryStepId ?? '', time: formatClock(s.start, withHours) })),
  );
  const [now, setNow] = useState(0);
  const [error, setError] = useState<string | null>(null);

  const problems = useMemo(
    () =>
      rows.map((row) => {
        const time = parseTime(row.time);
        return { step: !row.surgeryStepId, time: time === undefined || time >= duration };
      }),
    [rows, duration],
  );

  const add = () =>
    setRows((current) => [
      ...current,
      { key: nextKey.current++, surgeryStepId: vocabulary[current.length]?.id ?? '', time: formatClock(now, withHours) },
    ]);

  const submit = async () => {
    if (save.isPending) return;
    if (problems.some((p) => p.step || p.time)) {
      setError(t('steps.invalid'));
      return;
    }
    setError(null);
    try {
      await save.mutateAsync({
        id: detail.id,
        body: { steps: rows.map((r) => ({ surgeryStepId: r.surgeryStepId, start: parseTime(r.time)! })) },
      });
    } catch (caught) {
      setError(errorText(caught));
      return;
    }
    toast('success', t('steps.saved'));
    onClose();
  };

  return (
    <>
      <DialogContent dividers sx={{ display: 'grid', gap: 2 }}>
        {detail.videoUrl && (
          <VideoPlayer
            videoUrl={detail.videoUrl}
            posterUrl={detail.posterUrl}
            storyboard={detail.storyboard}
            title={detail.titleEn}
            onUrlsExpired={() => undefined}
            onTimeUpdate={setNow}
          />
        )}
        <Typography variant="body2" color="text.secondary">
          {t('steps.help')}
        </Typography>
        {vocabulary.length === 0 && <Alert severity="info">{t('steps.noVocabulary')}</Alert>}
        <Box component="ol" sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 1.5 }} data-testid="best-case-steps">
          {rows.map((row, index) => (
            <Box
              component="li"
              key={row.key}
              sx={{
                display: 'grid',
                gap: 1,
                gridTemplateColumns: { xs: 'minmax(0, 1fr) auto', sm: 'minmax(0, 1fr) 130px auto' },
                alignItems: 'start',
              }}
            >
              <TextField
                select
                size="small"
                label={t('steps.step', { number: index + 1 })}
                value={row.surgeryStepId}
                error={problems[index]?.step}
                onChange={(e) => setRows((c) => c.map((r) => (r.key === row.key ? { ...r, surgeryStepId: e.target.value } : r)))}
                sx={{ gridColumn: { xs: '1 / -1', sm: 'auto' } }}
              >
                {vocabulary.map((s) => (
                  <MenuItem key={s.id} value={s.id}>
                    {s.name}
                  </MenuItem>
                ))}
              </TextField>
              <TextField
                size="small"
                label={t('steps.start')}
                value={row.time}
                error={problems[index]?.time}
                onChange={(e) => setRows((c) => c.map((r) => (r.key === row.key ? { ...r, time: e.target.value } : r)))}
                slotProps={{ htmlInput: { inputMode: 'numeric' } }}
              />
              <IconButton
                aria-label={t('steps.remove', { number: index + 1 })}
                onClick={() => setRows((c) => c.filter((r) => r.key !== row.key))}
              >
                <DeleteOutlined />
              </IconButton>
            </Box>
          ))}
        </Box>
        <Box>
          <Button
            startIcon={<AddOutlined aria-hidden />}
            onClick={add}
            disabled={rows.length >= BEST_CASE_STEPS_MAX || vocabulary.length === 0}
            data-testid="best-case-add-step"
          >
            {t('steps.add', { time: formatClock(now, withHours) })}
          </Button>
        </Box>
        {error && <Alert severity="error">{error}</Alert>}
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2 }}>
        <Button onClick={onClose} disabled={save.isPending}>
          {t('admin.cancel')}
        </Button>
        <PendingButton
          variant="contained"
          onClick={() => void submit()}
          pending={save.isPending}
          icon={<SaveOutlined aria-hidden />}
          data-testid="best-case-save-steps"
        >
          {t('admin.save')}
        </PendingButton>
      </DialogActions>
    </>
  );
}

/** The steps of an uploaded video: where each starts (it ends where the next one starts). */
export function BestCaseStepsDialog({ id, onClose }: { id: string | null; onClose(): void }) {
  const { t } = useTranslation('best-cases');
  const fullScreen = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const detail = useAdminBestCase(id);
  return (
    <Dialog open={!!id} onClose={onClose} fullScreen={fullScreen} maxWidth="md" fullWidth aria-labelledby="best-case-steps-title">
      <DialogTitle id="best-case-steps-title">{t('steps.title')}</DialogTitle>
      {detail.data && detail.data.id === id ? (
        <StepsForm key={detail.data.id} detail={detail.data} onClose={onClose} />
      ) : detail.isError ? (
        <DialogContent>
          <Alert severity="error">{errorText(detail.error)}</Alert>
        </DialogContent>
      ) : (
        <DialogContent>
          <Skeleton variant="rounded" height={240} />
        </DialogContent>
      )}
    </Dialog>
  );
}
