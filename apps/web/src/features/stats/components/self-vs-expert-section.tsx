import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { KPI_DEFINITIONS, KPIS } from '@sutura/domain/analysis';
import { SELF_BIAS_IN_LINE, selfVsExpertDirection } from '@sutura/domain/self-assessment';
import { currentLanguage } from '@/lib/i18n';
import { useMySelfVsExpert } from '@/features/stats/api/stats';

/** The largest gap drawn (levels): a gap of 4 is the whole scale. */
const SCALE = 4;

/** Which way a signed difference (self − expert) leans: beyond SELF_BIAS_IN_LINE either way, higher or lower. */
const lean = (value: number) => (Math.abs(value) < SELF_BIAS_IN_LINE ? 'inLine' : value > 0 ? 'higher' : 'lower');

/**
 * "Self vs expert" month by month: the mean gap between the learner's self-assessments and the
 * experts' ratings, as a bar per month with data, the trend in words; which way the learner leans
 * (higher or lower than the experts) over the months shown, overall and skill by skill; and a
 * table per month (the accessible version), with the signed difference. Nothing at all without a
 * self-assessed case.
 */
export function SelfVsExpertSection() {
  const { t } = useTranslation('stats');
  const lang = currentLanguage() === 'fr' ? 'fr' : 'en';
  const query = useMySelfVsExpert();
  const data = query.data;
  if (!data || !data.ratingsShown) return null;
  const months = data.months.filter((m) => m.cases > 0);
  if (!months.length) return null;
  const number = (v: number | null) => (v === null ? '—' : v.toLocaleString(lang, { maximumFractionDigits: 2 }));
  const monthName = (m: string) => new Intl.DateTimeFormat(lang, { month: 'short', year: '2-digit', timeZone: 'UTC' }).format(new Date(m));
  const trend = data.trend ?? 'none';
  const direction = selfVsExpertDirection(months);
  const signedNumber = (v: number | null) =>
    v === null ? '—' : v.toLocaleString(lang, { maximumFractionDigits: 2, signDisplay: 'exceptZero' });

  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="self-vs-expert-stats-title"
      sx={{ p: { xs: 2, sm: 2.5 }, borderRadius: 2, display: 'grid', gap: 2, minWidth: 0 }}
      data-testid="stats-self-vs-expert"
    >
      <Box sx={{ display: 'grid', gap: 0.5 }}>
        <Typography id="self-vs-expert-stats-title" variant="h3" component="h3">
          {t('selfVsExpert.title')}
        </Typography>
        <Typography variant="body2">{t('selfVsExpert.lead')}</Typography>
        <Typography variant="body2" sx={{ fontWeight: 700 }} data-testid="stats-self-vs-expert-trend" data-trend={trend}>
          {t(`selfVsExpert.trend.${trend}`, { first: number(data.first), last: number(data.last) })}
        </Typography>
        {direction.word && (
          <Typography variant="body2" sx={{ fontWeight: 700 }} data-testid="stats-self-vs-expert-direction" data-direction={direction.word}>
            {t(`selfVsExpert.direction.${direction.word}`, { gap: number(Math.abs(direction.overall ?? 0)) })}
          </Typography>
        )}
      </Box>
      {direction.word && (
        <Box component="section" aria-labelledby="self-vs-expert-skills-title" sx={{ display: 'grid', gap: 0.5 }}>
          <Typography id="self-vs-expert-skills-title" variant="body2" component="h4" sx={{ fontWeight: 700 }}>
            {t('selfVsExpert.bySkill')}
          </Typography>
          <Box
            component="ul"
            sx={{
              m: 0,
              p: 0,
              listStyle: 'none',
              display: 'grid',
              gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))' },
              maxWidth: 720,
              columnGap: 3,
            }}
          >
            {KPIS.filter((k) => direction.kpis[k] !== null).map((k) => {
              const value = direction.kpis[k]!;
              return (
                <Box
                  component="li"
                  key={k}
                  data-testid={`stats-self-vs-expert-direction-${k}`}
                  data-direction={lean(value)}
                  sx={{ display: 'flex', justifyContent: 'space-between', gap: 1 }}
                >
                  <Typography variant="body2">{KPI_DEFINITIONS[k].name[lang]}</Typography>
                  <Typography variant="body2" sx={{ fontWeight: 700, whiteSpace: 'nowrap' }}>
                    {t(`selfVsExpert.skill.${lean(value)}`, { gap: number(Math.abs(value)) })}
                  </Typography>
                </Box>
              );
            })}
          </Box>
        </Box>
      )}
      <Box
        role="img"
        aria-label={t('selfVsExpert.chartLabel')}
        sx={{ display: 'flex', alignItems: 'flex-end', gap: 1, height: 140, overflowX: 'auto', pb: 0.5 }}
      >
        {months.map((m) => (
          <Box key={m.month} sx={{ display: 'grid', justifyItems: 'center', gap: 0.5, minWidth: 44 }}>
            <Typography variant="caption">{number(m.overall)}</Typography>
            <Box
              sx={{
                width: 28,
                height: `${Math.max(2, ((m.overall ?? 0) / SCALE) * 90)}px`,
                bgcolor: 'primary.main',
                borderRadius: '4px 4px 0 0',
              }}
            />
            <Typography variant="caption" sx={{ color: 'text.secondary', whiteSpace: 'nowrap' }}>
              {monthName(m.month)}
            </Typography>
          </Box>
        ))}
      </Box>
      {/* Scrolls sideways on a phone: reachable by the keyboard, named by the section. */}
      <TableContainer tabIndex={0} role="region" aria-labelledby="self-vs-expert-stats-title" sx={{ maxWidth: '100%' }}>
        <Table size="small" data-testid="stats-self-vs-expert-table">
          <caption style={{ captionSide: 'top', textAlign: 'left', padding: 0 }}>{t('selfVsExpert.chartLabel')}</caption>
          <TableHead>
            <TableRow>
              <TableCell component="th" scope="col">
                {t('selfVsExpert.month')}
              </TableCell>
              <TableCell component="th" scope="col" align="right">
                {t('selfVsExpert.cases')}
              </TableCell>
              <TableCell component="th" scope="col" align="right">
                {t('selfVsExpert.overall')}
              </TableCell>
              <TableCell component="th" scope="col" align="right">
                {t('selfVsExpert.signed')}
              </TableCell>
              {KPIS.map((k) => (
                <TableCell key={k} component="th" scope="col" align="right">
                  {KPI_DEFINITIONS[k].name[lang]}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {months.map((m) => (
              <TableRow key={m.month}>
                <TableCell component="th" scope="row" sx={{ whiteSpace: 'nowrap' }}>
                  {monthName(m.month)}
                </TableCell>
                <TableCell align="right">{m.cases}</TableCell>
                <TableCell align="right">{number(m.overall)}</TableCell>
                <TableCell align="right" data-testid="stats-self-vs-expert-signed">
                  {signedNumber(m.signedOverall)}
                </TableCell>
                {KPIS.map((k) => (
                  <TableCell key={k} align="right">
                    {number(m.kpis[k])}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Paper>
  );
}
