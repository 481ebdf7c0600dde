import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import AddOutlined from '@mui/icons-material/AddOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import DrawOutlined from '@mui/icons-material/DrawOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import FormatListNumberedOutlined from '@mui/icons-material/FormatListNumberedOutlined';
import NotesOutlined from '@mui/icons-material/NotesOutlined';
import PublicOffOutlined from '@mui/icons-material/PublicOffOutlined';
import PublicOutlined from '@mui/icons-material/PublicOutlined';
import type { AdminBestCase } from '@sutura/domain/best-cases';
import { mayAdminWrite } from '@sutura/domain/roles';
import { PendingButton } from '@/components/pending-button';
import { formatDuration } from '@/components/video/format';
import { OrganLabel } from '@/components/video/organ-label';
import { VideoPoster } from '@/components/video/video-poster';
import { errorText } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { useSession } from '@/lib/session';
import { useToast } from '@/lib/toast';
import { ADMIN_BEST_CASE_PAGE_SIZE, useAdminBestCases, usePublishBestCase } from '@/features/best-cases/api/best-cases';
import { ResendFileButton } from '@/features/best-cases/components/resend-file-button';
import { BestCaseNotesDialog } from '@/features/best-cases/components/best-case-notes-dialog';
import { BestCaseStepsDialog } from '@/features/best-cases/components/best-case-steps-dialog';
import { BestCaseDrawingsDialog } from '@/features/best-cases/components/best-case-drawings';
import { DeleteBestCaseDialog } from '@/features/best-cases/components/delete-best-case-dialog';
import { EditBestCaseDialog } from '@/features/best-cases/components/edit-best-case-dialog';
import { ListPagination, ListStates, pageCount } from '@/components/list-states';

type Dialog = { kind: 'edit' | 'delete'; bestCase: AdminBestCase } | { kind: 'steps' | 'notes' | 'drawings'; id: string } | null;

