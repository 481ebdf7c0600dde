import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import TrendingDown from '@mui/icons-material/TrendingDown';
import TrendingFlat from '@mui/icons-material/TrendingFlat';
import TrendingUp from '@mui/icons-material/TrendingUp';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import { LEARNING_CURVE_STATES, type LearningCurveState } from '@sutura/domain/learning-curves';
import { STATE_ORDER, type CohortRow, type ProgrammePerson, type Trend } from '@sutura/domain/programmes';
import { PendingButton } from '@/components/pending-button';
import { formatDay } from '@/components/video/format';
import { errorText } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { useToast } from '@/lib/toast';
import { downloadCohortCsv, useCohort } from '@/lib/programmes';
import { ProgrammeFacts } from '@/components/programmes/programme-facts';
import { StateChip, stateCase } from '@/components/programmes/state';

type Line = { learner: ProgrammePerson; row: CohortRow | null };
const SORTS = ['learner', 'procedure', 'cases', 'latest', 'trend', 'state', 'lastCase'] as const;
type Sort = (typeof SORTS)[number];
const TREND_ORDER: Record<Trend, number> = { down: 0, steady: 1, up: 2 };
const TREND_ICONS = { up: TrendingUp, steady: TrendingFlat, down: TrendingDown };

function TrendCell({ trend }: { trend: Trend | null }) {
  const { t } = useTranslation('programmes');
  if (!trend) return <>—</>;
  const Icon = TREND_ICONS[trend];
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
      <Icon fontSize="small" aria-hidden />
      {t(`trends.${trend}`)}
    </Box>
  );
}

