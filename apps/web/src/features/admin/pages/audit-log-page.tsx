import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { visuallyHidden } from '@mui/utils';
import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import FilterAltOffOutlined from '@mui/icons-material/FilterAltOffOutlined';
import type { AuditEntry } from '@sutura/domain/admin';
import { AUDIT_ACTION_GROUPS, auditActionLabel, auditActionsOf, auditEntityLabel, type AuditActionGroup } from '@sutura/domain/audit';
import { PendingButton } from '@/components/pending-button';
import { errorText } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { useToast } from '@/lib/toast';
import { ADMIN_PAGE_SIZE, downloadAuditCsv, useAuditLog } from '@/features/admin/api/admin';
import { ReadOnlyNotice } from '@/features/admin/components/read-only-notice';
import { SearchField } from '@/features/admin/components/search-field';
import { useUrlParams } from '@/features/admin/hooks/use-url-params';

const FILTER_KEYS = ['actor', 'action', 'entityId', 'from', 'to'] as const;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const GROUPS = Object.keys(AUDIT_ACTION_GROUPS) as AuditActionGroup[];
/** What the action filter offers: every family (`user.`, the API's prefix filter), each followed by its actions. */
const ACTION_CHOICES = GROUPS.flatMap((group) => [`${group}.`, ...auditActionsOf(group)]);

/** A readable label with the stored identifier under it, small and monospace: administrators search by it. */
function Labelled({ label, id, testId }: { label: string; id: string; testId: string }) {
  return (
    <>
      <Box component="span" sx={{ display: 'block' }} data-testid={`${testId}-label`}>
        {label}
      </Box>
      <Box
        component="code"
        sx={{ display: 'block', fontFamily: 'monospace', fontSize: 12, color: 'text.secondary', overflowWrap: 'anywhere' }}
        data-testid={`${testId}-id`}
      >
        {id}
      </Box>
    </>
  );
}

