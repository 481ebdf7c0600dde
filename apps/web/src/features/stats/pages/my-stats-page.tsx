import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import { visuallyHidden } from '@mui/utils';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import { KPI_DEFINITIONS, KPIS } from '@sutura/domain/analysis';
import type { LearnerStats, RadarSeries, StatsComparison } from '@sutura/domain/stats';
import { errorText } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { useSession } from '@/lib/session';
import { useToast } from '@/lib/toast';
import { useMyStats } from '@/features/stats/api/stats';
import type { RadarLine } from '@/features/stats/components/stats-radar';

const StatsRadar = lazy(() => import('@/features/stats/components/stats-radar'));
const StatsTimeline = lazy(() => import('@/features/stats/components/stats-timeline'));

type Shown = Extract<LearnerStats, { ratingsShown: true }>;
type Cell = string | number | null;

/** A CSV file of a table, with its header row; a semicolon separates fields for French spreadsheets. */
function downloadCsv(name: string, header: string[], rows: Cell[][], lang: string) {
  const sep = lang === 'fr' ? ';' : ',';
  const cell = (v: Cell) => {
    const text = v === null ? '' : typeof v === 'number' && lang === 'fr' ? String(v).replace('.', ',') : String(v);
    return /[";,\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  const csv = [header, ...rows].map((r) => r.map(cell).join(sep)).join('\r\n');
  const url = URL.createObjectURL(new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  URL.revokeObjectURL(url);
}

function StatsTable({ caption, header, rows, testId }: { caption: string; header: string[]; rows: Cell[][]; testId: string }) {
  const { t } = useTranslation('stats');
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Box
        component="table"
        data-testid={testId}
        sx={{
          borderCollapse: 'collapse',
          width: '100%',
          fontSize: 14,
          '& td, & th': { py: 0.75, px: 1, borderBottom: 1, borderColor: 'divider', textAlign: 'left', whiteSpace: 'nowrap' },
        }}
      >
        <Box component="caption" sx={visuallyHidden}>
          {caption}
        </Box>
        <thead>
          <tr>
            {header.map((h, i) => (
              <th key={i} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, r) => (
            <tr key={r}>
              {row.map((v, i) =>
                i === 0 ? (
                  <th key={i} scope="row">
                    {v}
                  </th>
                ) : (
                  <td key={i}>{v === null ? t('none') : v}</td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </Box>
    </Box>
  );
}

function Section({ title, children, onCsv }: { title: string; children: React.ReactNode; onCsv: () => void }) {
  const { t } = useTranslation('stats');
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 2, display: 'grid', gap: 2, minWidth: 0 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', justifyContent: 'space-between' }}>
        <Typography variant="h3" component="h2">
          {title}
        </Typography>
        <Button size="small" startIcon={<DownloadOutlined />} onClick={onCsv}>
          {t('csv')}
        </Button>
      </Box>
      {children}
    </Paper>
  );
}

function RatingsHidden() {
  const { t } = useTranslation('stats');
  const { updatePreferences } = useSession();
  const toast = useToast();
  const [pending, setPending] = useState(false);
  const turnOn = async () => {
    setPending(true);
    try {
      await updatePreferences({ showRatings: true });
    } catch (error) {
      toast('error', errorText(error));
    } finally {
      setPending(false);
    }
  };
  return (
    <Alert
      severity="info"
      data-testid="stats-ratings-hidden"
      action={
        <Button onClick={turnOn} disabled={pending}>
          {t('showRatings')}
        </Button>
      }
    >
      {t('ratingsHidden')}
    </Alert>
  );
}

function useSeriesLabel() {
  const { t } = useTranslation('stats');
  return (s: RadarSeries, compare: StatsComparison) =>
    s.key === 'average' ? t(compare === 'specialty' ? 'series.specialty' : 'series.all') : t(`series.months.${s.key}` as 'series.months.0');
}

function Radar({ stats }: { stats: Shown }) {
  const { t } = useTranslation('stats');
  const theme = useTheme();
  const lang = currentLanguage() === 'fr' ? 'fr' : 'en';
  const label = useSeriesLabel();
  const colors = [
    theme.palette.text.secondary,
    theme.palette.primary.main,
    theme.palette.info.main,
    theme.palette.warning.main,
    theme.palette.error.main,
  ];
  // The learner now first (filled), the average dashed; a series without enough data is not drawn.
  const order = [1, 0, 2, 3, 4];
  const lines: RadarLine[] = order
    .filter((i) => stats.radar[i]!.enoughData)
    .map((i) => ({
      key: `s${i === 1 ? 0 : i === 0 ? 'a' : i - 1}`,
      label: label(stats.radar[i]!, stats.compare),
      color: colors[i]!,
      dashed: i === 0,
    }));
  const keyOf = (i: number) => `s${i === 1 ? 0 : i === 0 ? 'a' : i - 1}`;
  const data = KPIS.map((k) => ({
    name: KPI_DEFINITIONS[k].name[lang],
    ...Object.fromEntries(stats.radar.map((s, i) => [keyOf(i), s.kpis[k]])),
  }));
  const header = [t('table.series'), t('table.analyses'), ...KPIS.map((k) => KPI_DEFINITIONS[k].name[lang])];
  const rows: Cell[][] = stats.radar.map((s) => [label(s, stats.compare), s.analyses, ...KPIS.map((k) => s.kpis[k])]);
  const missing = stats.radar.filter((s) => !s.enoughData);
  return (
    <Section title={t('radar.title')} onCsv={() => downloadCsv('sutura-kpis.csv', header, rows, lang)}>
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {t('radar.explain', { days: stats.windowDays, min: stats.minAnalyses })}
      </Typography>
      {missing.length > 0 && (
        <Alert severity="warning" data-testid="stats-too-little">
          {t('radar.tooLittle', { series: missing.map((s) => label(s, stats.compare)).join(', '), min: stats.minAnalyses })}
        </Alert>
      )}
      <Box aria-hidden data-testid="stats-radar" sx={{ minHeight: 360 }}>
        <Suspense fallback={<Skeleton variant="circular" width={300} height={300} sx={{ mx: 'auto' }} />}>
          <StatsRadar data={data} lines={lines} />
        </Suspense>
      </Box>
      <StatsTable caption={t('radar.caption')} header={header} rows={rows} testId="stats-radar-table" />
    </Section>
  );
}

function Timeline({ stats }: { stats: Shown }) {
  const { t } = useTranslation('stats');
  const theme = useTheme();
  const lang = currentLanguage() === 'fr' ? 'fr' : 'en';
  const month = (m: string) => new Intl.DateTimeFormat(lang, { month: 'short', year: '2-digit', timeZone: 'UTC' }).format(new Date(m));
  const palette = [
    theme.palette.info.main,
    theme.palette.warning.main,
    theme.palette.success.main,
    theme.palette.error.main,
    theme.palette.secondary.main,
  ];
  const lines: RadarLine[] = [
    { key: 'global', label: t('timeline.global'), color: theme.palette.primary.main, dashed: false },
    ...KPIS.map((k, i) => ({ key: k, label: KPI_DEFINITIONS[k].name[lang], color: palette[i]!, dashed: true })),
  ];
  const data = stats.timeline.map((p) => ({ month: month(p.month), global: p.global, ...p.kpis }));
  const header = [t('table.month'), t('table.analyses'), t('timeline.global'), ...KPIS.map((k) => KPI_DEFINITIONS[k].name[lang])];
  const rows: Cell[][] = stats.timeline.map((p) => [month(p.month), p.analyses, p.global, ...KPIS.map((k) => p.kpis[k])]);
  const empty = stats.timeline.every((p) => p.analyses === 0);
  return (
    <Section title={t('timeline.title')} onCsv={() => downloadCsv('sutura-timeline.csv', header, rows, lang)}>
      {empty ? (
        <Alert severity="info">{t('timeline.empty')}</Alert>
      ) : (
        <Box aria-hidden data-testid="stats-timeline" sx={{ minHeight: 320 }}>
          <Suspense fallback={<Skeleton variant="rectangular" height={320} />}>
            <StatsTimeline data={data} lines={lines} />
          </Suspense>
        </Box>
      )}
      <StatsTable caption={t('timeline.caption')} header={header} rows={rows} testId="stats-timeline-table" />
    </Section>
  );
}

/** `/my-stats`: the learner's progress against their peers and their own past (docs/statistics.md). */
export function MyStatsPage() {
  const { t } = useTranslation('stats');
  const [compare, setCompare] = useState<StatsComparison>('all');
  const query = useMyStats(compare);
  const stats = query.data;
  return (
    <Box sx={{ maxWidth: 1100, mx: 'auto', width: '100%', display: 'grid', gap: 2 }}>
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap', justifyContent: 'flex-end' }}>
        {stats?.ratingsShown && (
          <ToggleButtonGroup
            size="small"
            exclusive
            value={compare}
            onChange={(_, value: StatsComparison | null) => value && setCompare(value)}
            aria-label={t('compare.label')}
          >
            <ToggleButton value="all" data-testid="compare-all">
              {t('compare.all')}
            </ToggleButton>
            <ToggleButton value="specialty" data-testid="compare-specialty" disabled={!stats.specialtyKnown}>
              {t('compare.specialty')}
            </ToggleButton>
          </ToggleButtonGroup>
        )}
      </Box>
      {query.isError && <Alert severity="error">{errorText(query.error)}</Alert>}
      {!stats && query.isPending && <Skeleton variant="rectangular" height={360} />}
      {stats && !stats.ratingsShown && <RatingsHidden />}
      {stats?.ratingsShown && (
        <>
          <Radar stats={stats} />
          <Timeline stats={stats} />
        </>
      )}
    </Box>
  );
}
