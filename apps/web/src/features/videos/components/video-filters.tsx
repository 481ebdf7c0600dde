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

/** The pickers' own first day: a year still being typed (0202 on the way to 2026) is not a day yet. */
const FIRST_DAY = dayjs('1900-01-01', DAY);

const INCOMPLETE = Symbol('incomplete');

/** What a field holds: no day, a whole day, or a day still being typed. */
function dayOf(value: Dayjs | null): string | undefined | typeof INCOMPLETE {
  if (value === null) return undefined;
  return value.isValid() && !value.isBefore(FIRST_DAY) ? value.format(DAY) : INCOMPLETE;
}

const parse = (day?: string) => (day ? dayjs(day, DAY) : null);

/**
 * The "added from / until" days, entered and shown in the app's language. A range applies once
 * both of its days are whole, so the list does not move (nor the field lose the caret) while a
 * year is typed; an end before the start is said as such and not applied.
 */
function DateRange({ from, to, onChange }: { from?: string; to?: string; onChange(change: Partial<VideoListParams>): void }) {
  const { t } = useTranslation(['videos', 'errors']);
  // What the fields hold, typed or not; the address holds what is applied.
  const [draft, setDraft] = useState({ from: parse(from), to: parse(to) });
  const [seen, setSeen] = useState({ from, to });
  if (seen.from !== from || seen.to !== to) {
    setSeen({ from, to });
    // Changed elsewhere (filters cleared, the back button): the fields follow.
    if (dayOf(draft.from) !== from || dayOf(draft.to) !== to) setDraft({ from: parse(from), to: parse(to) });
  }
  const start = dayOf(draft.from);
  const end = dayOf(draft.to);
  const inverted = typeof start === 'string' && typeof end === 'string' && start > end;
  const change = (next: { from: Dayjs | null; to: Dayjs | null }) => {
    setDraft(next);
    const nextFrom = dayOf(next.from);
    const nextTo = dayOf(next.to);
    if (nextFrom === INCOMPLETE || nextTo === INCOMPLETE) return;
    if (nextFrom && nextTo && nextFrom > nextTo) return;
    if (nextFrom !== from || nextTo !== to) onChange({ from: nextFrom, to: nextTo });
  };
  return (
    <>
      <DatePicker
        label={t('filters.from')}
        value={draft.from}
        minDate={FIRST_DAY}
        onChange={(value) => change({ ...draft, from: value })}
        slotProps={{ textField: { size: 'small', 'data-testid': 'filter-from' } as object, field: { clearable: true } }}
      />
      <DatePicker
        label={t('filters.to')}
        value={draft.to}
        minDate={FIRST_DAY}
        onChange={(value) => change({ ...draft, to: value })}
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
        <DateRange from={params.from} to={params.to} onChange={onChange} />
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
