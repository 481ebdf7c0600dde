import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { RetentionRules } from '@sutura/domain/retention';

/**
 * The retention rules in plain language (docs/data-lifecycle.md): the same lines in Settings →
 * Privacy, for the people they concern, and in the administration, for who sets them.
 */
export function RetentionSummary({ rules, testId }: { rules: RetentionRules; testId?: string }) {
  const { t } = useTranslation('retention');
  const lines = [
    t('summary.source', { count: rules.sourceDays }),
    t('summary.uploads', { count: rules.uploadDays }),
    t('summary.account'),
    rules.analysedYears === null ? t('summary.analysedOff') : t('summary.analysed', { count: rules.analysedYears }),
    t('summary.held'),
  ];
  return (
    <Box component="ul" sx={{ m: 0, pl: 3, display: 'grid', gap: 0.5 }} data-testid={testId}>
      {lines.map((line) => (
        <Typography component="li" key={line}>
          {line}
        </Typography>
      ))}
    </Box>
  );
}
