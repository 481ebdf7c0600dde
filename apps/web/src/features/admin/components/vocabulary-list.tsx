import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import AddOutlined from '@mui/icons-material/AddOutlined';
import ArchiveOutlined from '@mui/icons-material/ArchiveOutlined';
import ArrowDownwardOutlined from '@mui/icons-material/ArrowDownwardOutlined';
import ArrowUpwardOutlined from '@mui/icons-material/ArrowUpwardOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import UnarchiveOutlined from '@mui/icons-material/UnarchiveOutlined';
import type { AdminOrgan, AdminStep, VocabularyKind } from '@sutura/domain/admin-catalog';
import { currentLanguage } from '@/lib/i18n';
import { PendingButton } from '@/components/pending-button';
import type { TermFields } from '@/features/admin/api/vocabulary-api';
import { VocabularyTermDialog } from '@/features/admin/components/vocabulary-term-dialog';

/** What every term of every list has. */
export type Term = AdminStep & { icon?: string; organId?: string | null };

export interface VocabularyListActions {
  create(fields: TermFields): Promise<void>;
  update(id: string, fields: TermFields): Promise<void>;
  /** The whole list in its new order. */
  reorder(ids: string[]): Promise<void>;
  retire(id: string): Promise<void>;
  restore(id: string): Promise<void>;
  remove(id: string): Promise<void>;
}

/**
 * One list of terms in its order: both names, retired and in-use marks, and for administrators
 * the controls (up and down buttons move a term with the keyboard, then keep the focus on it).
 * `busy` disables every control while a change of the page runs, so that each happens once.
 */
