import { useTranslation } from 'react-i18next';
import { useController, useWatch, type Control } from 'react-hook-form';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import FormHelperText from '@mui/material/FormHelperText';
import Slider from '@mui/material/Slider';
import Typography from '@mui/material/Typography';
import { NASA_TLX_DIMENSIONS, nasaTlxRawScore, type NasaTlx, type NasaTlxDimension } from '@sutura/domain/videos';
import { useFieldErrorText } from '@/components/form-field';
import type { AddVideoFormValues } from '@/features/videos/add/add-video-values';

/** Where an untouched scale's thumb waits, unseen until the keyboard reaches it: no value is shown before the person rates. */
const UNRATED_POSITION = 50;

function TlxScale({ control, dimension }: { control: Control<AddVideoFormValues>; dimension: NasaTlxDimension }) {
  const { t } = useTranslation('upload');
  const errorText = useFieldErrorText();
  const { field, fieldState } = useController({ control, name: `nasaTlx.${dimension}` });
  const value = field.value;
  const rated = typeof value === 'number';
  const message = errorText(fieldState.error?.message);
  const labelId = `tlx-${dimension}-label`;
  const descriptionId = `tlx-${dimension}-description`;
  const errorId = `tlx-${dimension}-error`;
  // Performance is the one scale that runs from a good to a bad end.
  const ends =
    dimension === 'performance' ? { low: t('tlx.perfect'), high: t('tlx.failure') } : { low: t('tlx.veryLow'), high: t('tlx.veryHigh') };
  const valueText = (v: number) => t('tlx.valueText', { value: v, low: ends.low, high: ends.high });

  return (
    <Box component="li" sx={{ listStyle: 'none', py: 1.5, borderTop: 1, borderColor: 'divider' }}>
      <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1, flexWrap: 'wrap' }}>
        <Typography id={labelId} component="span" sx={{ fontWeight: 700, flex: 1, minWidth: 0 }}>
          {t(`tlx.dimensions.${dimension}.label`)}
          <Box component="span" aria-hidden sx={{ color: message ? 'error.main' : undefined }}>
            {' *'}
          </Box>
        </Typography>
        {rated ? (
          <Typography component="span" sx={{ fontWeight: 700, fontVariantNumeric: 'tabular-nums' }} aria-hidden>
            {value}
          </Typography>
        ) : (
          <Chip size="small" variant="outlined" label={t('tlx.notRated')} aria-hidden />
        )}
      </Box>
      <Typography id={descriptionId} variant="body2" color="text.secondary">
        {t(`tlx.dimensions.${dimension}.question`)}
      </Typography>
      <Box sx={{ px: 1.25 }}>
        <Slider
          data-testid={`tlx-${dimension}`}
          value={rated ? value : UNRATED_POSITION}
          min={0}
          max={100}
          step={5}
          marks
          track={rated ? 'normal' : false}
          onChange={(_event, next) => field.onChange(next as number)}
          // A click on the waiting thumb, without moving it, rates the middle of the scale.
          onChangeCommitted={(_event, next) => {
            if (!rated) field.onChange(next as number);
          }}
          onBlur={field.onBlur}
          getAriaValueText={(v) => (rated ? valueText(v) : t('tlx.notRatedValueText'))}
          slotProps={{
            input: {
              ref: field.ref,
              name: field.name,
              'aria-labelledby': labelId,
              'aria-describedby': message ? `${descriptionId} ${errorId}` : descriptionId,
              'aria-invalid': Boolean(message),
              'aria-required': true,
            } as object,
          }}
          color={message ? 'error' : 'primary'}
          sx={rated ? undefined : { '& .MuiSlider-thumb:not(.Mui-focusVisible)': { opacity: 0 } }}
        />
      </Box>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', mt: -0.5 }} aria-hidden>
        <Typography variant="caption" color="text.secondary">
          {ends.low}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          {ends.high}
        </Typography>
      </Box>
      {message && (
        <FormHelperText id={errorId} error>
          {message}
        </FormHelperText>
      )}
    </Box>
  );
}

function RawScore({ control }: { control: Control<AddVideoFormValues> }) {
  const { t } = useTranslation('upload');
  const tlx = useWatch({ control, name: 'nasaTlx' });
  const rated = NASA_TLX_DIMENSIONS.filter((d) => typeof tlx[d] === 'number').length;
  const score = rated === NASA_TLX_DIMENSIONS.length ? nasaTlxRawScore(tlx as NasaTlx) : null;
  return (
    <Box
      aria-live="polite"
      data-testid="tlx-raw-score"
      sx={{ display: 'flex', alignItems: 'center', gap: 2, mt: 1, p: 1.5, borderRadius: 1, bgcolor: 'action.hover' }}
    >
      <Typography component="span" sx={{ fontWeight: 700, fontSize: 28, minWidth: 64, textAlign: 'center' }}>
        {score === null ? '–' : t('tlx.scoreValue', { value: score })}
      </Typography>
      <Box>
        <Typography sx={{ fontWeight: 700 }}>{t('tlx.rawScore')}</Typography>
        <Typography variant="body2" color="text.secondary">
          {score === null ? t('tlx.rateAll', { rated, total: NASA_TLX_DIMENSIONS.length }) : t('tlx.rawScoreHelp')}
        </Typography>
      </Box>
    </Box>
  );
}

/** The surgeon's NASA-TLX self-assessment: six scales of 0 to 100 by 5, and their mean. */
export function NasaTlxFields({ control }: { control: Control<AddVideoFormValues> }) {
  return (
    <>
      <Box component="ul" sx={{ p: 0, m: 0 }}>
        {NASA_TLX_DIMENSIONS.map((dimension) => (
          <TlxScale key={dimension} control={control} dimension={dimension} />
        ))}
      </Box>
      <RawScore control={control} />
    </>
  );
}
