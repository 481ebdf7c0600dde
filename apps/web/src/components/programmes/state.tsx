import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import Chip from '@mui/material/Chip';
import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import ErrorOutlined from '@mui/icons-material/ErrorOutlined';
import SchoolOutlined from '@mui/icons-material/SchoolOutlined';
import WarningAmberOutlined from '@mui/icons-material/WarningAmberOutlined';
import type { LearningCurveState, LearningCurveSummary } from '@sutura/domain/learning-curves';
import type { Language } from '@sutura/domain/i18n';

const COLOURS: Record<LearningCurveState, 'success' | 'info' | 'error' | 'warning'> = {
  proficient: 'success',
  learning: 'info',
  relapse: 'error',
  unacceptable: 'warning',
};
const ICONS = { proficient: CheckCircleOutlined, learning: SchoolOutlined, relapse: ErrorOutlined, unacceptable: WarningAmberOutlined };

/** A curve's state: its colour, an icon and its words (never colour alone). */
export function StateChip({ state, at }: { state: LearningCurveState; at?: number | null }) {
  const { t } = useTranslation('programmes');
  const Icon = ICONS[state];
  return (
    <Chip
      size="small"
      variant="outlined"
      color={COLOURS[state]}
      icon={<Icon fontSize="small" />}
      label={at ? t('states.withCase', { state: t(`states.${state}`), n: ordinal(at, t) }) : t(`states.${state}`)}
      data-testid="curve-state"
      data-state={state}
      sx={{ fontWeight: 600 }}
    />
  );
}

type T = TFunction<'programmes'>;

/** "9th" / "9e": the number of a case in a sentence, in the page's language. */
export function ordinal(n: number, t: T): string {
  const rule = new Intl.PluralRules(t('lang'), { type: 'ordinal' }).select(n);
  return t(`ordinal.${rule}`, { n, defaultValue: t('ordinal.other', { n }) });
}

/** The case a state began at, as the cohort shows it. */
export function stateCase(s: Pick<LearningCurveSummary, 'state' | 'proficientAt' | 'relapseAt' | 'unacceptableAt'>): number | null {
  return s.state === 'proficient'
    ? s.proficientAt
    : s.state === 'relapse'
      ? s.relapseAt
      : s.state === 'unacceptable'
        ? s.unacceptableAt
        : null;
}

/** One sentence in plain words: "12 cases of pyeloplasty analysed; proficient since the 9th". */
export function curveSentence(procedure: string, s: LearningCurveSummary, t: T, lang: Language): string {
  const name = procedure.toLocaleLowerCase(lang);
  const cases = t('sentence.cases', { count: s.cases, procedure: name });
  const state =
    s.state === 'proficient'
      ? t('sentence.proficient', { n: ordinal(s.proficientAt!, t) })
      : s.state === 'relapse'
        ? t('sentence.relapse', { p: ordinal(s.proficientAt!, t), r: ordinal(s.relapseAt!, t) })
        : s.state === 'unacceptable'
          ? t('sentence.unacceptable', { n: ordinal(s.unacceptableAt!, t) })
          : t('sentence.learning');
  return t('sentence.full', { cases, state });
}
