import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useUrlSearch } from '@/lib/url-search';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useSurgeries } from '@/lib/vocabularies';
import type { CalibrationParams } from '@/features/calibration/api/calibration';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const dayOf = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/**
 * The page's period and surgery, kept in its URL (shareable, kept by the back button); by default
 * the twelve months up to today.
 */
export function useCalibrationParams(): { params: CalibrationParams; update: (changes: Partial<CalibrationParams>) => void } {
  const [search, setSearch] = useUrlSearch();
  const today = new Date();
  const yearAgo = new Date(today.getFullYear() - 1, today.getMonth(), today.getDate() + 1);
  const read = (key: string) => search.get(key) ?? '';
  let from = DAY.test(read('from')) ? read('from') : dayOf(yearAgo);
  let to = DAY.test(read('to')) ? read('to') : dayOf(today);
  if (from > to) [from, to] = [to, from];
  const params = { from, to, surgeryId: read('surgeryId') };
  const update = useCallback(
    (changes: Partial<CalibrationParams>) =>
      setSearch(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [k, v] of Object.entries(changes)) {
            if (v) next.set(k, v);
            else next.delete(k);
          }
          return next;
        },
        { replace: true },
      ),
    [setSearch],
  );
  return { params, update };
}

/** The period and the surgery the figures cover. */
export function CalibrationFilters({
  params,
  update,
}: {
  params: CalibrationParams;
  update: (changes: Partial<CalibrationParams>) => void;
}) {
  const { t } = useTranslation('calibration');
  const surgeries = useSurgeries('filter');
  return (
    <Box
      role="search"
      aria-label={t('page.filters')}
      sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: '1fr 1fr 2fr' }, maxWidth: 900 }}
    >
      <TextField
        size="small"
        type="date"
        label={t('page.from')}
        value={params.from}
        onChange={(e) => DAY.test(e.target.value) && update({ from: e.target.value })}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: params.to, 'data-testid': 'calibration-from' } }}
      />
      <TextField
        size="small"
        type="date"
        label={t('page.to')}
        value={params.to}
        onChange={(e) => DAY.test(e.target.value) && update({ to: e.target.value })}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: params.from, 'data-testid': 'calibration-to' } }}
      />
      <TextField
        select
        size="small"
        label={t('page.surgery')}
        value={surgeries.data?.some((s) => s.id === params.surgeryId) ? params.surgeryId : ''}
        onChange={(e) => update({ surgeryId: e.target.value })}
        slotProps={{
          select: { displayEmpty: true },
          inputLabel: { shrink: true },
          htmlInput: { 'data-testid': 'calibration-surgery' } as object,
        }}
      >
        <MenuItem value="">{t('page.anySurgery')}</MenuItem>
        {(surgeries.data ?? []).map((s) => (
          <MenuItem key={s.id} value={s.id}>
            {s.name}
          </MenuItem>
        ))}
      </TextField>
    </Box>
  );
}
