import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import Pagination from '@mui/material/Pagination';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import PriorityHigh from '@mui/icons-material/PriorityHigh';
import { formatRelativeTime } from '@sutura/domain/relative-time';
import type { PoolItem } from '@sutura/domain/preparation';
import { errorText } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { useToast } from '@/lib/toast';
import { useOrgans, useSurgeries } from '@/lib/vocabularies';
import { VideoPoster } from '@/components/video/video-poster';
import { VideoStatusChip } from '@/components/case/video-status-chip';
import { EDITOR_PAGE_SIZE, useHeld, usePool, usePrepared } from '@/features/preparation/api/editor-lists';
import { useClaimVideo } from '@/features/preparation/api/preparation';
import type { PoolParams } from '@/features/preparation/api/editor-keys';
import { useEditorRealtime } from '@/features/preparation/hooks/use-editor-realtime';
import { DurationBadge } from '@/components/video/duration-badge';

/** A video of the editor's lists: poster, surgery, organ, duration, and what the list adds. */
function PoolCard({ item, children, testId }: { item: PoolItem; children: React.ReactNode; testId: string }) {
  const { t } = useTranslation('editor');
  return (
    <Card
      variant="outlined"
      data-testid={testId}
      data-video-id={item.id}
      sx={{ borderRadius: 2, display: 'flex', flexDirection: 'column' }}
    >
      <Box sx={{ position: 'relative', aspectRatio: '16 / 9' }}>
        <VideoPoster video={{ kind: 'video', mediaStatus: 'ready', posterUrl: item.posterUrl, pictureCount: 0 }} />
        {item.duration !== null && <DurationBadge seconds={item.duration} label={t('pool.duration')} />}
        {item.priority && (
          <Chip
            size="small"
            color="quaternary"
            icon={<PriorityHigh aria-hidden />}
            label={t('pool.priority')}
            sx={{ position: 'absolute', left: 8, top: 8, fontWeight: 700 }}
          />
        )}
      </Box>
      <Box sx={{ p: 2, display: 'grid', gap: 0.5, flex: 1, alignContent: 'start' }}>
        <Typography variant="h3" component="h3">
          {item.surgery?.name ?? t('pool.noSurgery')}
        </Typography>
        {item.organ && <Typography sx={{ color: 'text.secondary' }}>{item.organ.name}</Typography>}
        {children}
      </Box>
    </Card>
  );
}

const cardGrid = {
  display: 'grid',
  gap: 2,
  gridTemplateColumns: {
    xs: 'minmax(0, 1fr)',
    sm: 'repeat(2, minmax(0, 1fr))',
    lg: 'repeat(3, minmax(0, 1fr))',
    xl: 'repeat(4, minmax(0, 1fr))',
  },
} as const;

function Section({ title, id, count, children }: { title: string; id: string; count?: number; children: React.ReactNode }) {
  return (
    <Box component="section" aria-labelledby={id} sx={{ display: 'grid', gap: 2 }}>
      <Typography id={id} variant="h2" component="h2">
        {title}
        {count !== undefined && (
          <Box component="span" sx={{ color: 'text.secondary', fontWeight: 400 }}>
            {` (${count})`}
          </Box>
        )}
      </Typography>
      {children}
    </Box>
  );
}

function Loading() {
  return (
    <Box sx={cardGrid}>
      {[0, 1, 2].map((i) => (
        <Skeleton key={i} variant="rounded" sx={{ aspectRatio: '4 / 3', height: 'auto' }} />
      ))}
    </Box>
  );
}

/**
 * `/editor`: the videos I hold (hours left on each 12 h hold), the pool waiting for preparation
 * (priority first, then oldest; filters by surgery and organ; claim), and the videos I prepared.
 * Every list follows the others' claims live.
 */
