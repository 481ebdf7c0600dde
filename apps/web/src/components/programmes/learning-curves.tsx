import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { visuallyHidden } from '@mui/utils';
import type { LearnerCurves } from '@sutura/domain/programmes';
import { formatDay } from '@/components/video/format';
import { currentLanguage } from '@/lib/i18n';
import { curveSentence, StateChip, stateCase } from './state';

const CurveChart = lazy(() => import('./curve-chart'));

type Curve = LearnerCurves['curves'][number];

/** The sentences of every procedure, one per line: what the learner and the directors read first. */
export function CurveSentences({ curves }: { curves: Curve[] }) {
  const { t } = useTranslation('programmes');
  const lang = currentLanguage();
  return (
    <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1 }} data-testid="curve-sentences">
      {curves.map(({ surgery, curve }) => (
        <Box component="li" key={surgery.id} sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
          <StateChip state={curve.summary.state} at={stateCase(curve.summary)} />
          <Typography component="span" data-testid="curve-sentence">
            {curveSentence(surgery.name, curve.summary, t, lang)}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

const number =
  (lang: string, digits = 2) =>
  (v: number | null) =>
    v === null ? '—' : new Intl.NumberFormat(lang, { maximumFractionDigits: digits }).format(v);

/** One procedure's curve: three charts (ratings, GOALS total, CUSUM) and the table of the same numbers. */
function CurvePanel({ curve, name, settings }: { curve: Curve['curve']; name: string; settings: LearnerCurves['settings'] }) {
  const { t } = useTranslation('programmes');
  const lang = currentLanguage();
  const fmt = number(lang);
  const data = curve.points.map((p) => ({
    index: p.index,
    global: p.globalRating,
    globalAverage: p.globalAverage,
    goals: p.goalsTotal,
    goalsAverage: p.goalsAverage,
    cusum: Number(p.cusum.toFixed(4)),
  }));
  const caption = t('curves.tableCaption', { procedure: name });
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Typography variant="body2" color="text.secondary">
        {t('curves.settings', {
          p0: Math.round(settings.p0 * 100),
          p1: Math.round(settings.p1 * 100),
          alpha: Math.round(settings.alpha * 100),
          beta: Math.round(settings.beta * 100),
          rule: t(`rules.${settings.failureRule}`),
        })}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' } }}>
        <Suspense fallback={<Skeleton variant="rounded" height={240} />}>
          <Box>
            <Typography component="h4" variant="subtitle2">
              {t('curves.globalChart')}
            </Typography>
            <CurveChart
              testId="curve-chart-global"
              data={data}
              domain={[0, 5]}
              lines={[
                { key: 'global', label: t('curves.global') },
                { key: 'globalAverage', label: t('curves.average'), dashed: true },
              ]}
            />
          </Box>
          <Box>
            <Typography component="h4" variant="subtitle2">
              {t('curves.goalsChart')}
            </Typography>
            <CurveChart
              testId="curve-chart-goals"
              data={data}
              domain={[5, 25]}
              lines={[
                { key: 'goals', label: t('curves.goals') },
                { key: 'goalsAverage', label: t('curves.average'), dashed: true },
              ]}
            />
          </Box>
          <Box sx={{ gridColumn: { lg: '1 / -1' } }}>
            <Typography component="h4" variant="subtitle2">
              {t('curves.cusumChart')}
            </Typography>
            <CurveChart
              testId="curve-chart-cusum"
              data={data}
              domain={[
                Math.min(-curve.limits.h0 - 0.5, ...data.map((d) => d.cusum)),
                Math.max(curve.limits.h1 + 0.5, ...data.map((d) => d.cusum)),
              ]}
              limits={[
                { y: curve.limits.h1, label: t('curves.upper', { h: fmt(curve.limits.h1) }) },
                { y: -curve.limits.h0, label: t('curves.lower', { h: fmt(-curve.limits.h0) }) },
              ]}
              lines={[{ key: 'cusum', label: t('curves.cusum') }]}
            />
          </Box>
        </Suspense>
      </Box>
      <Box sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={caption}>
        <Box
          component="table"
          data-testid="curve-table"
          sx={{
            borderCollapse: 'collapse',
            width: '100%',
            fontSize: 14,
            '& td, & th': { py: 0.5, px: 1, borderBottom: 1, borderColor: 'divider', textAlign: 'left', whiteSpace: 'nowrap' },
          }}
        >
          <Box component="caption" sx={visuallyHidden}>
            {caption}
          </Box>
          <thead>
            <tr>
              {(['index', 'date', 'global', 'average', 'goals', 'average', 'failure', 'cusum', 'signal'] as const).map((h, i) => (
                <th key={i} scope="col">
                  {t(`curves.columns.${h}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {curve.points.map((p) => (
              <tr key={p.index}>
                <th scope="row">{p.index}</th>
                <td>
                  {formatDay(p.date, lang)}
                  {p.dateSource === 'sent' ? ` (${t('curves.sentDay')})` : ''}
                </td>
                <td>{fmt(p.globalRating)}</td>
                <td>{fmt(p.globalAverage)}</td>
                <td>{fmt(p.goalsTotal)}</td>
                <td>{fmt(p.goalsAverage)}</td>
                <td>{p.failure === null ? '—' : t(p.failure ? 'curves.yes' : 'curves.no')}</td>
                <td>{new Intl.NumberFormat(lang, { minimumFractionDigits: 4, maximumFractionDigits: 4 }).format(p.cusum)}</td>
                <td>{p.signal ? t(`curves.signals.${p.signal}`) : ''}</td>
              </tr>
            ))}
          </tbody>
        </Box>
      </Box>
    </Box>
  );
}

/** Every curve of a learner: the sentences, then one procedure at a time with its charts and table. */
export function LearningCurves({ data, headingLevel = 'h2' }: { data: LearnerCurves; headingLevel?: 'h2' | 'h3' }) {
  const { t } = useTranslation('programmes');
  const [chosen, setChosen] = useState<string | null>(null);
  const current = data.curves.find((c) => c.surgery.id === chosen) ?? data.curves[0];
  if (!current) {
    return (
      <Typography color="text.secondary" data-testid="curves-empty">
        {t('curves.empty')}
      </Typography>
    );
  }
  return (
    <Box sx={{ display: 'grid', gap: 2 }} data-testid="learning-curves">
      <CurveSentences curves={data.curves} />
      <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 }, display: 'grid', gap: 2 }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
          <Typography component={headingLevel} variant="h6">
            {current.surgery.name}
          </Typography>
          {data.curves.length > 1 && (
            <TextField
              select
              size="small"
              label={t('curves.procedure')}
              value={current.surgery.id}
              onChange={(e) => setChosen(e.target.value)}
              sx={{ minWidth: 220 }}
              slotProps={{ htmlInput: { 'data-testid': 'curve-procedure' } as object }}
            >
              {data.curves.map((c) => (
                <MenuItem key={c.surgery.id} value={c.surgery.id}>
                  {c.surgery.name}
                </MenuItem>
              ))}
            </TextField>
          )}
        </Box>
        <CurvePanel curve={current.curve} name={current.surgery.name} settings={data.settings} />
      </Paper>
    </Box>
  );
}
