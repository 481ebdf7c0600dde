import { and, asc, count, eq, inArray, isNotNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { errorMessage, formatBytes, isErrorCode } from '@sutura/domain/errors';
import type { Language } from '@sutura/domain/i18n';
import type { ListQuery } from '@sutura/domain/query';
import type { Role } from '@sutura/domain/roles';
import {
  nasaTlxRawScore,
  VIDEO_SOCKET_EVENTS,
  VIDEO_TABS,
  type createVideoBody,
  type MediaStatus,
  type updateVideoBody,
  type VideoDetail,
  type VideoFields,
  type VideoKind,
  type VideoProgressEvent,
  type VideoStatus,
  type VideoSummary,
} from '@sutura/domain/videos';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { UPLOADS_PREFIX } from '../../storage/storage.ts';
import type { UploadStore } from '../../storage/uploads.ts';
import {
  auditLog,
  media,
  organs,
  surgeries,
  surgerySteps,
  users,
  videoPictures,
  videoShares,
  videoSteps,
  videos,
} from '../../db/schema.ts';
import type { RequestUser } from '../../http/access.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { Queue } from '../../jobs/queue.ts';
import type { Storage } from '../../storage/storage.ts';
import type { Audit } from '../audit/audit.service.ts';
import type { MediaService } from '../media/media.service.ts';
import { aboutCase, type NotificationService, type RealtimeHub } from '../notifications/notifications.service.ts';
import type { DashboardEvents } from '../dashboard/dashboard.events.ts';
import { listConditions, listOrder, pictureCount, sharedWith } from './videos.queries.ts';

export type VideoRow = typeof videos.$inferSelect;
type CreateVideoBody = z.output<typeof createVideoBody>;
type UpdateVideoBody = z.output<typeof updateVideoBody>;

/** How the caller relates to a video: the web shows only the actions this allows. */
type VideoAccess = VideoSummary['access'];

/** The fields of a case, as columns of the same names. */
const FIELD_KEYS = [
  'surgeryId',
  'organId',
  'keyStepIds',
  'equipmentBrand',
  'equipmentUsed',
  'ageRange',
  'patientSex',
  'bmi',
  'complication',
  'surgicalHistory',
  'radiationHistory',
  'medicalBackground',
  'mainHand',
  'surgeryDuration',
  'messageToProctor',
  'nasaTlx',
] as const satisfies readonly (keyof VideoFields & keyof VideoRow)[];

const localName = (row: { nameFr: string; nameEn: string }, lang: Language) => (lang === 'fr' ? row.nameFr : row.nameEn);
const bothNames = (row: { nameFr: string; nameEn: string } | undefined) =>
  row ? { fr: row.nameFr, en: row.nameEn } : { fr: 'chirurgie', en: 'surgery' };

/** The storage prefix of tus uploads; `videos.source_key` is a storage key (`uploads/<id>` until processed). */
export const UPLOADS_DIR = UPLOADS_PREFIX;

/** The uploaded bytes of a video (its tus upload, finished or not), wherever the upload stands. */
export async function removeUploadFilesOf(
  stores: { storage: Storage; uploads: UploadStore },
  row: Pick<VideoRow, 'uploadId' | 'sourceKey'>,
): Promise<void> {
  if (row.uploadId) await stores.uploads.remove(row.uploadId);
  if (row.sourceKey?.startsWith(`${UPLOADS_PREFIX}/`)) {
    const id = row.sourceKey.slice(UPLOADS_PREFIX.length + 1);
    if (id !== row.uploadId) await stores.uploads.remove(id);
    await stores.storage.delete(row.sourceKey);
  }
}

/** Per-person limits on what waits for, or takes, storage (README, configuration). */
export interface StorageQuotas {
  casesWaitingForFile: number;
  bytesInFlight: number;
  totalBytes: number;
}

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
}) {
  const { db, storage, mediaService, notifications, audit, queue, hub, clock } = deps;

  async function accessOf(row: VideoRow, viewer: RequestUser): Promise<VideoAccess | null> {
    if (row.authorId === viewer.id) return 'author';
    if (viewer.roles.includes('administrator')) return 'admin';
    const [share] = await db
      .select({ userId: videoShares.userId })
      .from(videoShares)
      .where(and(eq(videoShares.videoId, row.id), eq(videoShares.userId, viewer.id)));
    return share ? 'shared' : null;
  }

  /**
   * The video when the caller may do this with it; 404 otherwise, whether it exists or not, so
   * that nobody learns about someone else's case (a shared person who tries to write included).
   */
  async function load(videoId: string, viewer: RequestUser, allowed: readonly VideoAccess[]) {
    const [row] = await db.select().from(videos).where(eq(videos.id, videoId));
    // A best case's own video is no case: the best cases' routes manage it (modules/best-cases).
    const access = row && row.purpose === 'case' ? await accessOf(row, viewer) : null;
    if (!row || !access || !allowed.includes(access)) throw notFound();
    return { row, access };
  }

  async function surgeryNames(surgeryId: string | null) {
    if (!surgeryId) return bothNames(undefined);
    const [row] = await db
      .select({ nameFr: surgeries.nameFr, nameEn: surgeries.nameEn })
      .from(surgeries)
      .where(eq(surgeries.id, surgeryId));
    return bothNames(row);
  }

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

  async function uploadedBytesOf(row: VideoRow): Promise<number | null> {
    if (row.mediaStatus !== 'uploading' || !row.uploadId) return null;
    return (await deps.uploads.offset(row.uploadId)) ?? 0;
  }

  function summaryOf(
    row: VideoRow,
    extra: {
      author: { firstName: string; lastName: string };
      surgery: { id: string; nameFr: string; nameEn: string } | null;
      organ: { id: string; nameFr: string; nameEn: string; icon: string } | null;
      pictureCount: number;
      keySteps: { id: string; nameFr: string; nameEn: string }[];
      access: VideoAccess;
    },
    viewerId: string,
    lang: Language,
  ): VideoSummary {
    return {
      id: row.id,
      kind: row.kind as VideoKind,
      status: row.status as VideoStatus,
      mediaStatus: row.mediaStatus as MediaStatus,
      processingProgress: row.processingProgress,
      failureReason: row.failureReason,
      failureMessage: isErrorCode(row.failureReason) ? errorMessage(row.failureReason, lang) : null,
      authorId: row.authorId,
      author: extra.author,
      surgery: extra.surgery ? { id: extra.surgery.id, name: localName(extra.surgery, lang) } : null,
      organ: extra.organ ? { id: extra.organ.id, name: localName(extra.organ, lang), icon: extra.organ.icon } : null,
      favourite: row.favourite,
      priority: row.priority,
      duration: row.duration,
      posterUrl: mediaService.urlFor(row.posterMediaId, viewerId),
      pictureCount: extra.pictureCount,
      keySteps: extra.keySteps.map((s) => ({ id: s.id, name: localName(s, lang) })),
      createdAt: row.createdAt.toISOString(),
      sentAt: row.sentAt?.toISOString() ?? null,
      access: extra.access,
    };
  }

  /** A video with its author's name, surgery and organ: one query, for lists and details alike. */
  function selectWithNames<T extends SelectedFields>(extra: T) {
    return db
      .select({
        video: videos,
        authorFirstName: users.firstName,
        authorLastName: users.lastName,
        surgery: { id: surgeries.id, nameFr: surgeries.nameFr, nameEn: surgeries.nameEn },
        organ: { id: organs.id, nameFr: organs.nameFr, nameEn: organs.nameEn, icon: organs.icon },
        ...extra,
      })
      .from(videos)
      .innerJoin(users, eq(users.id, videos.authorId))
      .leftJoin(surgeries, eq(surgeries.id, videos.surgeryId))
      .leftJoin(organs, eq(organs.id, videos.organId));
  }
  type Names = {
    author: { firstName: string; lastName: string };
    surgery: { id: string; nameFr: string; nameEn: string } | null;
    organ: { id: string; nameFr: string; nameEn: string; icon: string } | null;
  };
  const namesOf = (r: { authorFirstName: string; authorLastName: string; surgery: Names['surgery']; organ: Names['organ'] }): Names => ({
    author: { firstName: r.authorFirstName, lastName: r.authorLastName },
    surgery: r.surgery,
    organ: r.organ,
  });

  // What every detail reads: built once, named statements on every connection.
  const videoWithAccess = selectWithNames({ shared: sharedWith(sql.placeholder('viewerId')) })
    .where(eq(videos.id, sql.placeholder('videoId')))
    .prepare('video_detail');
  const picturesOf = db
    .select({ id: videoPictures.id, mediaId: videoPictures.mediaId, width: media.width, height: media.height })
    .from(videoPictures)
    .innerJoin(media, eq(media.id, videoPictures.mediaId))
    .where(eq(videoPictures.videoId, sql.placeholder('videoId')))
    .orderBy(asc(videoPictures.position), asc(videoPictures.createdAt))
    .prepare('video_pictures');
  const sharesOf = db
    .select({
      userId: videoShares.userId,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      createdAt: videoShares.createdAt,
    })
    .from(videoShares)
    .innerJoin(users, eq(users.id, videoShares.userId))
    .where(eq(videoShares.videoId, sql.placeholder('videoId')))
    .orderBy(asc(videoShares.createdAt))
    .prepare('video_shares');

  function listQueries(where: SQL, order: SQL[]) {
    return {
      rows: selectWithNames({ pictureCount })
        .where(where)
        .orderBy(...order),
      total: db.select({ total: count() }).from(videos).where(where),
    };
  }

  function adHocList(viewer: RequestUser, query: ListQuery, lang: Language) {
    const { rows, total } = listQueries(listConditions(query.filter, viewer), listOrder(query.sort, lang));
    return Promise.all([rows.limit(query.limit).offset((query.page - 1) * query.limit), total]);
  }

  /**
   * The lists the app shows most (a tab of the caller's own videos, newest first, no other filter)
   * as statements built once per tab: the query building and planning of a big select are then
   * paid once, not at every page.
   */
  const preparedLists = new Map<string, ReturnType<typeof prepareList>>();
  function prepareList(tab: string | undefined) {
    const viewerId = sql.placeholder('viewerId');
    const filter: Record<string, string> = tab === undefined ? {} : { tab };
    // The viewer only serves the role check of the `all` tab, which never comes here.
    const where = listConditions(
      filter,
      { id: '', sessionId: '', roles: [], preferences: undefined as never, sessionEndsAt: new Date(0) },
      viewerId,
    );
    const { rows, total } = listQueries(where, listOrder([], 'fr'));
    return {
      rows: rows
        .limit(sql.placeholder('limit'))
        .offset(sql.placeholder('offset'))
        .prepare(`video_list_${tab ?? 'any'}`),
      total: total.prepare(`video_count_${tab ?? 'any'}`),
    };
  }
  function preparedList(query: ListQuery) {
    const tab = query.filter.tab;
    const keys = Object.keys(query.filter);
    if (
      query.sort.length ||
      keys.some((k) => k !== 'tab') ||
      (tab !== undefined && !(VIDEO_TABS as readonly string[]).includes(tab)) ||
      tab === 'all'
    )
      return undefined;
    let prepared = preparedLists.get(tab ?? '');
    if (!prepared) preparedLists.set(tab ?? '', (prepared = prepareList(tab)));
    return (viewerId: string) =>
      Promise.all([
        prepared.rows.execute({ viewerId, limit: query.limit, offset: (query.page - 1) * query.limit }),
        prepared.total.execute({ viewerId }),
      ]);
  }

  async function detailOf(row: VideoRow, access: VideoAccess, viewerId: string, lang: Language, known?: Names): Promise<VideoDetail> {
    // Independent reads, sent together rather than one after the other.
    const [names, steps, pictures, shares, uploaded] = await Promise.all([
      known ??
        selectWithNames({})
          .where(eq(videos.id, row.id))
          .then(([r]): Names => (r ? namesOf(r) : { author: { firstName: '', lastName: '' }, surgery: null, organ: null })),
      row.keyStepIds.length
        ? db.select().from(surgerySteps).where(inArray(surgerySteps.id, row.keyStepIds)).orderBy(asc(surgerySteps.position))
        : [],
      picturesOf.execute({ videoId: row.id }),
      access === 'shared' ? [] : sharesOf.execute({ videoId: row.id }),
      uploadedBytesOf(row),
    ]);

    const renderedSteps = await db
      .select({ step: videoSteps, vocabulary: { nameFr: surgerySteps.nameFr, nameEn: surgerySteps.nameEn } })
      .from(videoSteps)
      .leftJoin(surgerySteps, eq(surgerySteps.id, videoSteps.surgeryStepId))
      .where(eq(videoSteps.videoId, row.id))
      .orderBy(asc(videoSteps.position));

    const fields: Partial<VideoFields> = {};
    for (const key of FIELD_KEYS) {
      const value = row[key];
      if (value !== null) Object.assign(fields, { [key]: value });
    }
    return {
      ...summaryOf(row, { ...names, pictureCount: pictures.length, keySteps: steps, access }, viewerId, lang),
      fields,
      nasaTlxRawScore: row.nasaTlx ? nasaTlxRawScore(row.nasaTlx) : null,
      videoUrl: mediaService.urlFor(row.videoMediaId, viewerId),
      width: row.width,
      height: row.height,
      frameRate: row.frameRate,
      storyboard: mediaService.storyboardFor(row.storyboard, viewerId),
      pictures: pictures.map((p) => ({ ...p, url: mediaService.urlFor(p.mediaId, viewerId)! })),
      shares: shares.map((s) => ({ ...s, createdAt: s.createdAt.toISOString() })),
      uploadedBytes: uploaded,
      sourceSize: row.sourceSize,
      sourceUrl: access === 'author' ? mediaService.urlFor(row.sourceMediaId, viewerId) : null,
      steps: renderedSteps.map(({ step, vocabulary }) => ({
        id: step.id,
        position: step.position,
        surgeryStepId: step.surgeryStepId,
        name: vocabulary ? localName(vocabulary, lang) : step.name,
        start: step.start,
        end: step.end,
      })),
      upload:
        access === 'author' && row.uploadId && uploaded !== null && row.sourceSize !== null
          ? { id: row.uploadId, offset: uploaded, size: row.sourceSize, fingerprint: row.uploadFingerprint }
          : null,
    };
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

  function pushProgress(row: Pick<VideoRow, 'id' | 'authorId'>, mediaStatus: MediaStatus, progress: number) {
    const payload: VideoProgressEvent = { videoId: row.id, mediaStatus, progress };
    hub.emitToUser(row.authorId, VIDEO_SOCKET_EVENTS.progress, payload);
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

    async list(viewer: RequestUser, query: ListQuery, lang: Language) {
      const [rows, [total]] = await (preparedList(query)?.(viewer.id) ?? adHocList(viewer, query, lang));
      const stepIds = [...new Set(rows.flatMap((r) => r.video.keyStepIds))];
      const steps = stepIds.length
        ? await db
            .select({ id: surgerySteps.id, nameFr: surgerySteps.nameFr, nameEn: surgerySteps.nameEn })
            .from(surgerySteps)
            .where(inArray(surgerySteps.id, stepIds))
            .orderBy(asc(surgerySteps.position))
        : [];
      const isAdmin = viewer.roles.includes('administrator');
      return {
        data: rows.map((r) =>
          summaryOf(
            r.video,
            {
              ...namesOf(r),
              pictureCount: Number(r.pictureCount),
              keySteps: steps.filter((s) => r.video.keyStepIds.includes(s.id)),
              access: r.video.authorId === viewer.id ? 'author' : isAdmin ? 'admin' : 'shared',
            },
            viewer.id,
            lang,
          ),
        ),
        total: total?.total ?? 0,
        page: query.page,
        limit: query.limit,
      };
    },

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

    /** A picture of a case, added by its author while the case is saved. */
    async addPicture(viewer: RequestUser, videoId: string, bytes: Buffer, ip: string | null = null) {
      const { row } = await load(videoId, viewer, ['author']);
      if (row.status !== 'saved') throw new AppError('VIDEO_NOT_EDITABLE');
      const stored = await mediaService.storePicture(viewer.id, row.id, bytes);
      const [position] = await db.select({ n: count() }).from(videoPictures).where(eq(videoPictures.videoId, row.id));
      await db.insert(videoPictures).values({ videoId: row.id, mediaId: stored.id, position: position?.n ?? 0, createdAt: clock() });
      await audit(viewer.id, 'video.picture_added', 'video', row.id, ip, { mediaId: stored.id });
      return { id: stored.id, url: mediaService.urlFor(stored.id, viewer.id)!, kind: stored.kind };
    },

    /** By the picture's id in the detail, or by its media id (what the upload answered). */
    async removePicture(
      viewer: RequestUser,
      videoId: string,
      pictureId: string,
      lang: Language,
      ip: string | null = null,
    ): Promise<VideoDetail> {
      const { row } = await load(videoId, viewer, ['author']);
      if (row.status !== 'saved') throw new AppError('VIDEO_NOT_EDITABLE');
      const [picture] = await db
        .select()
        .from(videoPictures)
        .where(and(eq(videoPictures.videoId, row.id), or(eq(videoPictures.id, pictureId), eq(videoPictures.mediaId, pictureId))));
      if (!picture) throw notFound();
      // The media row cascades to the picture row; the file goes with it.
      await mediaService.remove(picture.mediaId);
      await audit(viewer.id, 'video.picture_removed', 'video', row.id, ip, { mediaId: picture.mediaId });
      return detailOf(row, 'author', viewer.id, lang);
    },

    // ---- The tus side (tus.ts): who may upload, and what a finished upload starts.

    /** The caller's video that may receive a file now; 404, 400 or 409 otherwise. */
    async uploadTarget(viewer: RequestUser, videoId: string): Promise<VideoRow> {
      const [bestCase] = await db
        .select()
        .from(videos)
        .where(and(eq(videos.id, videoId), eq(videos.purpose, 'best_case'), eq(videos.authorId, viewer.id)));
      // A best case's video: only the administrator who created it sends its file.
      const { row } = bestCase && viewer.roles.includes('administrator') ? { row: bestCase } : await load(videoId, viewer, ['author']);
      if (row.kind !== 'video') throw new AppError('VALIDATION', {}, [{ path: 'videoId', code: 'INVALID_VALUE' }]);
      // A failed file may be replaced; one being processed or ready may not.
      if (row.status !== 'saved' || (row.mediaStatus !== 'uploading' && row.mediaStatus !== 'failed')) {
        throw new AppError('VIDEO_ALREADY_UPLOADED');
      }
      return row;
    },

    /**
     * Records a new upload on the video, atomically: false when the video changed meanwhile.
     * The upload it replaces (an abandoned one, or a failed file) is deleted.
     */
    async claimUpload(
      viewerId: string,
      videoId: string,
      uploadId: string,
      size: number,
      fingerprint: string | null,
      lang: Language,
    ): Promise<boolean> {
      const before = await db.transaction(async (tx) => {
        // The person's row is locked: two uploads created at once are counted one after the other.
        await tx.select({ id: users.id }).from(users).where(eq(users.id, viewerId)).for('update');
        const [inFlight] = await tx
          .select({ bytes: sql<string>`coalesce(sum(${videos.sourceSize}), 0)` })
          .from(videos)
          .where(
            and(eq(videos.authorId, viewerId), eq(videos.mediaStatus, 'uploading'), isNotNull(videos.uploadId), ne(videos.id, videoId)),
          );
        const flying = Number(inFlight?.bytes ?? 0);
        if (flying + size > deps.quotas.bytesInFlight)
          throw new AppError('QUOTA_UPLOADS_IN_FLIGHT', { max: formatBytes(deps.quotas.bytesInFlight, lang) });
        const [stored] = await tx
          .select({ bytes: sql<string>`coalesce(sum(${media.size}), 0)` })
          .from(media)
          .where(eq(media.ownerId, viewerId));
        if (Number(stored?.bytes ?? 0) + flying + size > deps.quotas.totalBytes)
          throw new AppError('QUOTA_STORAGE', { max: formatBytes(deps.quotas.totalBytes, lang) });
        const [current] = await tx.select().from(videos).where(eq(videos.id, videoId)).for('update');
        const [claimed] = await tx
          .update(videos)
          .set({
            uploadId,
            uploadWarnedAt: null,
            uploadFingerprint: fingerprint,
            sourceSize: size,
            sourceKey: null,
            mediaStatus: 'uploading',
            failureReason: null,
            processingProgress: 0,
            updatedAt: clock(),
          })
          .where(
            and(
              eq(videos.id, videoId),
              eq(videos.authorId, viewerId),
              eq(videos.kind, 'video'),
              eq(videos.status, 'saved'),
              inArray(videos.mediaStatus, ['uploading', 'failed']),
            ),
          )
          .returning({ id: videos.id });
        return claimed ? current : null;
      });
      if (!before) return false;
      await removeUploadFiles(before);
      return true;
    },

    /** The video an upload belongs to, when the caller is the one who created it. */
    async uploadOf(uploadId: string, viewerId: string): Promise<VideoRow | undefined> {
      const [row] = await db
        .select()
        .from(videos)
        .where(and(eq(videos.uploadId, uploadId), eq(videos.authorId, viewerId)));
      return row;
    },

    /** The upload was terminated by its author: the video waits for a new one. */
    async uploadTerminated(uploadId: string): Promise<void> {
      await db
        .update(videos)
        .set({ uploadId: null, uploadFingerprint: null, updatedAt: clock() })
        .where(and(eq(videos.uploadId, uploadId), eq(videos.mediaStatus, 'uploading')));
    },

    /**
     * Every byte is there: the source is recorded, the author told, the pipeline queued. Runs
     * once per upload even when the client repeats its last request.
     */
    async uploadFinished(uploadId: string, size: number): Promise<void> {
      // The status and the pipeline's job in one transaction: a crash between the two cannot
      // leave a video processing with nothing queued; when it rolls back the video is still
      // uploading, and the client's retry of its last request finishes it again.
      const row = await db.transaction(async (tx) => {
        const [changed] = await tx
          .update(videos)
          .set({
            sourceKey: `${UPLOADS_DIR}/${uploadId}`,
            sourceSize: size,
            mediaStatus: 'processing',
            processingProgress: 0,
            failureReason: null,
            updatedAt: clock(),
          })
          .where(and(eq(videos.uploadId, uploadId), eq(videos.mediaStatus, 'uploading')))
          .returning();
        if (changed) await queue.send('video.process', { videoId: changed.id }, { tx });
        return changed;
      });
      if (!row) return;
      await audit(row.authorId, 'video.uploaded', 'video', row.id, null, { size });
      pushProgress(row, 'processing', 0);
      await notifications.notify(row.authorId, 'videoUploaded', aboutCase(await surgeryNames(row.surgeryId), row), `/videos/${row.id}`);
    },
  };
}
export type VideoService = ReturnType<typeof createVideoService>;
