import { useTranslation } from 'react-i18next';
import Typography from '@mui/material/Typography';
import type { ProgrammeSummary } from '@sutura/domain/programmes';
import { formatDay } from '@/components/video/format';
import { currentLanguage } from '@/lib/i18n';

/** A programme's specialty, dates and counts in one line. */
export function ProgrammeFacts({ programme: p }: { programme: ProgrammeSummary }) {
  const { t } = useTranslation('programmes');
  const lang = currentLanguage();
  const facts = [
    p.specialty?.name,
    p.startsOn || p.endsOn
      ? t('facts.dates', { from: p.startsOn ? formatDay(p.startsOn, lang) : '…', to: p.endsOn ? formatDay(p.endsOn, lang) : '…' })
      : null,
    t('facts.learners', { count: p.memberCount }),
    t('facts.directors', { count: p.directorCount }),
  ].filter(Boolean);
  return (
    <Typography variant="body2" color="text.secondary">
      {facts.join(' · ')}
    </Typography>
  );
}
