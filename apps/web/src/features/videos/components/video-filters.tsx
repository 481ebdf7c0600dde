import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import FilterListOutlined from '@mui/icons-material/FilterListOutlined';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import dayjs, { type Dayjs } from 'dayjs';
import type { VideoStatus } from '@sutura/domain/videos';
import { DateLocalization } from '@/lib/date-localization';
import { useOrgans, useSurgeries } from '@/lib/vocabularies';
import { VIDEO_SORT_OPTIONS, type VideoListParams, type VideoSort } from '@/features/videos/api/video-list';
import { activeFilterCount, TAB_STATUSES } from '@/features/videos/hooks/use-video-list-params';
import { visuallyHidden } from '@/components/video/visually-hidden';

interface VideoFiltersProps {
  params: VideoListParams;
  onChange(changes: Partial<VideoListParams>): void;
  onClear(): void;
}

const ALL = '';

const DAY = 'YYYY-MM-DD';

/**
 * The "added from / until" days, entered and shown in the app's language. An end before the
 * start is said as such and not applied.
 */
function DateRange({ from, to, onChange }: { from?: string; to?: string; onChange(change: Partial<VideoListParams>): void }) {
  const { t } = useTranslation(['videos', 'errors']);
  const [draft, setDraft] = useState({ from, to });
  const inverted = Boolean(draft.from && draft.to && draft.from > draft.to);
  const change = (next: { from: string | undefined; to: string | undefined }) => {
    setDraft(next);
    if (!(next.from && next.to && next.from > next.to)) onChange({ from: next.from, to: next.to });
  };
  const day = (value: Dayjs | null) => (value?.isValid() ? value.format(DAY) : undefined);
  return (
    <>
      <DatePicker
        label={t('filters.from')}
        value={draft.from ? dayjs(draft.from, DAY) : null}
        onChange={(value) => change({ ...draft, from: day(value) })}
        slotProps={{ textField: { size: 'small', 'data-testid': 'filter-from' } as object, field: { clearable: true } }}
      />
      <DatePicker
        label={t('filters.to')}
        value={draft.to ? dayjs(draft.to, DAY) : null}
        onChange={(value) => change({ ...draft, to: day(value) })}
        slotProps={{
          textField: {
            size: 'small',
            error: inverted,
            helperText: inverted ? t('errors:DATE_RANGE_INVERTED') : undefined,
            'data-testid': 'filter-to',
          } as object,
          field: { clearable: true },
        }}
      />
    </>
  );
}

/** Surgery, organ, status, favourites and date range, plus the order; folded on small screens. */
export function VideoFilters({ params, onChange, onClear }: VideoFiltersProps) {
  const { t } = useTranslation('videos');
  const small = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'), { noSsr: true });
  const [open, setOpen] = useState(false);
  // Cases may have a term retired since: the filters offer every term, a retired one labelled.
  const organs = useOrgans('filter').data ?? [];
  const surgeries = (useSurgeries('filter').data ?? []).filter((s) => !params.organId || s.organId === params.organId);
  const statuses = TAB_STATUSES[params.tab];
  const count = activeFilterCount(params);

  const select = (
    label: string,
    value: string | undefined,
    options: { value: string; label: string }[],
    change: (v: string | undefined) => void,
    testId: string,
  ) => (
    <TextField
      select
      size="small"
      label={label}
      value={value ?? ALL}
      onChange={(e) => change(e.target.value === ALL ? undefined : e.target.value)}
      slotProps={{ htmlInput: { 'data-testid': testId } as object }}
      sx={{ minWidth: 0 }}
    >
      <MenuItem value={ALL}>{t('filters.all')}</MenuItem>
      {options.map((o) => (
        <MenuItem key={o.value} value={o.value}>
          {o.label}
        </MenuItem>
      ))}
    </TextField>
  );

  const fields = (
    <Box
      component="form"
      role="search"
      aria-label={t('filters.title')}
      onSubmit={(e) => e.preventDefault()}
      sx={{
        display: 'grid',
        gap: 2,
        gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(4, minmax(0, 1fr))' },
        alignItems: 'center',
        pt: { xs: 1, md: 0 },
      }}
    >
      {select(
        t('filters.organ'),
        params.organId,
        organs.map((o) => ({ value: o.id, label: o.name })),
        // Another organ: a surgery of the former one no longer applies.
        (organId) => onChange({ organId, surgeryId: undefined }),
        'filter-organ',
      )}
      {select(
        t('filters.surgery'),
        surgeries.some((s) => s.id === params.surgeryId) ? params.surgeryId : undefined,
        surgeries.map((s) => ({ value: s.id, label: s.name })),
        (surgeryId) => onChange({ surgeryId }),
        'filter-surgery',
      )}
      {statuses.length > 1 &&
        select(
          t('filters.status'),
          params.status,
          statuses.map((s) => ({ value: s, label: t(`status.${s}`) })),
          (status) => onChange({ status: status as VideoStatus | undefined }),
          'filter-status',
        )}
      <TextField
        select
        size="small"
        label={t('filters.sort')}
        value={params.sort}
        onChange={(e) => onChange({ sort: e.target.value as VideoSort })}
        slotProps={{ htmlInput: { 'data-testid': 'filter-sort' } as object }}
      >
        {(Object.keys(VIDEO_SORT_OPTIONS) as VideoSort[]).map((sort) => (
          <MenuItem key={sort} value={sort}>
            {t(`sort.${sort}`)}
          </MenuItem>
        ))}
      </TextField>
      <DateLocalization>
        {/* Remounted when the applied range changes elsewhere (filters cleared). */}
        <DateRange key={`${params.from ?? ''}|${params.to ?? ''}`} from={params.from} to={params.to} onChange={onChange} />
      </DateLocalization>
      {params.tab !== 'shared' && (
        <FormControlLabel
          control={<Switch checked={params.favourite === true} onChange={(_, checked) => onChange({ favourite: checked || undefined })} />}
          label={t('filters.favourite')}
        />
      )}
      {count > 0 && (
        <Box>
          <Button onClick={onClear}>{t('filters.clear')}</Button>
        </Box>
      )}
    </Box>
  );

  if (!small) return fields;
  return (
    <Box>
      <Button
        variant="outlined"
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        aria-controls="video-filters"
        startIcon={
          <Badge badgeContent={count} color="secondary">
            <FilterListOutlined aria-hidden />
          </Badge>
        }
      >
        {t(open ? 'filters.hide' : 'filters.show')}
        {count > 0 && <Box component="span" sx={visuallyHidden}>{` (${t('filters.activeCount', { count })})`}</Box>}
      </Button>
      <Collapse in={open} id="video-filters">
        {fields}
      </Collapse>
    </Box>
  );
}