/** Where the video and the author's consent stand, and whether learners see it. */
function States({ bestCase }: { bestCase: AdminBestCase }) {
  const { t } = useTranslation('best-cases');
  const media = bestCase.mediaStatus;
  return (
    <Box sx={{ display: 'grid', gap: 1 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        <Chip
          size="small"
          color={bestCase.visible ? 'success' : 'default'}
          variant={bestCase.visible ? 'filled' : 'outlined'}
          label={t(bestCase.visible ? 'admin.visible' : bestCase.published ? 'admin.publishedHidden' : 'admin.unpublished')}
          data-testid="best-case-visibility"
        />
        {bestCase.origin === 'converted' && (
          <Chip
            size="small"
            variant="outlined"
            color={bestCase.consent === 'accepted' ? 'success' : bestCase.consent === 'pending' ? 'warning' : 'error'}
            label={t(`consent.${bestCase.consent}`)}
          />
        )}
        <Chip size="small" variant="outlined" label={t(`origin.${bestCase.origin}`)} />
        {media === 'ready' && <Chip size="small" variant="outlined" label={t('admin.stepCount', { count: bestCase.stepCount })} />}
      </Box>
      {(media === 'uploading' || media === 'processing') && (
        <Box>
          <Typography variant="body2" data-testid="best-case-media-state">
            {t(media === 'uploading' ? 'admin.uploading' : 'admin.processing', { percent: Math.round(bestCase.processingProgress) })}
          </Typography>
          <LinearProgress
            variant={media === 'processing' ? 'determinate' : 'indeterminate'}
            value={bestCase.processingProgress}
            aria-label={t('admin.progress')}
            sx={{ mt: 0.5, height: 6, borderRadius: 3 }}
          />
        </Box>
      )}
      {media === 'failed' && (
        <Alert severity="error" sx={{ py: 0 }}>
          {t('admin.failed')}
        </Alert>
      )}
    </Box>
  );
}

function Row({ bestCase, canWrite, onDialog }: { bestCase: AdminBestCase; canWrite: boolean; onDialog(dialog: Dialog): void }) {
  const { t } = useTranslation(['best-cases', 'videos']);
  const { t: tDrawing } = useTranslation('drawing');
  const toast = useToast();
  const publish = usePublishBestCase();
  const lang = currentLanguage();
  const title = lang === 'fr' ? bestCase.titleFr : bestCase.titleEn;
  const other = lang === 'fr' ? bestCase.titleEn : bestCase.titleFr;
  const refused = bestCase.consent === 'declined' || bestCase.consent === 'withdrawn';
  const togglePublished = () => {
    if (publish.isPending) return;
    publish.mutate(
      { id: bestCase.id, published: !bestCase.published },
      {
        onSuccess: (next) => toast('success', t(next.published ? 'admin.publishedToast' : 'admin.unpublishedToast')),
        onError: (error) => toast('error', errorText(error)),
      },
    );
  };
  return (
    <Paper
      variant="outlined"
      component="li"
      data-testid="admin-best-case"
      data-best-case-id={bestCase.id}
      sx={{
        borderRadius: 3,
        overflow: 'hidden',
        display: 'grid',
        gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: '240px minmax(0, 1fr)' },
      }}
    >
      <Box sx={{ position: 'relative', aspectRatio: '16 / 9' }}>
        <VideoPoster video={{ kind: 'video', mediaStatus: bestCase.mediaStatus, posterUrl: bestCase.posterUrl, pictureCount: 0 }} />
      </Box>
      <Box sx={{ p: 2, display: 'grid', gap: 1.25, alignContent: 'start', minWidth: 0 }}>
        <Box>
          <Typography variant="h3" component="h3" sx={{ fontSize: 17, overflowWrap: 'anywhere' }} data-testid="admin-best-case-title">
            {title}
          </Typography>
          <Typography variant="body2" lang={lang === 'fr' ? 'en' : 'fr'} sx={{ color: 'text.secondary', overflowWrap: 'anywhere' }}>
            {other}
          </Typography>
        </Box>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2, rowGap: 0.5, color: 'text.secondary' }}>
          <Typography variant="body2" sx={{ fontWeight: 700, color: 'text.primary' }}>
            {bestCase.surgery?.name ?? t('videos:card.noSurgery')}
          </Typography>
          {bestCase.organ && (
            <Typography variant="body2" component="span">
              <OrganLabel organ={bestCase.organ} />
            </Typography>
          )}
          {bestCase.duration !== null && <Typography variant="body2">{formatDuration(bestCase.duration)}</Typography>}
        </Box>
        <States bestCase={bestCase} />
        {canWrite && (
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }} role="group" aria-label={t('admin.actions')}>
            <PendingButton
              variant={bestCase.published ? 'outlined' : 'contained'}
              size="small"
              pending={publish.isPending}
              icon={bestCase.published ? <PublicOffOutlined aria-hidden /> : <PublicOutlined aria-hidden />}
              onClick={togglePublished}
              disabled={!bestCase.published && (bestCase.mediaStatus !== 'ready' || refused)}
              data-testid="best-case-publish"
            >
              {t(bestCase.published ? 'admin.unpublish' : 'admin.publish')}
            </PendingButton>
            <Button
              size="small"
              variant="outlined"
              startIcon={<EditOutlined aria-hidden />}
              onClick={() => onDialog({ kind: 'edit', bestCase })}
              data-testid="best-case-edit"
            >
              {t('admin.edit')}
            </Button>
            {bestCase.origin === 'uploaded' && (
              <Button
                size="small"
                variant="outlined"
                startIcon={<FormatListNumberedOutlined aria-hidden />}
                onClick={() => onDialog({ kind: 'steps', id: bestCase.id })}
                disabled={bestCase.mediaStatus !== 'ready'}
                data-testid="best-case-steps"
              >
                {t('admin.steps')}
              </Button>
            )}
            <Button
              size="small"
              variant="outlined"
              startIcon={<NotesOutlined aria-hidden />}
              onClick={() => onDialog({ kind: 'notes', id: bestCase.id })}
              disabled={bestCase.stepCount === 0}
              data-testid="best-case-notes"
            >
              {t('admin.notes')}
            </Button>
            <Button
              size="small"
              variant="outlined"
              startIcon={<DrawOutlined aria-hidden />}
              onClick={() => onDialog({ kind: 'drawings', id: bestCase.id })}
              disabled={bestCase.mediaStatus !== 'ready'}
              data-testid="best-case-drawings-open"
            >
              {tDrawing('adminButton')}
            </Button>
            {bestCase.origin === 'uploaded' &&
              bestCase.mine &&
              (bestCase.mediaStatus === 'uploading' || bestCase.mediaStatus === 'failed') && (
                <ResendFileButton videoId={bestCase.videoId} upload={bestCase.mediaStatus === 'uploading' ? bestCase.upload : null} />
              )}
            <Button
              size="small"
              variant="outlined"
              color="error"
              startIcon={<DeleteOutlined aria-hidden />}
              onClick={() => onDialog({ kind: 'delete', bestCase })}
              data-testid="best-case-delete"
            >
              {t('admin.delete')}
            </Button>
          </Box>
        )}
      </Box>
    </Paper>
  );
}

