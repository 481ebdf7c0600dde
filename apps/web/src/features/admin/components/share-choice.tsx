import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import { secondReviewShareSchema } from '@sutura/domain/review';

export type ShareMode = 'never' | 'drawn' | 'always';
/** What the form holds: the choice, and the percentage typed for a share drawn at random. */
export interface ShareDraft {
  mode: ShareMode;
  percent: string;
}

export const draftOf = (share: number): ShareDraft =>
  share <= 0 ? { mode: 'never', percent: '' } : share >= 100 ? { mode: 'always', percent: '' } : { mode: 'drawn', percent: String(share) };

/**
 * The share the draft stands for, checked by the shared schema; a share drawn at random is
 * strictly between never and always. Returns an error code of the catalogue, or the key
 * `review:share.between` for a share drawn at random that is 0 or 100.
 */
export function shareOf(draft: ShareDraft): { share: number } | { error: string } {
  if (draft.mode === 'never') return { share: 0 };
  if (draft.mode === 'always') return { share: 100 };
  const text = draft.percent.trim();
  const parsed = secondReviewShareSchema.safeParse(text === '' ? undefined : Number(text));
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? 'INVALID_VALUE' };
  if (parsed.data === 0 || parsed.data === 100) return { error: 'review:share.between' };
  return { share: parsed.data };
}

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
