import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useUrlSearch } from '@/lib/url-search';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { visuallyHidden } from '@mui/utils';
import DeleteForeverOutlined from '@mui/icons-material/DeleteForeverOutlined';
import GavelOutlined from '@mui/icons-material/GavelOutlined';
import LockOpenOutlined from '@mui/icons-material/LockOpenOutlined';
import PlayCircleOutlined from '@mui/icons-material/PlayCircleOutlined';
import type { AdminVideo } from '@sutura/domain/admin-catalog';
import { mayAdminWrite } from '@sutura/domain/roles';
import { MEDIA_STATUSES, VIDEO_STATUSES, type MediaStatus, type VideoStatus } from '@sutura/domain/videos';
import { ApiRequestError, errorText } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { useSession } from '@/lib/session';
import { useSingleFlight } from '@/lib/single-flight';
import { useToast } from '@/lib/toast';
import { PendingButton } from '@/components/pending-button';
import { formatDateTime } from '@/components/video/format';
import { OrganLabel } from '@/components/video/organ-label';
import {
  SURGERY_VIDEO_PAGE_SIZE,
  useDeleteSurgeryVideo,
  useReleaseClaim,
  useSurgeryVideos,
  type SurgeryVideoParams,
} from '@/features/admin/api/surgery-video-api';
import { useReleaseHold } from '@/features/admin/api/retention-api';
import { LegalHoldDialog } from '@/features/admin/components/legal-hold-dialog';
import { SurgeryVideoDeleteDialog } from '@/features/admin/components/surgery-video-delete-dialog';
import { ReadOnlyNotice } from '@/features/admin/components/read-only-notice';
import { SurgeryVideoFilters } from '@/features/admin/components/surgery-video-filters';
import { ListPagination, ListStates, pageCount } from '@/components/list-states';

const oneOf = <T extends string>(value: string | null, allowed: readonly T[]): T | undefined =>
  value && (allowed as readonly string[]).includes(value) ? (value as T) : undefined;

/** The list's state lives in the address (`?status=pending_preparation`), so the dashboard's links open it filtered. */
function useParams(): [SurgeryVideoParams, (changes: Partial<SurgeryVideoParams>) => void] {
  const [search, setSearch] = useUrlSearch();
  const params = useMemo<SurgeryVideoParams>(() => {
    const page = Number(search.get('page'));
    const q = search.get('q')?.trim();
    return {
      status: oneOf<VideoStatus>(search.get('status'), VIDEO_STATUSES),
      mediaStatus: oneOf<MediaStatus>(search.get('mediaStatus'), MEDIA_STATUSES),
      // `__` and `==` separate the API's filters: a search never carries them.
      search: q ? q.replace(/_{2,}|={2,}/g, ' ').slice(0, 100) : undefined,
      oldest: search.get('sort') === 'oldest',
      page: Number.isInteger(page) && page > 0 ? page : 1,
    };
  }, [search]);
  const update = useCallback(
    (changes: Partial<SurgeryVideoParams>) => {
      setSearch(
        (current) => {
          const next = new URLSearchParams(current);
          const set = (key: string, value: string | undefined) => (value ? next.set(key, value) : next.delete(key));
          if ('status' in changes) set('status', changes.status);
          if ('mediaStatus' in changes) set('mediaStatus', changes.mediaStatus);
          if ('search' in changes) set('q', changes.search);
          if ('oldest' in changes) set('sort', changes.oldest ? 'oldest' : undefined);
          // Another filter starts again from the first page.
          set('page', changes.page && changes.page > 1 ? String(changes.page) : undefined);
          return next;
        },
        { replace: true },
      );
    },
    [setSearch],
  );
  return [params, update];
}

/**
 * `/admin/surgery-videos`: every case of every learner, newest first, with who holds it and until
 * when. Administrators may end a claim, watch a case, delete it; copil reads the list.
 */