/** `/admin/best-cases`: every best case with its state; administrators publish, edit and delete, copil reads. */
export function AdminBestCasesPage() {
  const { t } = useTranslation(['best-cases', 'videos']);
  const { session } = useSession();
  const canWrite = mayAdminWrite(session?.roles ?? []);
  const [page, setPage] = useState(1);
  const [dialog, setDialog] = useState<Dialog>(null);
  const list = useAdminBestCases(page);
  const pages = pageCount(list.data?.total, ADMIN_BEST_CASE_PAGE_SIZE);
  return (
    <Box sx={{ maxWidth: 1200, mx: 'auto', width: '100%', display: 'grid', gap: 2 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography sx={{ color: 'text.secondary', maxWidth: 640 }}>{t(canWrite ? 'admin.intro' : 'admin.introReadOnly')}</Typography>
        {canWrite && (
          <Button
            component={RouterLink}
            to="/admin/best-cases/add"
            variant="contained"
            startIcon={<AddOutlined aria-hidden />}
            data-testid="add-best-case"
          >
            {t('admin.add')}
          </Button>
        )}
      </Box>
      <ListStates
        query={list}
        retry={t('list.retry')}
        loading={{ label: t('list.loading'), count: 3, height: 160, sx: { display: 'grid', gap: 2 } }}
        empty={
          <Paper variant="outlined" sx={{ p: 4, textAlign: 'center', borderRadius: 3 }} data-testid="admin-best-cases-empty">
            <Typography>{t('admin.empty')}</Typography>
          </Paper>
        }
      >
        {(result) => (
          <>
            <Typography role="status" variant="body2" sx={{ color: 'text.secondary' }}>
              {t('list.count', { count: result.total })}
            </Typography>
            <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 2 }} aria-busy={list.isFetching}>
              {result.data.map((bestCase) => (
                <Row key={bestCase.id} bestCase={bestCase} canWrite={canWrite} onDialog={setDialog} />
              ))}
            </Box>
            <ListPagination pages={pages} page={page} onChange={setPage} labels="videos:list.pagination" />
          </>
        )}
      </ListStates>
      {canWrite && (
        <>
          <EditBestCaseDialog bestCase={dialog?.kind === 'edit' ? dialog.bestCase : null} onClose={() => setDialog(null)} />
          <DeleteBestCaseDialog bestCase={dialog?.kind === 'delete' ? dialog.bestCase : null} onClose={() => setDialog(null)} />
          <BestCaseStepsDialog id={dialog?.kind === 'steps' ? dialog.id : null} onClose={() => setDialog(null)} />
          <BestCaseNotesDialog id={dialog?.kind === 'notes' ? dialog.id : null} onClose={() => setDialog(null)} />
          <BestCaseDrawingsDialog id={dialog?.kind === 'drawings' ? dialog.id : null} onClose={() => setDialog(null)} />
        </>
      )}
    </Box>
  );
}
