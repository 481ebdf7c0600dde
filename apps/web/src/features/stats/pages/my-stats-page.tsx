import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useChartPalette } from '@/lib/theme';
import { visuallyHidden } from '@mui/utils';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import { KPI_DEFINITIONS, KPIS, type Kpi } from '@sutura/domain/analysis';
import {
  STATS_TABS,
  type CaseTimes,
  type LearnerNasaTlx,
  type LearnerStats,
  type LearnerStepTimes,
  type RadarSeries,
  type StatsComparison,
  type StatsTab,
} from '@sutura/domain/stats';
import { NASA_TLX_DIMENSIONS } from '@sutura/domain/videos';
import { errorText } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { useSession } from '@/lib/session';
import { useToast } from '@/lib/toast';
import { useMyNasaTlx, useMyStats, useMyStepTimes } from '@/features/stats/api/stats';
import type { RadarLine } from '@/features/stats/components/stats-radar';
import { SelfVsExpertSection } from '@/features/stats/components/self-vs-expert-section';
import { OwnCurvesSection } from '@/components/programmes/own-curves-section';

const StatsRadar = lazy(() => import('@/features/stats/components/stats-radar'));
const StatsTimeline = lazy(() => import('@/features/stats/components/stats-timeline'));
const StatsBars = lazy(() => import('@/features/stats/components/stats-bars'));

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

