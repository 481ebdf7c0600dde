import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import type { ShareDraft, ShareMode } from '@/features/admin/model/share-draft';

/** "Never (0 %)", "25 % drawn at random", "Always (100 %)": how a share reads in a list. */
export function useShareText(): (share: number) => string {
  const { t } = useTranslation('review');
  return (share) => (share <= 0 ? t('share.neverShort') : share >= 100 ? t('share.alwaysShort') : t('share.drawnShort', { share }));
}

/** The three ways of choosing a share, with the percentage of the random draw when it is chosen. */
export function ShareChoice({
  legend,
  draft,
  onChange,
  error,
  disabled,
  testId,
}: {
  legend: string;
  draft: ShareDraft;
  onChange(draft: ShareDraft): void;
  /** An error code of the catalogue or a key of the `review` namespace. */
  error?: string;
  disabled?: boolean;
  testId: string;
}) {
  const { t } = useTranslation(['review', 'errors']);
  const percentId = useId();
  const errorText = error ? (error.includes(':') ? t(error) : t(`errors:${error}`)) : undefined;
  return (
    <FormControl component="fieldset" disabled={disabled} sx={{ display: 'grid', gap: 1, minWidth: 0 }}>
      <FormLabel component="legend" sx={{ fontWeight: 700, color: 'text.primary', mb: 0.5 }}>
        {legend}
      </FormLabel>
      <RadioGroup
        value={draft.mode}
        onChange={(e) => onChange({ ...draft, mode: e.target.value as ShareMode })}
        data-testid={`${testId}-mode`}
      >
        {(['never', 'drawn', 'always'] as const).map((mode) => (
          <FormControlLabel
            key={mode}
            value={mode}
            control={<Radio slotProps={{ input: { 'data-testid': `${testId}-${mode}` } as object }} />}
            sx={{ alignItems: 'flex-start', mb: 0.5, '& .MuiRadio-root': { mt: -0.75 } }}
            label={
              <Box component="span" sx={{ display: 'grid' }}>
                <Box component="span" sx={{ fontWeight: 600 }}>
                  {t(`share.${mode}.label`)}
                </Box>
                <Box component="span" sx={{ color: 'text.secondary', fontSize: 14 }}>
                  {t(`share.${mode}.help`)}
                </Box>
              </Box>
            }
          />
        ))}
      </RadioGroup>
      {draft.mode === 'drawn' && (
        <TextField
          id={percentId}
          label={t('share.percent')}
          value={draft.percent}
          onChange={(e) => onChange({ ...draft, percent: e.target.value })}
          error={Boolean(errorText)}
          helperText={errorText ?? t('share.percentHelp')}
          required
          size="small"
          sx={{ maxWidth: 320 }}
          slotProps={{
            htmlInput: { inputMode: 'numeric', min: 1, max: 99, step: 1, type: 'number', 'data-testid': `${testId}-percent` },
          }}
        />
      )}
    </FormControl>
  );
}
