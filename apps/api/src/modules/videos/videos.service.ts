import { and, count, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { isErrorCode } from '@sutura/domain/errors';
import type { Language } from '@sutura/domain/i18n';
import type { Role } from '@sutura/domain/roles';
import { type createVideoBody, type updateVideoBody, type VideoDetail } from '@sutura/domain/videos';
import type { Db } from '../../db/client.ts';
import type { UploadStore } from '../../storage/uploads.ts';
import { auditLog, organs, surgeries, surgerySteps, users, videoShares, videos } from '../../db/schema.ts';
import type { RequestUser } from '../../http/access.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { Queue } from '../../jobs/queue.ts';
import type { Storage } from '../../storage/storage.ts';
import type { Audit } from '../audit/audit.service.ts';
import type { MediaService } from '../media/media.service.ts';
import { aboutCase, type NotificationService, type RealtimeHub } from '../notifications/notifications.service.ts';
import type { DashboardEvents } from '../dashboard/dashboard.events.ts';
import { createCaseViews, FIELD_KEYS, type VideoAccess, type VideoRow } from '../cases/case-views.ts';
import { surgeryNamesOf } from '../cases/names.ts';
import { removeUploadFilesOf, type StorageQuotas } from './upload-files.ts';
import { createVideoUploads, progressPusher } from './videos.uploads.ts';

export type { VideoRow } from '../cases/case-views.ts';
type CreateVideoBody = z.output<typeof createVideoBody>;
type UpdateVideoBody = z.output<typeof updateVideoBody>;

/** The pool a case in this status counts in (held ones count there once their lease runs out). */
function poolRolesOf(status: string): Role[] {
  if (status === 'pending_preparation' || status === 'in_preparation') return ['editor'];
  if (status === 'pending_analysis' || status === 'in_analysis') return ['expert'];
  return [];
}

export function createVideoService(deps: {
  db: Db;
  storage: Storage;
  mediaService: MediaService;
  notifications: NotificationService;
  audit: Audit;
  queue: Queue;
  hub: RealtimeHub;
  /** A case sent or deleted changes its author's dashboard, and a pool's. */
  dashboardEvents?: DashboardEvents;
  uploads: UploadStore;
  quotas: StorageQuotas;
  clock: () => Date;
  /** The next stage hears of a video the learner sent (the editors' pool). */
  onSent?: (videoId: string) => Promise<void>;
  /** The learner's learning curves are to be computed again (modules/programmes). */
  onOperationDayChanged?: (authorId: string) => void;
}) {
  const { db, storage, mediaService, notifications, audit, queue, hub, clock } = deps;

  const views = createCaseViews({ db, mediaService, uploads: deps.uploads });
  const { load, detailOf, namesOf, videoWithAccess } = views;
  const pushProgress = progressPusher(hub);
  const surgeryNames = (surgeryId: string | null) => surgeryNamesOf(db, surgeryId);

  /**
   * The surgery, organ and key steps must exist, and the steps belong to the surgery. A retired
   * term (docs/admin-catalog.md) is refused unless the case already had it.
   */
  async function checkReferences(
    fields: { surgeryId: string; organId?: string | null | undefined; keyStepIds: string[] },
    current?: Pick<VideoRow, 'surgeryId' | 'organId' | 'keyStepIds'>,
  ) {
    const details: { path: string; code: 'INVALID_VALUE' }[] = [];
    const [surgery] = await db.select({ retiredAt: surgeries.retiredAt }).from(surgeries).where(eq(surgeries.id, fields.surgeryId));
    if (!surgery || (surgery.retiredAt && current?.surgeryId !== fields.surgeryId))
      details.push({ path: 'surgeryId', code: 'INVALID_VALUE' });
    if (fields.organId) {
      const [organ] = await db.select({ retiredAt: organs.retiredAt }).from(organs).where(eq(organs.id, fields.organId));
      if (!organ || (organ.retiredAt && current?.organId !== fields.organId)) details.push({ path: 'organId', code: 'INVALID_VALUE' });
    }
    if (fields.keyStepIds.length) {
      const steps = await db
        .select({ id: surgerySteps.id, retiredAt: surgerySteps.retiredAt })
        .from(surgerySteps)
        .where(and(eq(surgerySteps.surgeryId, fields.surgeryId), inArray(surgerySteps.id, fields.keyStepIds)));
      const usable = steps.filter((s) => !s.retiredAt || current?.keyStepIds.includes(s.id));
      if (usable.length !== fields.keyStepIds.length) details.push({ path: 'keyStepIds', code: 'INVALID_VALUE' });
    }
    if (details.length) throw new AppError('VALIDATION', {}, details);
  }

  const removeUploadFiles = (row: Pick<VideoRow, 'uploadId' | 'sourceKey'>) => removeUploadFilesOf({ storage, uploads: deps.uploads }, row);

  /**
   * An administrator opens someone's case to moderate it: the log keeps that they saw it, once per
   * quarter of an hour (the page asks again as the case changes).
   */
  async function auditAdminView(adminId: string, video: Pick<VideoRow, 'id' | 'authorId'>) {
    const [recent] = await db
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(
        and(
          eq(auditLog.actorId, adminId),
          eq(auditLog.action, 'video.viewed_by_admin'),
          eq(auditLog.entityId, video.id),
          sql`${auditLog.createdAt} > now() - interval '15 minutes'`,
        ),
      )
      .limit(1);
    if (!recent) await audit(adminId, 'video.viewed_by_admin', 'video', video.id, null, { authorId: video.authorId });
  }

  return {
    async create(viewer: RequestUser, body: CreateVideoBody, ip: string, lang: Language): Promise<VideoDetail> {
      const { kind, ...fields } = body;
      if (kind === 'video') {
        // Each case announces an upload: a person cannot open cases faster than they send files.
        const [waiting] = await db
          .select({ n: count() })
          .from(videos)
          .where(and(eq(videos.authorId, viewer.id), eq(videos.kind, 'video'), eq(videos.mediaStatus, 'uploading')));
        if ((waiting?.n ?? 0) >= deps.quotas.casesWaitingForFile)
          throw new AppError('QUOTA_CASES_WAITING', { max: deps.quotas.casesWaitingForFile });
      }
      const keyStepIds = [...new Set(fields.keyStepIds)];
      await checkReferences({ ...fields, keyStepIds });
      const [row] = await db
        .insert(videos)
        .values({
          ...fields,
          keyStepIds,
          surgicalHistory: fields.surgicalHistory ?? null,
          authorId: viewer.id,
          kind,
          status: 'saved',
          // A pictures-only case has nothing to process: its pictures are checked one by one.
          mediaStatus: kind === 'pictures' ? 'ready' : 'uploading',
          createdAt: clock(),
          updatedAt: clock(),
        })
        .returning();
      await audit(viewer.id, 'video.created', 'video', row!.id, ip, { kind });
      return detailOf(row!, 'author', viewer.id, lang);
    },

    list: views.list,

    /** load() and detailOf()'s names in one query: who may see it comes with the row. */
    async detail(viewer: RequestUser, videoId: string, lang: Language): Promise<VideoDetail> {
      const [found] = await videoWithAccess.execute({ viewerId: viewer.id, videoId });
      const access: VideoAccess | null =
        !found || found.video.purpose !== 'case'
          ? null
          : found.video.authorId === viewer.id
            ? 'author'
            : viewer.roles.includes('administrator')
              ? 'admin'
              : found.shared
                ? 'shared'
                : null;
      if (!found || !access) throw notFound();
      if (access === 'admin') await auditAdminView(viewer.id, found.video);
      return detailOf(found.video, access, viewer.id, lang, namesOf(found));
    },

    /** Any field, only while the case has not been sent (VIDEO_NOT_EDITABLE after). */
    async update(
      viewer: RequestUser,
      videoId: string,
      body: UpdateVideoBody,
      lang: Language,
      ip: string | null = null,
    ): Promise<VideoDetail> {
      const { row } = await load(videoId, viewer, ['author']);
      if (row.status !== 'saved') throw new AppError('VIDEO_NOT_EDITABLE');
      const changes: Partial<typeof videos.$inferInsert> = {};
      for (const key of FIELD_KEYS) if (body[key] !== undefined) Object.assign(changes, { [key]: body[key] });
      // An emptied optional text arrives as undefined: its key says it was sent.
      if (Object.hasOwn(body, 'surgicalHistory') && body.surgicalHistory === undefined) changes.surgicalHistory = null;
      const surgeryId = changes.surgeryId ?? row.surgeryId;
      const organId = Object.hasOwn(body, 'organId') ? (changes.organId ?? null) : row.organId;
      if (Object.hasOwn(body, 'organId') && body.organId === null) changes.organId = null;
      let keyStepIds = changes.keyStepIds ? [...new Set(changes.keyStepIds)] : row.keyStepIds;
      if (!changes.keyStepIds && changes.surgeryId && changes.surgeryId !== row.surgeryId && keyStepIds.length) {
        // Another surgery: the steps of the former one no longer apply.
        const kept = await db
          .select({ id: surgerySteps.id })
          .from(surgerySteps)
          .where(and(eq(surgerySteps.surgeryId, changes.surgeryId), inArray(surgerySteps.id, keyStepIds)));
        keyStepIds = keyStepIds.filter((id) => kept.some((k) => k.id === id));
      }
      if (surgeryId) await checkReferences({ surgeryId, organId, keyStepIds }, row);
      const [updated] = await db
        .update(videos)
        .set({ ...changes, keyStepIds, updatedAt: clock() })
        .where(and(eq(videos.id, row.id), eq(videos.status, 'saved')))
        .returning();
      if (!updated) throw new AppError('VIDEO_NOT_EDITABLE');
      await audit(viewer.id, 'video.updated', 'video', row.id, ip, { fields: Object.keys(body) });
      return detailOf(updated, 'author', viewer.id, lang);
    },

    /**
     * Every file of the case (its storage prefix and the uploaded source), then the row. An
     * administrator deleting someone else's case is recorded as such and its author is told.
     */
    async remove(viewer: RequestUser, videoId: string, ip: string): Promise<void> {
      const { row, access } = await load(videoId, viewer, ['author', 'admin']);
      const surgery = access === 'admin' ? await surgeryNames(row.surgeryId) : null;
      // The row first: once it is gone nothing serves or processes these files any more.
      const [deleted] = await db.delete(videos).where(eq(videos.id, row.id)).returning({ id: videos.id });
      // Deleted meanwhile by another request: that one did the rest.
      if (!deleted) throw notFound();
      await storage.deletePrefix(`videos/${row.id}`);
      await removeUploadFiles(row);
      await audit(viewer.id, access === 'admin' ? 'video.deleted_by_admin' : 'video.deleted', 'video', row.id, ip, {
        authorId: row.authorId,
        status: row.status,
      });
      if (surgery) await notifications.notify(row.authorId, 'videoDeletedByAdmin', aboutCase(surgery, row), '/videos');
      deps.dashboardEvents?.changed({ users: [row.authorId, row.claimHolderId], roles: poolRolesOf(row.status) });
    },

    /**
     * Account deletion: every case of the person, with every file (the storage prefix of each —
     * playable file, poster, storyboard, pictures — and the tus upload, finished or not) and
     * every row that hangs on it (shares, pictures; the database cascades). Returns how many.
     */
    async removeAllOf(authorId: string): Promise<number> {
      const rows = await db
        .select({ id: videos.id, uploadId: videos.uploadId, sourceKey: videos.sourceKey })
        .from(videos)
        .where(eq(videos.authorId, authorId));
      // Rows first: once they are gone, nothing serves or processes these files any more.
      await db.delete(videos).where(eq(videos.authorId, authorId));
      for (const row of rows) {
        await storage.deletePrefix(`videos/${row.id}`);
        await removeUploadFiles(row);
      }
      return rows.length;
    },

    async send(viewer: RequestUser, videoId: string, priority: boolean, ip: string, lang: Language): Promise<VideoDetail> {
      const { row } = await load(videoId, viewer, ['author']);
      if (row.status !== 'saved') throw new AppError('VIDEO_NOT_EDITABLE');
      if (row.mediaStatus !== 'ready') throw new AppError('VIDEO_NOT_READY');
      const [sent] = await db
        .update(videos)
        .set({ status: 'pending_preparation', priority, sentAt: clock(), updatedAt: clock() })
        .where(and(eq(videos.id, row.id), eq(videos.status, 'saved'), eq(videos.mediaStatus, 'ready')))
        .returning();
      if (!sent) throw new AppError('VIDEO_NOT_EDITABLE');
      await audit(viewer.id, 'video.sent', 'video', row.id, ip, { priority });
      deps.dashboardEvents?.changed({ users: [row.authorId], roles: ['editor'] });
      await deps.onSent?.(row.id);
      return detailOf(sent, 'author', viewer.id, lang);
    },

    async setFavourite(
      viewer: RequestUser,
      videoId: string,
      favourite: boolean,
      lang: Language,
      ip: string | null = null,
    ): Promise<VideoDetail> {
      const { row } = await load(videoId, viewer, ['author']);
      const [updated] = await db.update(videos).set({ favourite }).where(eq(videos.id, row.id)).returning();
      if (row.favourite !== favourite) await audit(viewer.id, 'video.favourite_changed', 'video', row.id, ip, { favourite });
      return detailOf(updated!, 'author', viewer.id, lang);
    },

    /**
     * The day of the operation, at any stage of the case: it only orders the learner's learning
     * curves (docs/learning-curves.md), which the trigger on `videos` marks to be computed again.
     */
    async setOperationDay(
      viewer: RequestUser,
      videoId: string,
      operatedOn: string | null,
      lang: Language,
      ip: string | null = null,
    ): Promise<VideoDetail> {
      const { row } = await load(videoId, viewer, ['author']);
      const [updated] = await db.update(videos).set({ operatedOn, updatedAt: clock() }).where(eq(videos.id, row.id)).returning();
      if (!updated) throw notFound();
      if (row.operatedOn !== operatedOn) await audit(viewer.id, 'video.updated', 'video', row.id, ip, { fields: ['operatedOn'] });
      deps.onOperationDayChanged?.(row.authorId);
      return detailOf(updated, 'author', viewer.id, lang);
    },

    /** Read-only access for a colleague, found by email; they are told once. */
    async share(viewer: RequestUser, videoId: string, email: string, ip: string, lang: Language): Promise<VideoDetail> {
      const { row } = await load(videoId, viewer, ['author']);
      const [colleague] = await db.select({ id: users.id }).from(users).where(eq(users.email, email.trim().toLowerCase()));
      if (!colleague) throw new AppError('SHARE_USER_NOT_FOUND');
      if (colleague.id === viewer.id) throw new AppError('SHARE_SELF');
      const [added] = await db
        .insert(videoShares)
        .values({ videoId: row.id, userId: colleague.id, createdAt: clock() })
        .onConflictDoNothing()
        .returning();
      if (added) {
        await audit(viewer.id, 'video.shared', 'video', row.id, ip, { userId: colleague.id });
        const [author] = await db
          .select({ firstName: users.firstName, lastName: users.lastName })
          .from(users)
          .where(eq(users.id, row.authorId));
        await notifications.notify(
          colleague.id,
          'videoShared',
          { name: `${author?.firstName ?? ''} ${author?.lastName ?? ''}`.trim(), ...aboutCase(await surgeryNames(row.surgeryId), row) },
          `/videos/${row.id}/shared`,
        );
      }
      return detailOf(row, 'author', viewer.id, lang);
    },

    async revokeShare(viewer: RequestUser, videoId: string, userId: string, ip: string, lang: Language): Promise<VideoDetail> {
      const { row } = await load(videoId, viewer, ['author']);
      const [removed] = await db
        .delete(videoShares)
        .where(and(eq(videoShares.videoId, row.id), eq(videoShares.userId, userId)))
        .returning();
      if (!removed) throw notFound();
      await audit(viewer.id, 'video.share_revoked', 'video', row.id, ip, { userId });
      return detailOf(row, 'author', viewer.id, lang);
    },

    /** Queues the media pipeline again for a video whose processing failed with its source kept. */
    async retry(viewer: RequestUser, videoId: string, ip: string, lang: Language): Promise<VideoDetail> {
      const { row } = await load(videoId, viewer, ['author']);
      if (row.mediaStatus === 'ready') throw new AppError('VIDEO_ALREADY_UPLOADED');
      if (row.mediaStatus !== 'failed') throw new AppError('VIDEO_NOT_READY');
      const kept = row.sourceKey ? (await storage.size(row.sourceKey)) !== undefined : false;
      // Without its source (a refused file) a retry cannot help: the reason is the answer.
      if (!kept) throw new AppError(isErrorCode(row.failureReason) ? row.failureReason : 'MEDIA_PROCESSING_FAILED');
      // The status and the job in one transaction: either the video is processing with its job
      // queued, or it is still failed and the author can retry once more.
      const queued = await db.transaction(async (tx) => {
        const [changed] = await tx
          .update(videos)
          .set({ mediaStatus: 'processing', failureReason: null, processingProgress: 0, updatedAt: clock() })
          .where(and(eq(videos.id, row.id), eq(videos.mediaStatus, 'failed')))
          .returning();
        if (changed) await queue.send('video.process', { videoId: row.id }, { tx });
        return changed;
      });
      if (!queued) throw new AppError('VIDEO_NOT_READY');
      await audit(viewer.id, 'video.retry', 'video', row.id, ip);
      pushProgress(queued, 'processing', 0);
      return detailOf(queued, 'author', viewer.id, lang);
    },

    ...createVideoUploads({
      db,
      storage,
      mediaService,
      notifications,
      audit,
      queue,
      hub,
      uploads: deps.uploads,
      quotas: deps.quotas,
      clock,
      views,
    }),
  };
}
export type VideoService = ReturnType<typeof createVideoService>;
