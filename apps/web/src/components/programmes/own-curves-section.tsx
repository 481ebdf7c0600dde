import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { errorText } from '@/lib/http';
import { useMyProgrammes } from '@/lib/my-programmes';
import { useOwnCurves } from '@/lib/programmes';
import { LearningCurves } from './learning-curves';

/**
 * My statistics, "Learning curves": the learner's own curves and a sentence per procedure, under
 * the settings of one of their programmes (the first by default) or, outside any, the defaults.
 */
export function OwnCurvesSection() {
  const { t } = useTranslation('programmes');
  const mine = useMyProgrammes();
  const programmes = mine.data?.memberOf ?? [];
  const [chosen, setChosen] = useState<string | null>(null);
  const programmeId = chosen ?? programmes[0]?.id ?? null;
  const curves = useOwnCurves(mine.isPending ? null : programmeId);
  return (
    <Box component="section" aria-labelledby="own-curves-title" sx={{ display: 'grid', gap: 2, minWidth: 0 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
        <Typography component="h2" variant="h6" id="own-curves-title">
          {t('own.title')}
        </Typography>
        {programmes.length > 1 && (
          <TextField
            select
            size="small"
            label={t('own.programme')}
            value={programmeId ?? ''}
            onChange={(e) => setChosen(e.target.value)}
            sx={{ minWidth: 220 }}
          >
            {programmes.map((p) => (
              <MenuItem key={p.id} value={p.id}>
                {p.name}
              </MenuItem>
            ))}
          </TextField>
        )}
      </Box>
      <Typography variant="body2" color="text.secondary">
        {programmeId && programmes.length
          ? t('own.intro', { programme: programmes.find((p) => p.id === programmeId)?.name })
          : t('own.introDefault')}
      </Typography>
      {curves.isPending ? (
        <Skeleton variant="rounded" height={240} />
      ) : curves.isError ? (
        <Alert severity="error">{errorText(curves.error)}</Alert>
      ) : (
        <LearningCurves data={curves.data} headingLevel="h3" />
      )}
    </Box>
  );
}