function Who({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation(['audit']);
  if (entry.actor)
    return (
      <>
        <Box component="span" sx={{ display: 'block', fontWeight: 600 }}>
          {`${entry.actor.firstName} ${entry.actor.lastName}`.trim()}
        </Box>
        <Box component="span" sx={{ display: 'block', color: 'text.secondary' }}>
          {entry.actor.email}
        </Box>
      </>
    );
  return <>{entry.actorId ? t('audit:deleted', { id: entry.actorId }) : t('audit:system')}</>;
}

/**
 * What the entry is about, as a person reads it (the case, the person, the term); its id, which
 * searches use, shown on demand under it with a button that copies it.
 */
function Subject({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation(['audit']);
  const toast = useToast();
  const [open, setOpen] = useState(false);
  if (!entry.entityId) return null;
  const idBox = `audit-id-${entry.id}`;
  const id = (
    <Box component="code" sx={{ fontFamily: 'monospace', fontSize: 12, color: 'text.secondary', overflowWrap: 'anywhere' }}>
      {entry.entityId}
    </Box>
  );
  // An entry that names nothing we can read (an id of another kind): its id is all there is.
  if (!entry.subject) return id;
  const copy = () =>
    navigator.clipboard.writeText(entry.entityId ?? '').then(
      () => toast('success', t('audit:idCopied')),
      () => toast('error', t('audit:idNotCopied')),
    );
  return (
    <>
      <Box
        component="span"
        sx={{ display: 'block', ...(entry.subject.deleted ? { fontStyle: 'italic', color: 'text.secondary' } : {}) }}
        data-testid="audit-row-subject-label"
      >
        {entry.subject.label}
      </Box>
      <Button
        size="small"
        aria-expanded={open}
        aria-controls={idBox}
        onClick={() => setOpen((o) => !o)}
        data-read
        data-testid="audit-row-subject-toggle"
        sx={{ p: 0, minWidth: 0, fontSize: 12, textTransform: 'none' }}
      >
        {open ? t('audit:hideId') : t('audit:showId')}
      </Button>
      <Box id={idBox} hidden={!open} sx={{ alignItems: 'center', gap: 0.5, '&:not([hidden])': { display: 'flex' } }}>
        {id}
        <Tooltip title={t('audit:copyId')}>
          <IconButton
            size="small"
            aria-label={t('audit:copyId')}
            onClick={() => void copy()}
            data-read
            data-testid="audit-row-subject-copy"
          >
            <ContentCopyOutlined fontSize="inherit" aria-hidden />
          </IconButton>
        </Tooltip>
      </Box>
    </>
  );
}

/** `/admin/audit`: who did what, when and from where; searched and paged on the server, exported as CSV. */
export function AuditLogPage() {
  const { t } = useTranslation(['audit', 'errors']);
  const toast = useToast();
  const { values, update } = useUrlParams(FILTER_KEYS);
  const filters = {
    ...values,
    from: DAY.test(values.from) ? values.from : '',
    to: DAY.test(values.to) ? values.to : '',
  };
  // Keyset pages: the cursors of the pages walked through, newest first; a new search starts over.
  const filterKey = JSON.stringify(filters);
  const [trail, setTrail] = useState<{ key: string; cursors: string[] }>({ key: filterKey, cursors: [] });
  const cursors = trail.key === filterKey ? trail.cursors : [];
  const log = useAuditLog({ ...filters, cursor: cursors.at(-1) ?? '' });
  const [downloading, setDownloading] = useState(false);
  const pageNumber = cursors.length + 1;
  const pages = log.data ? Math.max(1, Math.ceil(log.data.total / ADMIN_PAGE_SIZE)) : 1;
  const nextCursor = log.data?.nextCursor ?? null;
  const go = (next: string[]) => {
    setTrail({ key: filterKey, cursors: next });
    window.scrollTo({ top: 0 });
  };
  const lang = currentLanguage();
  // Shown on the installation's clock, as the day filters and the CSV file read them, with the zone's offset.
  const timeZone = log.data?.timeZone;
  const when = new Intl.DateTimeFormat(lang, { dateStyle: 'short', timeStyle: 'long', ...(timeZone ? { timeZone } : {}) });
  const filtered = FILTER_KEYS.some((k) => values[k]);

  const download = async () => {
    if (downloading) return;
    setDownloading(true);
    try {
      await downloadAuditCsv(filters);
    } catch (error) {
      toast('error', errorText(error));
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Box sx={{ maxWidth: 1400, mx: 'auto', width: '100%' }} data-testid="admin-page">
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('audit:intro')}
      </Typography>
      <ReadOnlyNotice />
      <Box
        role="search"
        aria-label={t('audit:filters')}
        sx={{
          display: 'grid',
          gap: 2,
          mb: 2,
          gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: '2fr 1.5fr 1.5fr 1fr 1fr' },
        }}
      >
        <SearchField
          size="small"
          label={t('audit:actor')}
          value={values.actor}
          onSearch={(actor) => update({ actor })}
          data-testid="audit-actor"
        />
        <TextField
          select
          size="small"
          label={t('audit:action')}
          value={ACTION_CHOICES.includes(values.action) ? values.action : ''}
          onChange={(e) => update({ action: e.target.value })}
          slotProps={{
            select: {
              renderValue: (value) => {
                const chosen = String(value);
                if (!chosen) return t('audit:anyAction');
                const group = chosen.endsWith('.') ? (chosen.slice(0, -1) as AuditActionGroup) : undefined;
                return group ? AUDIT_ACTION_GROUPS[group][lang] : auditActionLabel(chosen, lang);
              },
              displayEmpty: true,
              MenuProps: { slotProps: { paper: { sx: { maxHeight: 420 } } } },
            },
            inputLabel: { shrink: true },
          }}
          data-testid="audit-action"
        >
          <MenuItem value="">{t('audit:anyAction')}</MenuItem>
          {ACTION_CHOICES.map((choice) =>
            choice.endsWith('.') ? (
              <MenuItem key={choice} value={choice} sx={{ fontWeight: 600, display: 'block', whiteSpace: 'normal' }}>
                <Labelled
                  label={t('audit:wholeGroup', { group: AUDIT_ACTION_GROUPS[choice.slice(0, -1) as AuditActionGroup][lang] })}
                  id={choice}
                  testId="audit-action-family"
                />
              </MenuItem>
            ) : (
              <MenuItem key={choice} value={choice} sx={{ pl: 4, display: 'block', whiteSpace: 'normal' }}>
                <Labelled label={auditActionLabel(choice, lang)} id={choice} testId="audit-action-option" />
              </MenuItem>
            ),
          )}
        </TextField>
        <SearchField
          size="small"
          label={t('audit:entityId')}
          value={values.entityId}
          onSearch={(entityId) => update({ entityId })}
          data-testid="audit-entity"
        />
        <TextField
          size="small"
          type="date"
          label={t('audit:from')}
          value={filters.from}
          onChange={(e) => update({ from: e.target.value })}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: filters.to || undefined, 'data-testid': 'audit-from' } }}
        />
        <TextField
          size="small"
          type="date"
          label={t('audit:to')}
          value={filters.to}
          onChange={(e) => update({ to: e.target.value })}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: filters.from || undefined, 'data-testid': 'audit-to' } }}
        />
      </Box>
      {timeZone && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }} data-testid="audit-time-zone">
          {t('audit:timeZone', { zone: timeZone })}
        </Typography>
      )}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 1 }}>
        <Typography color="text.secondary" role="status" sx={{ flex: 1, minWidth: 160 }} data-testid="audit-count">
          {log.data ? t('audit:count', { count: log.data.total }) : ''}
        </Typography>
        {filtered && (
          <Button
            size="small"
            startIcon={<FilterAltOffOutlined aria-hidden />}
            onClick={() => update({ actor: '', action: '', entityId: '', from: '', to: '' })}
            data-read
          >
            {t('audit:clear')}
          </Button>
        )}
        <PendingButton
          size="small"
          variant="outlined"
          icon={<DownloadOutlined aria-hidden />}
          pending={downloading}
          onClick={() => void download()}
          data-read
          data-testid="audit-download"
        >
          {downloading ? t('audit:downloading') : t('audit:download')}
        </PendingButton>
      </Box>
      {log.isError && <Alert severity="error">{errorText(log.error)}</Alert>}
      {log.isPending && <Skeleton variant="rounded" height={200} />}
      {log.data?.data.length === 0 && <Alert severity="info">{t('audit:empty')}</Alert>}
      {log.data && log.data.data.length > 0 && (
        <Box
          sx={{ overflowX: 'auto', border: 1, borderColor: 'divider', borderRadius: 1 }}
          tabIndex={0}
          aria-label={t('audit:caption')}
          role="region"
        >
          <Box
            component="table"
            data-testid="audit-table"
            sx={{
              borderCollapse: 'collapse',
              width: '100%',
              minWidth: 760,
              fontSize: 14,
              opacity: log.isPlaceholderData ? 0.6 : 1,
              '& td, & th': { py: 0.75, px: 1, borderBottom: 1, borderColor: 'divider', textAlign: 'left', verticalAlign: 'top' },
              '& th': { whiteSpace: 'nowrap' },
              '& td.mono': { fontFamily: 'monospace', fontSize: 12, overflowWrap: 'anywhere', maxWidth: 220 },
            }}
          >
            <Box component="caption" sx={visuallyHidden}>
              {t('audit:caption')}
            </Box>
            <thead>
              <tr>
                {(['when', 'who', 'action', 'entity', 'subject', 'ip'] as const).map((c) => (
                  <th key={c} scope="col">
                    {t(`audit:columns.${c}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {log.data.data.map((entry) => (
                <tr key={entry.id} data-testid="audit-row">
                  <td style={{ whiteSpace: 'nowrap' }}>
                    <time dateTime={entry.createdAt}>{when.format(new Date(entry.createdAt))}</time>
                  </td>
                  <td>
                    <Who entry={entry} />
                  </td>
                  <td data-testid="audit-row-action" style={{ minWidth: 190 }}>
                    <Labelled label={auditActionLabel(entry.action, lang)} id={entry.action} testId="audit-row-action" />
                  </td>
                  <td data-testid="audit-row-entity" style={{ minWidth: 110 }}>
                    <Labelled label={auditEntityLabel(entry.entity, lang)} id={entry.entity} testId="audit-row-entity" />
                  </td>
                  <td data-testid="audit-row-subject" style={{ minWidth: 220 }}>
                    <Subject entry={entry} />
                  </td>
                  <td className="mono">{entry.ip ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </Box>
        </Box>
      )}
      {(cursors.length > 0 || nextCursor) && (
        <Box
          component="nav"
          aria-label={t('audit:pagination')}
          sx={{ display: 'flex', justifyContent: 'center', alignItems: 'center', flexWrap: 'wrap', gap: 1, mt: 3 }}
        >
          <Button onClick={() => go([])} disabled={cursors.length === 0} data-testid="audit-newest">
            {t('audit:newest')}
          </Button>
          <Button onClick={() => go(cursors.slice(0, -1))} disabled={cursors.length === 0} data-testid="audit-newer">
            {t('audit:newer')}
          </Button>
          <Typography variant="body2" color="text.secondary" aria-live="polite" data-testid="audit-page">
            {t('audit:pageOf', { page: pageNumber, pages: Math.max(pages, pageNumber) })}
          </Typography>
          <Button onClick={() => nextCursor && go([...cursors, nextCursor])} disabled={!nextCursor} data-testid="audit-older">
            {t('audit:older')}
          </Button>
        </Box>
      )}
    </Box>
  );
}
