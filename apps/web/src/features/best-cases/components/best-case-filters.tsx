import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useOrgans, useSurgeries } from '@/lib/vocabularies';

/** Surgery and organ, from the vocabularies; choosing an organ narrows the surgeries offered. */
export function BestCaseFilters({
  surgeryId,
  organId,
  onChange,
}: {
  surgeryId: string | undefined;
  organId: string | undefined;
  onChange(next: { surgeryId?: string | undefined; organId?: string | undefined }): void;
}) {
  const { t } = useTranslation('best-cases');
  const surgeries = useSurgeries('filter');
  const organs = useOrgans('filter');
  const offered = (surgeries.data ?? []).filter((s) => !organId || s.organId === organId);
  return (
    <Box
      role="search"
      aria-label={t('filters.label')}
      sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr)) auto' }, alignItems: 'center' }}
    >
      <TextField
        select
        label={t('filters.organ')}
        value={organId ?? ''}
        onChange={(event) => {
          const next = event.target.value || undefined;
          const surgery = surgeries.data?.find((s) => s.id === surgeryId);
          // A surgery of another organ no longer applies.
          onChange({ organId: next, surgeryId: surgery && next && surgery.organId !== next ? undefined : surgeryId });
        }}
        slotProps={{
          htmlInput: { 'data-testid': 'filter-organ' },
          select: { MenuProps: { slotProps: { paper: { sx: { maxHeight: 360 } } } } },
        }}
      >
        <MenuItem value="">{t('filters.allOrgans')}</MenuItem>
        {(organs.data ?? []).map((organ) => (
          <MenuItem key={organ.id} value={organ.id}>
            {organ.name}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        label={t('filters.surgery')}
        value={surgeryId ?? ''}
        onChange={(event) => onChange({ surgeryId: event.target.value || undefined, organId })}
        slotProps={{
          htmlInput: { 'data-testid': 'filter-surgery' },
          select: { MenuProps: { slotProps: { paper: { sx: { maxHeight: 360 } } } } },
        }}
      >
        <MenuItem value="">{t('filters.allSurgeries')}</MenuItem>
        {offered.map((surgery) => (
          <MenuItem key={surgery.id} value={surgery.id}>
            {surgery.name}
          </MenuItem>
        ))}
      </TextField>
      <Button onClick={() => onChange({})} disabled={!surgeryId && !organId}>
        {t('filters.clear')}
      </Button>
    </Box>
  );
}