export function SurgeryVideosPage() {
  const { t } = useTranslation(['surgery-videos', 'errors']);
  const { session } = useSession();
  const canWrite = mayAdminWrite(session?.roles ?? []);
  const toast = useToast();
  const [params, update] = useParams();
  const list = useSurgeryVideos(params);
  const release = useReleaseClaim();
  const remove = useDeleteSurgeryVideo();
  const releaseHold = useReleaseHold();
  const [deleting, setDeleting] = useState<AdminVideo | null>(null);
  const [holding, setHolding] = useState<AdminVideo | null>(null);
  const lang = currentLanguage();

  const caseName = (video: AdminVideo) =>
    t('caseName', {
      surgery: video.surgery?.name ?? t('noSurgery'),
      author: `${video.author.firstName} ${video.author.lastName}`,
      date: formatDateTime(video.createdAt, lang),
    });

  const releaseFlight = useSingleFlight(async (video: AdminVideo) => {
    try {
      await release.mutateAsync(video.id);
      toast('success', t('release.done'));
    } catch (error) {
      // Ended meanwhile (the lease ran out, someone submitted): the list shows it as it now is.
      toast(error instanceof ApiRequestError && error.code === 'CLAIM_NOT_HELD' ? 'info' : 'error', errorText(error));
    }
  });
  const deleteFlight = useSingleFlight(async (video: AdminVideo) => {
    try {
      await remove.mutateAsync(video.id);
      toast('success', t('delete.done'));
    } catch (error) {
      if (!(error instanceof ApiRequestError && error.code === 'NOT_FOUND')) {
        toast('error', errorText(error));
        return;
      }
    }
    setDeleting(null);
  });

  const releaseHoldFlight = useSingleFlight(async (video: AdminVideo) => {
    try {
      await releaseHold.mutateAsync(video.id);
      toast('success', t('legalHold.released'));
    } catch (error) {
      // Released meanwhile: the list shows it as it now is.
      toast(error instanceof ApiRequestError && error.code === 'NOT_FOUND' ? 'info' : 'error', errorText(error));
    }
  });

  const pages = pageCount(list.data?.total, SURGERY_VIDEO_PAGE_SIZE);
  const busy = releaseFlight.pending || deleteFlight.pending || releaseHoldFlight.pending;

  return (
    <Box sx={{ maxWidth: 1400, mx: 'auto', width: '100%' }}>
      <ReadOnlyNotice />
      <Box sx={{ mb: 2 }}>
        <SurgeryVideoFilters params={params} onChange={update} />
      </Box>
      <ListStates
        query={list}
        retry={t('retry')}
        loading={{ label: t('loading'), count: 6, height: 48, sx: { display: 'flex', flexDirection: 'column', gap: 1 } }}
        empty={
          <Paper variant="outlined" sx={{ p: 3, textAlign: 'center' }} data-testid="surgery-videos-empty">
            <Typography>{t('empty')}</Typography>
          </Paper>
        }
      >
        {(result) => (
          <>
            <Typography role="status" variant="body2" sx={{ color: 'text.secondary', mb: 1 }} data-testid="surgery-videos-count">
              {t('count', { count: result.total })}
            </Typography>
            {/* At 390 px the table scrolls sideways inside its frame; the page itself never does. */}
            <Paper
              variant="outlined"
              sx={{ overflowX: 'auto', opacity: list.isPlaceholderData ? 0.6 : 1 }}
              aria-busy={list.isFetching}
              // Scrolled sideways on a phone: the keyboard reaches it too (WCAG 2.1.1).
              tabIndex={0}
              role="region"
              aria-label={t('menu:surgeryVideos')}
            >
              <Box
                component="table"
                data-testid="surgery-videos-table"
                sx={{
                  borderCollapse: 'collapse',
                  width: '100%',
                  minWidth: 960,
                  fontSize: 14,
                  '& th, & td': { py: 1, px: 1.5, borderBottom: 1, borderColor: 'divider', textAlign: 'left', verticalAlign: 'middle' },
                  '& thead th': { fontWeight: 700, whiteSpace: 'nowrap', bgcolor: 'action.hover' },
                  '& tbody tr:last-of-type > *': { borderBottom: 0 },
                }}
              >
                <Box component="caption" sx={visuallyHidden}>
                  {t('caption')}
                </Box>
                <thead>
                  <tr>
                    <th scope="col">{t('columns.author')}</th>
                    <th scope="col">{t('columns.surgery')}</th>
                    <th scope="col">{t('columns.organ')}</th>
                    <th scope="col">{t('columns.status')}</th>
                    <th scope="col">{t('columns.mediaStatus')}</th>
                    <th scope="col">{t('columns.uploaded')}</th>
                    <th scope="col">{t('columns.claim')}</th>
                    {canWrite && <th scope="col">{t('columns.actions')}</th>}
                  </tr>
                </thead>
                <tbody>
                  {result.data.map((video) => (
                    <tr
                      key={video.id}
                      data-testid="surgery-video-row"
                      data-video-id={video.id}
                      data-status={video.status}
                      data-legal-hold={video.legalHold ? 'held' : undefined}
                    >
                      <Box component="th" scope="row" sx={{ fontWeight: 600 }}>
                        {video.author.firstName} {video.author.lastName}
                      </Box>
                      <td>{video.surgery?.name ?? t('noSurgery')}</td>
                      <td>{video.organ ? <OrganLabel organ={video.organ} /> : t('none')}</td>
                      <td>
                        <Chip size="small" label={t(`status.${video.status}`)} data-testid="surgery-video-status" />
                        {video.legalHold && (
                          <Box data-testid="surgery-video-legal-hold" sx={{ mt: 0.5, maxWidth: 260 }}>
                            <Chip
                              size="small"
                              color="warning"
                              variant="outlined"
                              icon={<GavelOutlined aria-hidden />}
                              label={t('legalHold.held')}
                            />
                            <Box
                              component="span"
                              sx={{ display: 'block', color: 'text.secondary', fontSize: 13, mt: 0.25, overflowWrap: 'anywhere' }}
                            >
                              {t('legalHold.since', { date: formatDateTime(video.legalHold.heldAt, lang), reason: video.legalHold.reason })}
                            </Box>
                          </Box>
                        )}
                      </td>
                      <td>
                        <Chip
                          size="small"
                          variant="outlined"
                          color={video.mediaStatus === 'failed' ? 'error' : 'default'}
                          label={t(`mediaStatus.${video.mediaStatus}`)}
                        />
                      </td>
                      <Box component="td" sx={{ whiteSpace: 'nowrap' }}>
                        <time dateTime={video.createdAt}>{formatDateTime(video.createdAt, lang)}</time>
                      </Box>
                      <td data-testid="surgery-video-claim">
                        {video.claim ? (
                          <>
                            <Box component="span" sx={{ display: 'block', fontWeight: 600 }}>
                              {video.claim.holder
                                ? `${video.claim.holder.firstName} ${video.claim.holder.lastName}`
                                : t('claim.unknownHolder')}
                            </Box>
                            <Box component="span" sx={{ color: 'text.secondary' }}>
                              {t(new Date(video.claim.leaseEndsAt) > new Date() ? 'claim.until' : 'claim.expired', {
                                date: formatDateTime(video.claim.leaseEndsAt, lang),
                              })}
                            </Box>
                          </>
                        ) : (
                          t('claim.none')
                        )}
                      </td>
                      {canWrite && (
                        <td>
                          <Box
                            sx={{
                              display: 'flex',
                              flexDirection: 'column',
                              alignItems: 'flex-start',
                              gap: 0.5,
                              '& .MuiButton-root': { whiteSpace: 'nowrap' },
                            }}
                          >
                            {video.kind === 'video' || video.kind === 'pictures' ? (
                              <Button
                                size="small"
                                component={RouterLink}
                                to={`/videos/${video.id}`}
                                startIcon={<PlayCircleOutlined aria-hidden />}
                                aria-label={t('actions.viewNamed', { name: caseName(video) })}
                                data-testid="surgery-video-view"
                              >
                                {t('actions.view')}
                              </Button>
                            ) : null}
                            {video.claim && (
                              <PendingButton
                                size="small"
                                variant="outlined"
                                pending={releaseFlight.pending}
                                disabled={busy}
                                icon={<LockOpenOutlined aria-hidden />}
                                onClick={() => void releaseFlight.run(video)}
                                aria-label={t('actions.releaseNamed', { name: caseName(video) })}
                                data-testid="surgery-video-release"
                              >
                                {t('actions.release')}
                              </PendingButton>
                            )}
                            {video.legalHold ? (
                              <PendingButton
                                size="small"
                                variant="outlined"
                                pending={releaseHoldFlight.pending}
                                disabled={busy}
                                icon={<LockOpenOutlined aria-hidden />}
                                onClick={() => void releaseHoldFlight.run(video)}
                                aria-label={t('legalHold.releaseNamed', { name: caseName(video) })}
                                data-testid="surgery-video-hold-release"
                              >
                                {t('legalHold.release')}
                              </PendingButton>
                            ) : (
                              <Button
                                size="small"
                                disabled={busy}
                                startIcon={<GavelOutlined aria-hidden />}
                                onClick={() => setHolding(video)}
                                aria-label={t('legalHold.placeNamed', { name: caseName(video) })}
                                data-testid="surgery-video-hold"
                              >
                                {t('legalHold.place')}
                              </Button>
                            )}
                            <Button
                              size="small"
                              color="error"
                              disabled={busy}
                              startIcon={<DeleteForeverOutlined aria-hidden />}
                              onClick={() => setDeleting(video)}
                              aria-label={t('actions.deleteNamed', { name: caseName(video) })}
                              data-testid="surgery-video-delete"
                            >
                              {t('actions.delete')}
                            </Button>
                          </Box>
                        </td>
                      )}
                    </tr>
                  ))}
                </tbody>
              </Box>
            </Paper>
            <ListPagination
              pages={pages}
              page={params.page}
              onChange={(page) => update({ page })}
              labels="surgery-videos:pagination"
              mt={3}
            />
          </>
        )}
      </ListStates>
      {holding && <LegalHoldDialog videoId={holding.id} caseName={caseName(holding)} onClose={() => setHolding(null)} />}
      {deleting && (
        <SurgeryVideoDeleteDialog
          caseName={caseName(deleting)}
          pending={deleteFlight.pending}
          onConfirm={() => void deleteFlight.run(deleting)}
          onClose={() => setDeleting(null)}
        />
      )}
    </Box>
  );
}
