import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { KPI_DEFINITIONS } from '@sutura/domain/analysis';
import { gapWord, type SelfVsExpertItem } from '@sutura/domain/self-assessment';
import { currentLanguage } from '@/lib/i18n';

const place = (value: number) => `${((value - 1) / 4) * 100}%`;
const LEVELS = [1, 2, 3, 4, 5] as const;

/**
 * "You / Expert" per KPI: two dots on the 1..5 line of each skill (a hollow ring for the learner,
 * a filled dot for the expert, drawn the same in the legend), a 1 to 5 axis under the lines, and
 * the gap in words; the table below is the accessible version. A case reviewed by several experts
 * compares with their mean (the server's `expert`), so named.
 */
export function SelfVsExpert({ items, experts = 1 }: { items: SelfVsExpertItem[]; experts?: number }) {
  const { t } = useTranslation('videos');
  const several = experts > 1;
  const expertLabel = t(several ? 'selfAssessment.expertsMean' : 'selfAssessment.expert');
  const lang = currentLanguage() === 'fr' ? 'fr' : 'en';
  const number = (v: number | null) => (v === null ? '—' : v.toLocaleString(lang, { maximumFractionDigits: 2 }));
  const name = (kpi: SelfVsExpertItem['kpi']) => (kpi === 'global' ? t('selfAssessment.globalShort') : KPI_DEFINITIONS[kpi].name[lang]);
  const words = (item: SelfVsExpertItem) => {
    const word = gapWord(item.gap);
    return word === null ? t('selfAssessment.gap.none') : t(`selfAssessment.gap.${word}`, { gap: number(Math.abs(item.gap!)) });
  };
  const agreeing = items.filter((i) => gapWord(i.gap) === 'agree').length;
  const rated = items.filter((i) => i.gap !== null).length;

  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="self-vs-expert-title"
      sx={{ p: { xs: 2, sm: 2.5 }, borderRadius: 2, display: 'grid', gap: 2 }}
      data-testid="self-vs-expert"
    >
      <Box sx={{ display: 'grid', gap: 0.5 }}>
        <Typography id="self-vs-expert-title" variant="h3" component="h3">
          {t(several ? 'selfAssessment.compareTitleExperts' : 'selfAssessment.compareTitle')}
        </Typography>
        <Typography variant="body2" data-testid="self-vs-expert-summary">
          {t(several ? 'selfAssessment.summaryExperts' : 'selfAssessment.summary', { agreeing, rated })}
        </Typography>
      </Box>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }} aria-hidden data-testid="self-vs-expert-legend">
        <Legend filled={false} label={t('selfAssessment.you')} />
        <Legend filled label={expertLabel} />
      </Box>
      <Box component="ul" aria-hidden sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1.5 }}>
        {items.map((item) => (
          <Box component="li" key={item.kpi} data-testid={`self-vs-expert-${item.kpi}`} sx={{ display: 'grid', gap: 0.5 }}>
            <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap' }}>
              <Typography variant="body2" sx={{ fontWeight: 700 }}>
                {name(item.kpi)}
              </Typography>
              <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                {words(item)}
              </Typography>
            </Box>
            <Box sx={{ position: 'relative', height: 20, mx: 1.25 }}>
              <Box sx={{ position: 'absolute', top: 9, left: 0, right: 0, height: 2, bgcolor: 'divider' }} />
              {LEVELS.map((tick) => (
                <Box
                  key={tick}
                  sx={{ position: 'absolute', top: 5, left: place(tick), width: 2, height: 10, ml: '-1px', bgcolor: 'divider' }}
                />
              ))}
              {item.expert !== null && <Dot value={item.expert} filled />}
              {item.self !== null && <Dot value={item.self} filled={false} />}
            </Box>
          </Box>
        ))}
        <Box component="li" data-testid="self-vs-expert-axis" sx={{ position: 'relative', height: 20, mx: 1.25 }}>
          {LEVELS.map((tick) => (
            <Typography
              key={tick}
              variant="caption"
              data-level={tick}
              sx={{
                position: 'absolute',
                top: 0,
                left: place(tick),
                transform: 'translateX(-50%)',
                color: 'text.secondary',
                lineHeight: '20px',
              }}
            >
              {tick}
            </Typography>
          ))}
        </Box>
      </Box>
      <Table size="small" aria-labelledby="self-vs-expert-title" data-testid="self-vs-expert-table">
        <TableHead>
          <TableRow>
            <TableCell component="th" scope="col">
              {t('selfAssessment.skill')}
            </TableCell>
            <TableCell component="th" scope="col" align="right">
              {t('selfAssessment.you')}
            </TableCell>
            <TableCell component="th" scope="col" align="right">
              {expertLabel}
            </TableCell>
            <TableCell component="th" scope="col">
              {t('selfAssessment.gapTitle')}
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {items.map((item) => (
            <TableRow key={item.kpi}>
              <TableCell component="th" scope="row">
                {name(item.kpi)}
              </TableCell>
              <TableCell align="right">{number(item.self)}</TableCell>
              <TableCell align="right">{number(item.expert)}</TableCell>
              <TableCell>{words(item)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Paper>
  );
}

/** The learner's hollow ring and the expert's filled dot: the same on the lines and in the legend. */
function DotShape({ filled }: { filled: boolean }) {
  return (
    <Box
      data-dot={filled ? 'expert' : 'self'}
      sx={{
        width: filled ? 16 : 20,
        height: filled ? 16 : 20,
        borderRadius: '50%',
        boxSizing: 'border-box',
        // The ring hides the line and the tick under it.
        bgcolor: filled ? 'text.primary' : 'background.paper',
        border: '3px solid',
        borderColor: filled ? 'text.primary' : 'secondary.main',
      }}
    />
  );
}

function Dot({ value, filled }: { value: number; filled: boolean }) {
  return (
    <Box sx={{ position: 'absolute', top: filled ? 2 : 0, left: place(value), ml: filled ? '-8px' : '-10px', display: 'flex' }}>
      <DotShape filled={filled} />
    </Box>
  );
}

function Legend({ filled, label }: { filled: boolean; label: string }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }}>
      <Box sx={{ width: 20, display: 'flex', justifyContent: 'center' }}>
        <DotShape filled={filled} />
      </Box>
      <Typography variant="body2">{label}</Typography>
    </Box>
  );
}