export function VocabularyList({
  kind,
  terms,
  organs,
  canWrite,
  busy,
  actions,
  label,
  extra,
  below,
  testId,
}: {
  kind: VocabularyKind;
  terms: readonly Term[];
  organs: readonly AdminOrgan[];
  canWrite: boolean;
  busy: boolean;
  actions: VocabularyListActions;
  label: string;
  /** What a row shows beside its names (an organ's icon, a surgery's organ). */
  extra?: (term: Term) => ReactNode;
  /** What a row shows under it, across its whole width (a surgery's steps). */
  below?: (term: Term) => ReactNode;
  testId: string;
}) {
  const { t } = useTranslation('vocabularies');
  const [dialog, setDialog] = useState<{ term?: Term } | null>(null);
  const [deleting, setDeleting] = useState<Term | null>(null);
  const lang = currentLanguage();

  // The button the focus goes back to once the list is usable again (its buttons are disabled
  // while it is saved, and the moved row renders at its new place after the save).
  const refocus = useRef<string | null>(null);
  const focusPending = () => {
    const target = refocus.current ? document.getElementById(refocus.current) : null;
    if (!target || (target as HTMLButtonElement).disabled) return;
    refocus.current = null;
    target.focus();
  };
  useEffect(focusPending);

  const move = async (index: number, by: -1 | 1) => {
    const ids = terms.map((term) => term.id);
    const [id] = ids.splice(index, 1);
    ids.splice(index + by, 0, id!);
    await actions.reorder(ids);
    // The row moved: the focus follows it, on the same button while it still can move that way.
    const at = index + by;
    const canAgain = by === -1 ? at > 0 : at < terms.length - 1;
    const direction = (by === -1) === canAgain ? 'up' : 'down';
    refocus.current = `${testId}-${direction}-${id}`;
    requestAnimationFrame(focusPending);
  };

  return (
    <Box>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, mb: 1, flexWrap: 'wrap' }}>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('count', { count: terms.length })}
        </Typography>
        {canWrite && (
          <Button
            variant="contained"
            size="small"
            startIcon={<AddOutlined aria-hidden />}
            onClick={() => setDialog({})}
            disabled={busy}
            data-testid={`${testId}-add`}
          >
            {t(`add.${kind}`)}
          </Button>
        )}
      </Box>
      <Box
        component="ol"
        aria-label={label}
        data-testid={testId}
        sx={{ listStyle: 'none', p: 0, m: 0, display: 'flex', flexDirection: 'column', gap: 1 }}
      >
        {terms.map((term, index) => {
          const name = lang === 'fr' ? term.nameFr : term.nameEn;
          return (
            <Paper
              component="li"
              key={term.id}
              variant="outlined"
              data-testid={`${testId}-row`}
              data-term-id={term.id}
              data-retired={term.retiredAt ? 'true' : 'false'}
              // A retired term reads as set aside by its chip and a dashed, tinted card, never by
              // fading its text (its secondary lines would fall below 4.5:1).
              sx={term.retiredAt ? { p: 1.5, borderStyle: 'dashed', bgcolor: 'action.hover' } : { p: 1.5 }}
            >
              <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1.5, flexWrap: 'wrap' }}>
                <Typography
                  component="span"
                  sx={{ fontVariantNumeric: 'tabular-nums', color: 'text.secondary', minWidth: '2ch', pt: 0.25 }}
                >
                  {index + 1}
                </Typography>
                <Box sx={{ flex: '1 1 14rem', minWidth: 0 }}>
                  <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }} data-testid={`${testId}-name`}>
                    {name}
                  </Typography>
                  <Typography variant="body2" sx={{ color: 'text.secondary', overflowWrap: 'anywhere' }}>
                    <span lang="fr">FR · {term.nameFr}</span>
                    {' — '}
                    <span lang="en">EN · {term.nameEn}</span>
                  </Typography>
                  <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap', mt: 0.5, alignItems: 'center' }}>
                    {term.retiredAt && <Chip size="small" color="warning" label={t('retired')} data-testid={`${testId}-retired`} />}
                    {term.inUse && <Chip size="small" variant="outlined" label={t('inUse')} />}
                    {extra?.(term)}
                  </Box>
                </Box>
                {canWrite && (
                  <Box sx={{ display: 'flex', gap: 0.25, flexWrap: 'wrap', alignItems: 'center' }}>
                    <IconButton
                      id={`${testId}-up-${term.id}`}
                      aria-label={t('actions.up', { name })}
                      title={t('actions.up', { name })}
                      disabled={busy || index === 0}
                      onClick={() => void move(index, -1)}
                      data-testid={`${testId}-up`}
                    >
                      <ArrowUpwardOutlined />
                    </IconButton>
                    <IconButton
                      id={`${testId}-down-${term.id}`}
                      aria-label={t('actions.down', { name })}
                      title={t('actions.down', { name })}
                      disabled={busy || index === terms.length - 1}
                      onClick={() => void move(index, 1)}
                      data-testid={`${testId}-down`}
                    >
                      <ArrowDownwardOutlined />
                    </IconButton>
                    <IconButton
                      aria-label={t('actions.edit', { name })}
                      title={t('actions.edit', { name })}
                      disabled={busy}
                      onClick={() => setDialog({ term })}
                      data-testid={`${testId}-edit`}
                    >
                      <EditOutlined />
                    </IconButton>
                    {term.retiredAt ? (
                      <IconButton
                        aria-label={t('actions.restore', { name })}
                        title={t('actions.restore', { name })}
                        disabled={busy}
                        onClick={() => void actions.restore(term.id)}
                        data-testid={`${testId}-restore`}
                      >
                        <UnarchiveOutlined />
                      </IconButton>
                    ) : (
                      <IconButton
                        aria-label={t('actions.retire', { name })}
                        title={t('actions.retire', { name })}
                        disabled={busy}
                        onClick={() => void actions.retire(term.id)}
                        data-testid={`${testId}-retire`}
                      >
                        <ArchiveOutlined />
                      </IconButton>
                    )}
                    {!term.inUse && (
                      <IconButton
                        aria-label={t('actions.delete', { name })}
                        title={t('actions.delete', { name })}
                        disabled={busy}
                        onClick={() => setDeleting(term)}
                        color="error"
                        data-testid={`${testId}-delete`}
                      >
                        <DeleteOutlined />
                      </IconButton>
                    )}
                  </Box>
                )}
              </Box>
              {below?.(term)}
            </Paper>
          );
        })}
      </Box>
      {dialog && (
        <VocabularyTermDialog
          kind={kind}
          organs={organs}
          {...(dialog.term
            ? {
                initial: {
                  nameFr: dialog.term.nameFr,
                  nameEn: dialog.term.nameEn,
                  ...(kind === 'organs' ? { icon: dialog.term.icon } : {}),
                  ...(kind === 'surgeries' ? { organId: dialog.term.organId ?? null } : {}),
                },
              }
            : {})}
          onClose={() => setDialog(null)}
          onSubmit={async (fields) => {
            if (dialog.term) await actions.update(dialog.term.id, fields);
            else await actions.create(fields);
            setDialog(null);
          }}
        />
      )}
      {deleting && (
        <VocabularyDeleteDialog
          name={lang === 'fr' ? deleting.nameFr : deleting.nameEn}
          busy={busy}
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            await actions.remove(deleting.id);
            setDeleting(null);
          }}
        />
      )}
    </Box>
  );
}

function VocabularyDeleteDialog({
  name,
  busy,
  onClose,
  onConfirm,
}: {
  name: string;
  busy: boolean;
  onClose(): void;
  onConfirm(): Promise<void>;
}) {
  const { t } = useTranslation('vocabularies');
  return (
    <Dialog
      open
      onClose={() => !busy && onClose()}
      maxWidth="xs"
      fullWidth
      aria-labelledby="vocabulary-delete-title"
      aria-describedby="vocabulary-delete-text"
    >
      <DialogTitle id="vocabulary-delete-title">{t('delete.title', { name })}</DialogTitle>
      <DialogContent>
        <DialogContentText id="vocabulary-delete-text">{t('delete.text')}</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={busy}>
          {t('dialog.cancel')}
        </Button>
        <PendingButton
          variant="contained"
          color="error"
          pending={busy}
          onClick={() => void onConfirm()}
          icon={<DeleteOutlined aria-hidden />}
          data-testid="vocabulary-confirm-delete"
        >
          {t('delete.confirm')}
        </PendingButton>
      </DialogActions>
    </Dialog>
  );
}