/** `/programmes/:id`: the director's cohort, learners × procedures, sortable and filterable, exported as CSV. */
export function CohortPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation(['programmes', 'errors']);
  const toast = useToast();
  const lang = currentLanguage();
  const cohort = useCohort(id);
  const [query, setQuery] = useState('');
  const [procedure, setProcedure] = useState('');
  const [state, setState] = useState<LearningCurveState | ''>('');
  const [sort, setSort] = useState<{ by: Sort; desc: boolean }>({ by: 'learner', desc: false });
  const [downloading, setDownloading] = useState(false);

  const lines = useMemo<Line[]>(() => {
    if (!cohort.data) return [];
    const { learners, rows } = cohort.data;
    const all: Line[] = learners.flatMap((learner): Line[] => {
      const own = rows.filter((r) => r.learnerId === learner.id);
      return own.length ? own.map((row) => ({ learner, row })) : [{ learner, row: null }];
    });
    const q = query.trim().toLocaleLowerCase(lang);
    const kept = all.filter(
      (l) =>
        (!q || `${l.learner.firstName} ${l.learner.lastName}`.toLocaleLowerCase(lang).includes(q)) &&
        (!procedure || l.row?.surgery.id === procedure) &&
        (!state || (l.row?.state ?? 'learning') === state),
    );
    const name = (l: Line) => `${l.learner.lastName} ${l.learner.firstName}`;
    const num = (v: number | null | undefined) => v ?? -Infinity;
    const compare = (a: Line, b: Line): number => {
      switch (sort.by) {
        case 'learner':
          return name(a).localeCompare(name(b), lang);
        case 'procedure':
          return (a.row?.surgery.name ?? '').localeCompare(b.row?.surgery.name ?? '', lang);
        case 'cases':
          return num(a.row?.cases) - num(b.row?.cases);
        case 'latest':
          return num(a.row?.latestRating) - num(b.row?.latestRating);
        case 'trend':
          return num(a.row?.trend ? TREND_ORDER[a.row.trend] : null) - num(b.row?.trend ? TREND_ORDER[b.row.trend] : null);
        case 'state':
          return STATE_ORDER[a.row?.state ?? 'learning'] - STATE_ORDER[b.row?.state ?? 'learning'];
        case 'lastCase':
          return (a.row?.lastCaseOn ?? '').localeCompare(b.row?.lastCaseOn ?? '');
      }
    };
    return kept.sort((a, b) => (sort.desc ? -1 : 1) * compare(a, b) || name(a).localeCompare(name(b), lang));
  }, [cohort.data, query, procedure, state, sort, lang]);

  if (cohort.isPending) return <Skeleton variant="rounded" height={240} />;
  if (cohort.isError) return <Alert severity="error">{errorText(cohort.error)}</Alert>;
  const { programme, rows } = cohort.data;
  const procedures = [...new Map(rows.map((r) => [r.surgery.id, r.surgery.name])).entries()].sort((a, b) => a[1].localeCompare(b[1], lang));
  const fmt = (v: number | null) => (v === null ? '—' : new Intl.NumberFormat(lang, { maximumFractionDigits: 2 }).format(v));
  const header = (by: Sort) => (
    <TableCell key={by} sortDirection={sort.by === by ? (sort.desc ? 'desc' : 'asc') : false}>
      <TableSortLabel
        active={sort.by === by}
        direction={sort.by === by && sort.desc ? 'desc' : 'asc'}
        onClick={() => setSort((s) => ({ by, desc: s.by === by ? !s.desc : false }))}
        data-testid={`cohort-sort-${by}`}
      >
        {t(`cohort.columns.${by}`)}
      </TableSortLabel>
    </TableCell>
  );

  return (
    <Box sx={{ display: 'grid', gap: 2, minWidth: 0 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', justifyContent: 'space-between', gap: 1 }}>
        <Box>
          <Typography component="h1" variant="h5" data-testid="cohort-title">
            {programme.name}
          </Typography>
          <ProgrammeFacts programme={programme} />
        </Box>
        <PendingButton
          variant="outlined"
          icon={<DownloadOutlined />}
          pending={downloading}
          data-testid="cohort-csv"
          onClick={async () => {
            setDownloading(true);
            try {
              await downloadCohortCsv(id);
            } catch (error) {
              toast('error', errorText(error));
            } finally {
              setDownloading(false);
            }
          }}
        >
          {t('cohort.csv')}
        </PendingButton>
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5 }} role="search" aria-label={t('cohort.filters')}>
        <TextField
          size="small"
          label={t('cohort.search')}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          slotProps={{ htmlInput: { 'data-testid': 'cohort-search' } as object }}
          sx={{ flex: '1 1 200px' }}
        />
        <TextField
          select
          size="small"
          label={t('cohort.procedure')}
          value={procedure}
          onChange={(e) => setProcedure(e.target.value)}
          sx={{ flex: '1 1 200px' }}
          slotProps={{ htmlInput: { 'data-testid': 'cohort-procedure' } as object }}
        >
          <MenuItem value="">{t('cohort.all')}</MenuItem>
          {procedures.map(([pid, name]) => (
            <MenuItem key={pid} value={pid}>
              {name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={t('cohort.state')}
          value={state}
          onChange={(e) => setState(e.target.value as LearningCurveState | '')}
          sx={{ flex: '1 1 200px' }}
          slotProps={{ htmlInput: { 'data-testid': 'cohort-state' } as object }}
        >
          <MenuItem value="">{t('cohort.all')}</MenuItem>
          {LEARNING_CURVE_STATES.map((s) => (
            <MenuItem key={s} value={s}>
              {t(`states.${s}`)}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      <Box sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={t('cohort.caption', { programme: programme.name })}>
        <Table size="small" data-testid="cohort-table">
          <Box component="caption" sx={{ captionSide: 'top', textAlign: 'left', p: 0, pb: 1 }}>
            {t('cohort.count', { count: lines.length })}
          </Box>
          <TableHead>
            <TableRow>{SORTS.map(header)}</TableRow>
          </TableHead>
          <TableBody>
            {lines.map(({ learner, row }) => (
              <TableRow key={`${learner.id}-${row?.surgery.id ?? 'none'}`} data-testid="cohort-row">
                <TableCell component="th" scope="row" sx={{ whiteSpace: 'nowrap' }}>
                  <Link component={RouterLink} to={`/programmes/${id}/learners/${learner.id}`} data-testid="cohort-learner">
                    {learner.firstName} {learner.lastName}
                  </Link>
                </TableCell>
                <TableCell>{row?.surgery.name ?? t('cohort.noCase')}</TableCell>
                <TableCell>{row?.cases ?? 0}</TableCell>
                <TableCell>{fmt(row?.latestRating ?? null)}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  <TrendCell trend={row?.trend ?? null} />
                </TableCell>
                <TableCell>
                  <StateChip state={row?.state ?? 'learning'} at={row ? stateCase(row) : null} />
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{row?.lastCaseOn ? formatDay(row.lastCaseOn, lang) : '—'}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
    </Box>
  );
}
