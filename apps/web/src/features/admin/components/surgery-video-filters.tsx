import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { ADMIN_VIDEO_SEARCH_MAX } from '@sutura/domain/admin-catalog';
import { MEDIA_STATUSES, VIDEO_STATUSES } from '@sutura/domain/videos';
import type { SurgeryVideoParams } from '@/features/admin/api/surgery-video-api';

/** Status, media status, a search in authors and surgeries (sent after a pause in typing), the order. */
export function SurgeryVideoFilters({
  params,
  onChange,
}: {
  params: SurgeryVideoParams;
  onChange(changes: Partial<SurgeryVideoParams>): void;
}) {
  const { t } = useTranslation('surgery-videos');
  const [search, setSearch] = useState(params.search ?? '');
  // The address changed from elsewhere (back button, a link): the field follows it.
  const [synced, setSynced] = useState(params.search);
  if (synced !== params.search) {
    setSynced(params.search);
    if ((params.search ?? '') !== search.trim()) setSearch(params.search ?? '');
  }
  useEffect(() => {
    const trimmed = search.trim();
    if (trimmed === (params.search ?? '')) return;
    const timer = setTimeout(() => onChange({ search: trimmed || undefined }), 350);
    return () => clearTimeout(timer);
  }, [search, params.search, onChange]);

  return (
    <Box
      sx={{
        display: 'grid',
        gap: 1.5,
        gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', md: '2fr 1fr 1fr auto' },
        alignItems: 'center',
      }}
    >
      <TextField
        type="search"
        size="small"
        label={t('filters.search')}
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        slotProps={{ htmlInput: { maxLength: ADMIN_VIDEO_SEARCH_MAX, 'data-testid': 'surgery-videos-search' } }}
      />
      <TextField
        select
        size="small"
        label={t('filters.status')}
        value={params.status ?? ''}
        onChange={(e) => onChange({ status: (e.target.value || undefined) as SurgeryVideoParams['status'] })}
        slotProps={{
          select: { displayEmpty: true, SelectDisplayProps: { 'data-testid': 'surgery-videos-status' } as object },
          inputLabel: { shrink: true },
        }}
      >
        <MenuItem value="">{t('filters.all')}</MenuItem>
        {VIDEO_STATUSES.map((s) => (
          <MenuItem key={s} value={s}>
            {t(`status.${s}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label={t('filters.mediaStatus')}
        value={params.mediaStatus ?? ''}
        onChange={(e) => onChange({ mediaStatus: (e.target.value || undefined) as SurgeryVideoParams['mediaStatus'] })}
        slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      >
        <MenuItem value="">{t('filters.all')}</MenuItem>
        {MEDIA_STATUSES.map((s) => (
          <MenuItem key={s} value={s}>
            {t(`mediaStatus.${s}`)}
          </MenuItem>
        ))}
      </TextField>
      <FormControlLabel
        control={<Switch checked={params.oldest} onChange={(e) => onChange({ oldest: e.target.checked })} />}
        label={t('filters.oldest')}
      />
    </Box>
  );
}