export function EditorSpacePage() {
  const { t } = useTranslation('editor');
  const lang = currentLanguage();
  const navigate = useNavigate();
  const toast = useToast();
  useEditorRealtime();
  const [params, setParams] = useState<PoolParams>({ page: 1, surgeryId: null, organId: null });
  const [preparedPage, setPreparedPage] = useState(1);
  const held = useHeld();
  const pool = usePool(params);
  const prepared = usePrepared(preparedPage);
  const claim = useClaimVideo();
  // Cases may have a term retired since: the filters offer every term, a retired one labelled.
  const organs = useOrgans('filter').data ?? [];
  const surgeries = (useSurgeries('filter').data ?? []).filter((s) => !params.organId || s.organId === params.organId);
  const now = new Date();

  const claimVideo = (id: string) =>
    claim.mutate(id, {
      onSuccess: () => void navigate(`/editor/${encodeURIComponent(id)}`),
      onError: (error) => toast('error', errorText(error)),
    });

  const select = (
    label: string,
    value: string | null,
    options: { id: string; name: string }[],
    change: (v: string | null) => void,
    testId: string,
  ) => (
    <TextField
      select
      size="small"
      label={label}
      value={value ?? ''}
      onChange={(e) => change(e.target.value || null)}
      slotProps={{ htmlInput: { 'data-testid': testId } as object }}
      sx={{ minWidth: 200, flex: { xs: '1 1 100%', sm: '0 1 260px' } }}
    >
      <MenuItem value="">{t('pool.all')}</MenuItem>
      {options.map((o) => (
        <MenuItem key={o.id} value={o.id}>
          {o.name}
        </MenuItem>
      ))}
    </TextField>
  );

  const pages = (total: number) => Math.max(1, Math.ceil(total / EDITOR_PAGE_SIZE));

  return (
    <Box sx={{ display: 'grid', gap: 5, maxWidth: 1600, mx: 'auto', width: '100%' }}>
      <Section title={t('held.title')} id="held-title" count={held.data?.total}>
        {held.isError && <Alert severity="error">{errorText(held.error)}</Alert>}
        {!held.data && !held.isError && <Loading />}
        {held.data?.data.length === 0 && <Typography sx={{ color: 'text.secondary' }}>{t('held.empty')}</Typography>}
        {held.data && held.data.data.length > 0 && (
          <Box sx={cardGrid} data-testid="held-list">
            {held.data.data.map((item) => (
              <PoolCard key={item.id} item={item} testId="held-card">
                <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, my: 1 }}>
                  <Chip
                    size="small"
                    color={item.hoursLeft <= 2 ? 'tertiary' : 'default'}
                    label={t('held.hoursLeft', { count: item.hoursLeft })}
                  />
                  <Chip size="small" variant="outlined" label={t(`phase.${item.phase}`)} />
                  {item.renderStatus === 'failed' && <Chip size="small" color="error" label={t('held.renderFailed')} />}
                </Box>
                <Button
                  variant="contained"
                  component={RouterLink}
                  to={`/editor/${encodeURIComponent(item.id)}`}
                  data-testid="continue-preparation"
                >
                  {t('held.continue')}
                </Button>
              </PoolCard>
            ))}
          </Box>
        )}
      </Section>

      <Section title={t('pool.title')} id="pool-title" count={pool.data?.total}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
          {select(t('pool.organ'), params.organId, organs, (organId) => setParams({ page: 1, organId, surgeryId: null }), 'pool-organ')}
          {select(
            t('pool.surgery'),
            params.surgeryId,
            surgeries,
            (surgeryId) => setParams((p) => ({ ...p, page: 1, surgeryId })),
            'pool-surgery',
          )}
        </Box>
        {pool.isError && <Alert severity="error">{errorText(pool.error)}</Alert>}
        {!pool.data && !pool.isError && <Loading />}
        {pool.data?.data.length === 0 && (
          <Typography sx={{ color: 'text.secondary' }} data-testid="pool-empty">
            {t(params.surgeryId || params.organId ? 'pool.emptyFiltered' : 'pool.empty')}
          </Typography>
        )}
        {pool.data && pool.data.data.length > 0 && (
          <Box sx={cardGrid} data-testid="pool-list">
            {pool.data.data.map((item) => {
              const claiming = claim.isPending && claim.variables === item.id;
              return (
                <PoolCard key={item.id} item={item} testId="pool-card">
                  <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
                    {t('pool.waiting', { time: formatRelativeTime(new Date(item.sentAt), now, lang) })}
                  </Typography>
                  <Button
                    variant="contained"
                    onClick={() => claimVideo(item.id)}
                    disabled={claim.isPending}
                    startIcon={claiming ? <CircularProgress size={18} color="inherit" aria-hidden /> : undefined}
                    data-testid="claim-video"
                  >
                    {t('pool.claim')}
                  </Button>
                </PoolCard>
              );
            })}
          </Box>
        )}
        {pool.data && pool.data.total > EDITOR_PAGE_SIZE && (
          <Pagination
            count={pages(pool.data.total)}
            page={params.page}
            onChange={(_, page) => setParams((p) => ({ ...p, page }))}
            sx={{ justifySelf: 'center' }}
          />
        )}
      </Section>

      <Section title={t('prepared.title')} id="prepared-title" count={prepared.data?.total}>
        {prepared.isError && <Alert severity="error">{errorText(prepared.error)}</Alert>}
        {!prepared.data && !prepared.isError && <Loading />}
        {prepared.data?.data.length === 0 && <Typography sx={{ color: 'text.secondary' }}>{t('prepared.empty')}</Typography>}
        {prepared.data && prepared.data.data.length > 0 && (
          <Box sx={cardGrid} data-testid="prepared-list">
            {prepared.data.data.map((item) => (
              <PoolCard key={item.id} item={item} testId="prepared-card">
                <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
                  <VideoStatusChip video={{ id: item.id, status: item.status, mediaStatus: 'ready' }} />
                  <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                    {t('prepared.steps', { count: item.stepCount })}
                  </Typography>
                </Box>
                <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                  {t('prepared.submitted', { time: formatRelativeTime(new Date(item.submittedAt), now, lang) })}
                </Typography>
              </PoolCard>
            ))}
          </Box>
        )}
        {prepared.data && prepared.data.total > EDITOR_PAGE_SIZE && (
          <Pagination
            count={pages(prepared.data.total)}
            page={preparedPage}
            onChange={(_, page) => setPreparedPage(page)}
            sx={{ justifySelf: 'center' }}
          />
        )}
      </Section>
    </Box>
  );
}