/** A duration in seconds as people read it: "45 s", "3 min 05 s", "1 h 02 min". */
function formatDuration(seconds: number): string {
  const total = Math.round(seconds);
  if (total < 60) return `${total} s`;
  const minutes = Math.floor(total / 60);
  if (minutes < 60) return `${minutes} min ${String(total % 60).padStart(2, '0')} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

function StatsTable({
  caption,
  header,
  rows,
  testId,
  display,
}: {
  caption: string;
  header: string[];
  rows: Cell[][];
  testId: string;
  /** How a number is shown (a duration…); by default a decimal number of the page's language. */
  display?: (value: number, row: number, column: number) => string;
}) {
  const { t } = useTranslation('stats');
  const lang = currentLanguage();
  const show = (v: Cell, r: number, i: number) =>
    v === null
      ? t('none')
      : typeof v === 'number'
        ? (display?.(v, r, i) ?? new Intl.NumberFormat(lang, { maximumFractionDigits: 1 }).format(v))
        : v;
  return (
    // Scrolled sideways on a phone: the keyboard reaches it too (WCAG 2.1.1), named by its caption.
    <Box sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={caption}>
      <Box
        component="table"
        data-testid={testId}
        sx={{
          borderCollapse: 'collapse',
          width: '100%',
          fontSize: 14,
          '& td, & th': { py: 0.75, px: 1, borderBottom: 1, borderColor: 'divider', textAlign: 'left', whiteSpace: 'nowrap' },
          // A long name (a surgery step) wraps instead of pushing the numbers out of sight.
          '& th[scope=row]': { whiteSpace: 'normal', minWidth: 120 },
          // So does a long column name (a skill), so that the table fits a wide page without scrolling.
          '& th[scope=col]': { whiteSpace: 'normal', verticalAlign: 'bottom' },
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
                  <td key={i}>{show(v, r, i)}</td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </Box>
    </Box>
  );
}

function Section({ title, children, onCsv }: { title: string; children: React.ReactNode; onCsv?: () => void }) {
  const { t } = useTranslation('stats');
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 2, display: 'grid', gap: 2, minWidth: 0 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', justifyContent: 'space-between' }}>
        <Typography variant="h3" component="h2">
          {title}
        </Typography>
        {onCsv && (
          <Button size="small" startIcon={<DownloadOutlined />} onClick={onCsv}>
            {t('csv')}
          </Button>
        )}
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
  const colours = useChartPalette();
  const lang = currentLanguage() === 'fr' ? 'fr' : 'en';
  const label = useSeriesLabel();
  // The learner now first, the average second, then their own past: the charts' palette in order.
  const colors = [colours.series[1]!, colours.series[0]!, colours.series[2]!, colours.series[3]!, colours.series[4]!];
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
  // The average's number of surgeons (each counted once); a series of mine has none.
  const header = [t('table.series'), t('table.analyses'), t('table.surgeons'), ...KPIS.map((k) => KPI_DEFINITIONS[k].name[lang])];
  const rows: Cell[][] = stats.radar.map((s) => [label(s, stats.compare), s.analyses, s.surgeons ?? null, ...KPIS.map((k) => s.kpis[k])]);
  const missing = stats.radar.filter((s) => !s.enoughData);
  return (
    <Section title={t('radar.title')} onCsv={() => downloadCsv('sutura-kpis.csv', header, rows, lang)}>
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {t('radar.explain', { days: stats.windowDays, min: stats.minAnalyses, minSurgeons: stats.minSurgeons })}
      </Typography>
      {missing.length > 0 && (
        <Alert severity="warning" data-testid="stats-too-little">
          {t('radar.tooLittle', {
            series: missing.map((s) => label(s, stats.compare)).join(', '),
            min: stats.minAnalyses,
            minSurgeons: stats.minSurgeons,
          })}
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
  const colours = useChartPalette();
  const lang = currentLanguage() === 'fr' ? 'fr' : 'en';
  const month = (m: string) => new Intl.DateTimeFormat(lang, { month: 'short', year: '2-digit', timeZone: 'UTC' }).format(new Date(m));
  // The global rating in the first colour, each skill in its own (never two alike).
  const palette = colours.series.slice(1);
  // The global rating always; every skill, or the one chosen (SPEC: each KPI over time).
  const [focus, setFocus] = useState<Kpi | 'all'>('all');
  const lines: RadarLine[] = [
    { key: 'global', label: t('timeline.global'), color: colours.series[0]!, dashed: false },
    ...KPIS.map((k, i) => ({ key: k, label: KPI_DEFINITIONS[k].name[lang], color: palette[i]!, dashed: focus === 'all' })).filter(
      (l) => focus === 'all' || l.key === focus,
    ),
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
        <>
          <TextField
            select
            size="small"
            label={t('timeline.skill')}
            value={focus}
            onChange={(e) => setFocus(e.target.value as Kpi | 'all')}
            slotProps={{ htmlInput: { 'data-testid': 'stats-timeline-skill' } as object }}
            sx={{ maxWidth: 320 }}
          >
            <MenuItem value="all">{t('timeline.allSkills')}</MenuItem>
            {KPIS.map((k) => (
              <MenuItem key={k} value={k}>
                {KPI_DEFINITIONS[k].name[lang]}
              </MenuItem>
            ))}
          </TextField>
          <Box aria-hidden data-testid="stats-timeline" sx={{ minHeight: 320 }}>
            <Suspense fallback={<Skeleton variant="rectangular" height={320} />}>
              <StatsTimeline data={data} lines={lines} />
            </Suspense>
          </Box>
        </>
      )}
      <StatsTable caption={t('timeline.caption')} header={header} rows={rows} testId="stats-timeline-table" />
    </Section>
  );
}

function CompareToggle({
  value,
  onChange,
  specialtyKnown,
}: {
  value: StatsComparison;
  onChange: (v: StatsComparison) => void;
  specialtyKnown: boolean;
}) {
  const { t } = useTranslation('stats');
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      value={value}
      onChange={(_, next: StatsComparison | null) => next && onChange(next)}
      aria-label={t('compare.label')}
      sx={{ justifySelf: 'end' }}
    >
      <ToggleButton value="all" data-testid="compare-all">
        {t('compare.all')}
      </ToggleButton>
      <ToggleButton value="specialty" data-testid="compare-specialty" disabled={!specialtyKnown}>
        {t('compare.specialty')}
      </ToggleButton>
    </ToggleButtonGroup>
  );
}

function Loading({ query }: { query: { isError: boolean; error: unknown } }) {
  return query.isError ? <Alert severity="error">{errorText(query.error)}</Alert> : <Skeleton variant="rectangular" height={360} />;
}

/** The radar ("overview") or the KPIs month by month ("kpis"): expert ratings, hidden with showRatings off. */
function RatingsTab({
  tab,
  compare,
  onCompare,
}: {
  tab: 'overview' | 'kpis';
  compare: StatsComparison;
  onCompare: (v: StatsComparison) => void;
}) {
  const query = useMyStats(compare);
  const stats = query.data;
  if (!stats) return <Loading query={query} />;
  if (!stats.ratingsShown) return <RatingsHidden />;
  return (
    <>
      {query.isError && <Alert severity="error">{errorText(query.error)}</Alert>}
      {tab === 'overview' && <CompareToggle value={compare} onChange={onCompare} specialtyKnown={stats.specialtyKnown} />}
      {tab === 'overview' ? <Radar stats={stats} /> : <Timeline stats={stats} />}
    </>
  );
}

function NasaTlxTab({ compare, onCompare }: { compare: StatsComparison; onCompare: (v: StatsComparison) => void }) {
  const { t } = useTranslation('stats');
  const colours = useChartPalette();
  const lang = currentLanguage();
  const query = useMyNasaTlx(compare);
  const tlx: LearnerNasaTlx | undefined = query.data;
  if (!tlx) return <Loading query={query} />;
  const dimension = (d: (typeof NASA_TLX_DIMENSIONS)[number]) => t(`tlx.dimensions.${d}`);
  const seriesLabel = (key: 'mine' | 'average') =>
    key === 'mine' ? t('series.months.0') : t(tlx.compare === 'specialty' ? 'series.specialty' : 'series.all');

  // Mine against the average: one row per scale, and the raw score.
  const lines: RadarLine[] = [
    { key: 'mine', label: seriesLabel('mine'), color: colours.series[0]!, dashed: false },
    { key: 'average', label: seriesLabel('average'), color: colours.series[1]!, dashed: true },
  ].filter((l) => tlx[l.key as 'mine' | 'average'].enoughData);
  const chart = [
    ...NASA_TLX_DIMENSIONS.map((d) => ({ name: dimension(d), mine: tlx.mine.dimensions[d], average: tlx.average.dimensions[d] })),
    { name: t('tlx.raw'), mine: tlx.mine.raw, average: tlx.average.raw },
  ];
  const header = [t('tlx.scale'), seriesLabel('mine'), seriesLabel('average')];
  const rows: Cell[][] = [
    [t('table.cases'), tlx.mine.cases, tlx.average.cases],
    [t('table.surgeons'), null, tlx.average.surgeons ?? null],
    ...chart.map((r): Cell[] => [r.name, r.mine, r.average]),
  ];
  const missing = [tlx.mine, tlx.average].filter((s) => !s.enoughData);

  // Month by month: the raw score thick, each scale dashed.
  const month = (m: string) => new Intl.DateTimeFormat(lang, { month: 'short', year: '2-digit', timeZone: 'UTC' }).format(new Date(m));
  const palette = colours.series.slice(1);
  const monthLines: RadarLine[] = [
    { key: 'raw', label: t('tlx.raw'), color: colours.series[0]!, dashed: false },
    ...NASA_TLX_DIMENSIONS.map((d, i) => ({ key: d, label: dimension(d), color: palette[i]!, dashed: true })),
  ];
  const monthData = tlx.timeline.map((p) => ({ month: month(p.month), raw: p.raw, ...p.dimensions }));
  const monthHeader = [t('table.month'), t('table.cases'), t('tlx.raw'), ...NASA_TLX_DIMENSIONS.map(dimension)];
  const monthRows: Cell[][] = tlx.timeline.map((p) => [month(p.month), p.cases, p.raw, ...NASA_TLX_DIMENSIONS.map((d) => p.dimensions[d])]);
  const empty = tlx.timeline.every((p) => p.cases === 0);

  return (
    <>
      <CompareToggle value={compare} onChange={onCompare} specialtyKnown={tlx.specialtyKnown} />
      <Section title={t('tlx.title')} onCsv={() => downloadCsv('sutura-nasa-tlx.csv', header, rows, lang)}>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('tlx.explain', { days: tlx.windowDays, min: tlx.minCases, minSurgeons: tlx.minSurgeons })}
        </Typography>
        {missing.length > 0 && (
          <Alert severity="warning" data-testid="stats-tlx-too-little">
            {t('tlx.tooLittle', {
              series: missing.map((s) => seriesLabel(s.key)).join(', '),
              min: tlx.minCases,
              minSurgeons: tlx.minSurgeons,
            })}
          </Alert>
        )}
        {lines.length > 0 && (
          <Box aria-hidden data-testid="stats-tlx-chart" sx={{ minHeight: 300 }}>
            <Suspense fallback={<Skeleton variant="rectangular" height={300} />}>
              <StatsBars data={chart} lines={lines} max={100} />
            </Suspense>
          </Box>
        )}
        <StatsTable caption={t('tlx.caption')} header={header} rows={rows} testId="stats-tlx-table" />
      </Section>
      <Section title={t('tlx.monthTitle')} onCsv={() => downloadCsv('sutura-nasa-tlx-months.csv', monthHeader, monthRows, lang)}>
        {empty ? (
          <Alert severity="info">{t('tlx.empty')}</Alert>
        ) : (
          <Box aria-hidden data-testid="stats-tlx-timeline" sx={{ minHeight: 320 }}>
            <Suspense fallback={<Skeleton variant="rectangular" height={320} />}>
              <StatsTimeline data={monthData} lines={monthLines} max={100} bold="raw" />
            </Suspense>
          </Box>
        )}
        <StatsTable caption={t('tlx.monthCaption')} header={monthHeader} rows={monthRows} testId="stats-tlx-timeline-table" />
      </Section>
    </>
  );
}

function StepTimesTab({ surgeryId, onSurgery }: { surgeryId: string | null; onSurgery: (id: string) => void }) {
  const { t } = useTranslation('stats');
  const colours = useChartPalette();
  const lang = currentLanguage();
  const query = useMyStepTimes(surgeryId);
  const data: LearnerStepTimes | undefined = query.data;
  if (!data) return <Loading query={query} />;
  if (!data.surgeryId) return <Alert severity="info">{t('steps.none')}</Alert>;
  const mineLabel = t('series.me');
  // Step times are averaged over every case of the surgery, not surgeon by surgeon: named for what they are.
  const averageLabel = t('series.allCases');

  const lines: RadarLine[] = [
    { key: 'mine', label: mineLabel, color: colours.series[0]!, dashed: false },
    { key: 'average', label: averageLabel, color: colours.series[1]!, dashed: true },
  ];
  const chart = data.steps.map((s) => ({ name: s.name, mine: s.mine.mean, average: s.average.mean }));
  const header = [t('steps.step'), `${mineLabel} (s)`, t('steps.myCases'), `${averageLabel} (s)`, t('steps.allCases')];
  const rows: Cell[][] = data.steps.map((s) => [s.name, s.mine.mean, s.mine.cases, s.average.mean, s.average.cases]);
  const headerShown = [t('steps.step'), mineLabel, t('steps.myCases'), averageLabel, t('steps.allCases')];

  // Active and non-active time per case; the declared surgery duration in minutes.
  const caseLines: RadarLine[] = [
    { key: 'active', label: t('steps.active'), color: colours.series[0]!, dashed: false },
    { key: 'nonActive', label: t('steps.nonActive'), color: colours.series[2]!, dashed: false },
  ];
  const series: [string, CaseTimes][] = [
    [mineLabel, data.mine],
    [averageLabel, data.average],
  ];
  const caseChart = series.filter(([, c]) => c.enoughData).map(([name, c]) => ({ name, active: c.active, nonActive: c.nonActive }));
  const caseHeader = [
    t('table.series'),
    t('table.cases'),
    t('steps.duration'),
    t('steps.active'),
    t('steps.nonActive'),
    t('steps.surgeryDuration'),
  ];
  const caseRows: Cell[][] = series.map(([name, c]) => [name, c.cases, c.duration, c.active, c.nonActive, c.surgeryDuration]);
  const csvCaseHeader = [
    t('table.series'),
    t('table.cases'),
    `${t('steps.duration')} (s)`,
    `${t('steps.active')} (s)`,
    `${t('steps.nonActive')} (s)`,
    `${t('steps.surgeryDuration')} (min)`,
  ];
  const surgeryName = data.surgeries.find((s) => s.id === data.surgeryId)?.name ?? '';

  return (
    <>
      <TextField
        select
        size="small"
        label={t('steps.surgery')}
        value={data.surgeryId}
        onChange={(e) => onSurgery(e.target.value)}
        slotProps={{ htmlInput: { 'data-testid': 'stats-surgery' } as object }}
        sx={{ minWidth: 220, maxWidth: 400, width: '100%' }}
      >
        {data.surgeries.map((s) => (
          <MenuItem key={s.id} value={s.id}>
            {t('steps.surgeryOption', { name: s.name, count: s.cases })}
          </MenuItem>
        ))}
      </TextField>
      <Section title={t('steps.title', { surgery: surgeryName })} onCsv={() => downloadCsv('sutura-step-times.csv', header, rows, lang)}>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('steps.explain', { min: data.minCases })}
        </Typography>
        {data.steps.length === 0 ? (
          <Alert severity="info">{t('steps.noVocabulary')}</Alert>
        ) : (
          <Box aria-hidden data-testid="stats-steps-chart">
            <Suspense fallback={<Skeleton variant="rectangular" height={300} />}>
              <StatsBars data={chart} lines={lines} format={formatDuration} />
            </Suspense>
          </Box>
        )}
        <StatsTable
          caption={t('steps.caption')}
          header={headerShown}
          rows={rows}
          testId="stats-steps-table"
          display={(v, _, column) => (column === 1 || column === 3 ? formatDuration(v) : String(v))}
        />
      </Section>
      <Section title={t('steps.caseTitle')} onCsv={() => downloadCsv('sutura-case-times.csv', csvCaseHeader, caseRows, lang)}>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('steps.caseExplain', { min: data.minCases })}
        </Typography>
        {caseChart.length > 0 && (
          <Box aria-hidden data-testid="stats-case-chart">
            <Suspense fallback={<Skeleton variant="rectangular" height={200} />}>
              <StatsBars data={caseChart} lines={caseLines} stacked format={formatDuration} />
            </Suspense>
          </Box>
        )}
        <StatsTable
          caption={t('steps.caseCaption')}
          header={caseHeader}
          rows={caseRows}
          testId="stats-case-table"
          display={(v, _, column) =>
            column === 1 ? String(v) : column === 5 ? t('steps.minutes', { value: Math.round(v) }) : formatDuration(v)
          }
        />
      </Section>
    </>
  );
}

const isTab = (value: string | null): value is StatsTab => (STATS_TABS as readonly string[]).includes(value ?? '');

/**
 * `/my-stats?tab=…`: the learner's progress against their peers and their own past
 * (docs/statistics.md), in tabs that can be linked to.
 */
export function MyStatsPage() {
  const { t } = useTranslation('stats');
  const [search, setSearch] = useSearchParams();
  const tabParam = search.get('tab');
  const tab: StatsTab = isTab(tabParam) ? tabParam : 'overview';
  const surgeryId = search.get('surgery');
  const [compare, setCompare] = useState<StatsComparison>('all');
  const select = (next: StatsTab) => setSearch(next === 'overview' ? {} : { tab: next });
  return (
    <Box sx={{ maxWidth: 1100, mx: 'auto', width: '100%', display: 'grid', gap: 2, minWidth: 0 }}>
      <Tabs
        value={tab}
        onChange={(_, next: StatsTab) => select(next)}
        variant="scrollable"
        allowScrollButtonsMobile
        aria-label={t('tabs.label')}
        sx={{ borderBottom: 1, borderColor: 'divider' }}
      >
        {STATS_TABS.map((name) => (
          <Tab
            key={name}
            value={name}
            label={t(`tabs.${name}`)}
            id={`stats-tab-${name}`}
            aria-controls="stats-tab-panel"
            data-testid={`stats-tab-${name}`}
          />
        ))}
      </Tabs>
      <Box id="stats-tab-panel" role="tabpanel" aria-labelledby={`stats-tab-${tab}`} sx={{ display: 'grid', gap: 2, minWidth: 0 }}>
        {(tab === 'overview' || tab === 'kpis') && <RatingsTab tab={tab} compare={compare} onCompare={setCompare} />}
        {tab === 'kpis' && <SelfVsExpertSection />}
        {tab === 'nasaTlx' && <NasaTlxTab compare={compare} onCompare={setCompare} />}
        {tab === 'curves' && <OwnCurvesSection />}
        {tab === 'steps' && <StepTimesTab surgeryId={surgeryId} onSurgery={(id) => setSearch({ tab: 'steps', surgery: id })} />}
      </Box>
    </Box>
  );
}
