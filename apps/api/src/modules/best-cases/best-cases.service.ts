import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import {
  CONSENTS_THAT_ALLOW_PUBLISHING,
  type AdminBestCase,
  type AdminBestCaseDetail,
  type BestCaseConsent,
  type BestCaseDetail,
  type BestCaseOrigin,
  type BestCaseRequest,
  type BestCaseStepsBody,
  type BestCaseSummary,
  type CreateBestCaseBody,
  type updateBestCaseBody,
} from '@sutura/domain/best-cases';
import type { BestCaseStepNotesBody, ComparisonSide } from '@sutura/domain/comparison';
import type { Language } from '@sutura/domain/i18n';
import type { ListQuery } from '@sutura/domain/query';
import type { MediaStatus, VideoStep } from '@sutura/domain/videos';
import type { Db } from '../../db/client.ts';
import { bestCaseDrawings, bestCaseStepNotes, bestCases, organs, surgeries, surgerySteps, videoSteps, videos } from '../../db/schema.ts';
import type { RequestUser } from '../../http/access.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { Storage } from '../../storage/storage.ts';
import type { Audit } from '../audit/audit.service.ts';
import type { MediaService } from '../media/media.service.ts';
import { aboutCase, type NotificationService } from '../notifications/notifications.service.ts';
import type { UploadStore } from '../../storage/uploads.ts';
import { removeUploadFilesOf } from '../videos/upload-files.ts';
import { createCaseReads } from '../cases/case-read.ts';
import { localName, surgeryNamesOf } from '../cases/names.ts';

type UpdateBestCaseBody = z.output<typeof updateBestCaseBody>;
type BestCaseRow = typeof bestCases.$inferSelect;

const uuid = z.uuid();
const invalid = (path: string) => new AppError('VALIDATION', {}, [{ path, code: 'INVALID_VALUE' }]);

/** What learners, editors and experts may see: published, consented (or not needing it) and playable. */
const visible = and(
  eq(bestCases.published, true),
  inArray(bestCases.consent, [...CONSENTS_THAT_ALLOW_PUBLISHING]),
  eq(videos.mediaStatus, 'ready'),
)!;
const visibleSql = sql<boolean>`(${visible})`;
const stepCount = sql<number>`(select count(*)::int from video_steps s where s.video_id = ${bestCases.videoId})`;

/**
 * Best cases (docs/best-cases.md). Administrators create and manage them; learners, editors and
 * experts browse the visible ones. A converted case shows only once its author accepted; the
 * author may withdraw, which unpublishes it. Media URLs are signed only for whoever may see it.
 */
export function createBestCaseService(deps: {
  db: Db;
  storage: Storage;
  mediaService: MediaService;
  notifications: NotificationService;
  audit: Audit;
  uploads: UploadStore;
  clock: () => Date;
}) {
  const { db, storage, mediaService, notifications, audit, clock } = deps;
  const cases = createCaseReads(db);

  function selectJoined() {
    return db
      .select({
        bc: bestCases,
        video: {
          id: videos.id,
          authorId: videos.authorId,
          mediaStatus: videos.mediaStatus,
          processingProgress: videos.processingProgress,
          duration: videos.duration,
          posterMediaId: videos.posterMediaId,
          videoMediaId: videos.videoMediaId,
          storyboard: videos.storyboard,
          uploadId: videos.uploadId,
          sourceSize: videos.sourceSize,
          uploadFingerprint: videos.uploadFingerprint,
        },
        surgery: { id: surgeries.id, nameFr: surgeries.nameFr, nameEn: surgeries.nameEn },
        organ: { id: organs.id, nameFr: organs.nameFr, nameEn: organs.nameEn, icon: organs.icon },
        visible: visibleSql,
        stepCount,
      })
      .from(bestCases)
      .innerJoin(videos, eq(videos.id, bestCases.videoId))
      .leftJoin(surgeries, eq(surgeries.id, bestCases.surgeryId))
      .leftJoin(organs, eq(organs.id, bestCases.organId));
  }
  type Joined = Awaited<ReturnType<ReturnType<typeof selectJoined>['execute']>>[number];

  function summaryOf(r: Joined, viewerId: string, lang: Language): BestCaseSummary {
    return {
      id: r.bc.id,
      title: lang === 'fr' ? r.bc.titleFr : r.bc.titleEn,
      description: lang === 'fr' ? r.bc.descriptionFr : r.bc.descriptionEn,
      surgery: r.surgery ? { id: r.surgery.id, name: localName(r.surgery, lang) } : null,
      organ: r.organ ? { id: r.organ.id, name: localName(r.organ, lang), icon: r.organ.icon } : null,
      duration: r.video.duration,
      posterUrl: mediaService.urlFor(r.video.posterMediaId, viewerId),
      publishedAt: r.bc.publishedAt?.toISOString() ?? null,
    };
  }

  /** The caller's own unfinished upload of the best case's file: how far it got, in any store. */
  async function uploadOf(r: Joined, viewerId: string): Promise<AdminBestCase['upload']> {
    const { uploadId, sourceSize } = r.video;
    if (r.bc.createdById !== viewerId || r.video.mediaStatus !== 'uploading' || !uploadId || sourceSize === null) return null;
    const offset = (await deps.uploads.offset(uploadId).catch(() => undefined)) ?? 0;
    return { id: uploadId, offset, size: sourceSize, fingerprint: r.video.uploadFingerprint };
  }

  async function adminOf(r: Joined, viewerId: string, lang: Language): Promise<AdminBestCase> {
    return {
      id: r.bc.id,
      origin: r.bc.origin as BestCaseOrigin,
      videoId: r.bc.videoId,
      titleFr: r.bc.titleFr,
      titleEn: r.bc.titleEn,
      descriptionFr: r.bc.descriptionFr,
      descriptionEn: r.bc.descriptionEn,
      surgery: r.surgery ? { id: r.surgery.id, name: localName(r.surgery, lang) } : null,
      organ: r.organ ? { id: r.organ.id, name: localName(r.organ, lang), icon: r.organ.icon } : null,
      duration: r.video.duration,
      posterUrl: mediaService.urlFor(r.video.posterMediaId, viewerId),
      mediaStatus: r.video.mediaStatus as MediaStatus,
      processingProgress: r.video.processingProgress,
      consent: r.bc.consent as BestCaseConsent,
      published: r.bc.published,
      visible: Boolean(r.visible),
      stepCount: Number(r.stepCount),
      mine: r.bc.createdById === viewerId,
      upload: await uploadOf(r, viewerId),
      createdAt: r.bc.createdAt.toISOString(),
    };
  }

  /** What plays: signed for this viewer only, who the caller checked may see it. */
  async function playable(r: Joined, viewerId: string, lang: Language) {
    const steps: VideoStep[] = await cases.steps(r.bc.videoId, lang);
    return {
      videoUrl: r.video.mediaStatus === 'ready' ? mediaService.urlFor(r.video.videoMediaId, viewerId) : null,
      storyboard: mediaService.storyboardFor(r.video.storyboard, viewerId),
      steps,
    };
  }

  /** The filters of both lists, each value checked (400 INVALID_VALUE). */
  function filterConditions(filter: ListQuery['filter']): SQL[] {
    const conditions: SQL[] = [];
    for (const [key, value] of Object.entries(filter)) {
      if (key === 'surgeryId' || key === 'organId') {
        if (!uuid.safeParse(value).success) throw invalid(`filter.${key}`);
        conditions.push(eq(key === 'surgeryId' ? bestCases.surgeryId : bestCases.organId, value));
      } else if (key === 'published') {
        if (value !== 'true' && value !== 'false') throw invalid('filter.published');
        conditions.push(eq(bestCases.published, value === 'true'));
      } else throw invalid(`filter.${key}`);
    }
    return conditions;
  }

  async function adminRow(id: string): Promise<Joined> {
    if (!uuid.safeParse(id).success) throw notFound();
    const [row] = await selectJoined().where(eq(bestCases.id, id));
    if (!row) throw notFound();
    return row;
  }

  /** The surgery and organ must exist. */
  async function checkClassification(surgeryId: string | undefined, organId: string | null | undefined) {
    const details: { path: string; code: 'INVALID_VALUE' }[] = [];
    if (surgeryId) {
      const [surgery] = await db.select({ id: surgeries.id }).from(surgeries).where(eq(surgeries.id, surgeryId));
      if (!surgery) details.push({ path: 'surgeryId', code: 'INVALID_VALUE' });
    }
    if (organId) {
      const [organ] = await db.select({ id: organs.id }).from(organs).where(eq(organs.id, organId));
      if (!organ) details.push({ path: 'organId', code: 'INVALID_VALUE' });
    }
    if (details.length) throw new AppError('VALIDATION', {}, details);
  }

  const surgeryNames = (surgeryId: string | null) => surgeryNamesOf(db, surgeryId);

  /** The administrator's notes on the steps of a best case (only the steps that have one). */
  async function stepNotesOf(bestCaseId: string) {
    const rows = await db
      .select({ stepId: bestCaseStepNotes.videoStepId, noteFr: bestCaseStepNotes.noteFr, noteEn: bestCaseStepNotes.noteEn })
      .from(bestCaseStepNotes)
      .innerJoin(videoSteps, eq(videoSteps.id, bestCaseStepNotes.videoStepId))
      .where(eq(bestCaseStepNotes.bestCaseId, bestCaseId))
      .orderBy(asc(videoSteps.position));
    return rows.filter((r) => r.noteFr || r.noteEn);
  }

  async function adminDetail(id: string, viewer: RequestUser, lang: Language): Promise<AdminBestCaseDetail> {
    const row = await adminRow(id);
    return {
      ...(await adminOf(row, viewer.id, lang)),
      ...(await playable(row, viewer.id, lang)),
      stepNotes: await stepNotesOf(row.bc.id),
    };
  }

  /** A best case as one side of a comparison: visible ones only (anything else does not exist here). */
  async function sideOf(row: Joined, viewerId: string, lang: Language): Promise<ComparisonSide> {
    const [summary, play, notes, drawings] = [
      summaryOf(row, viewerId, lang),
      await playable(row, viewerId, lang),
      await stepNotesOf(row.bc.id),
      await db
        .select({ id: bestCaseDrawings.id, note: bestCaseDrawings.note, drawing: bestCaseDrawings.drawing })
        .from(bestCaseDrawings)
        .where(eq(bestCaseDrawings.bestCaseId, row.bc.id))
        .orderBy(asc(bestCaseDrawings.time), asc(bestCaseDrawings.createdAt)),
    ];
    const noteOf = (stepId: string) => {
      const note = notes.find((n) => n.stepId === stepId);
      if (!note) return null;
      // In the reader's language, else the other one rather than nothing.
      return (lang === 'fr' ? note.noteFr || note.noteEn : note.noteEn || note.noteFr) || null;
    };
    return {
      kind: 'best_case',
      id: summary.id,
      title: summary.title,
      surgery: summary.surgery,
      duration: summary.duration,
      videoUrl: play.videoUrl,
      posterUrl: summary.posterUrl,
      storyboard: play.storyboard,
      steps: play.steps.map((step) => ({ ...step, note: noteOf(step.id) })),
      drawings,
    };
  }

  /** The converted case the caller wrote, or 404. */
  async function ownRequest(viewer: RequestUser, videoId: string): Promise<BestCaseRow> {
    const [row] = await db
      .select({ bc: bestCases })
      .from(bestCases)
      .innerJoin(videos, eq(videos.id, bestCases.videoId))
      .where(and(eq(bestCases.videoId, videoId), eq(videos.authorId, viewer.id), eq(bestCases.origin, 'converted')));
    if (!row) throw notFound();
    return row.bc;
  }

  const requestOf = (bc: BestCaseRow): BestCaseRequest => ({
    id: bc.id,
    titleFr: bc.titleFr,
    titleEn: bc.titleEn,
    descriptionFr: bc.descriptionFr,
    descriptionEn: bc.descriptionEn,
    consent: bc.consent as BestCaseConsent,
    published: bc.published,
  });

  return {
    // ---- Learners, editors and experts.

    async browse(viewer: RequestUser, query: ListQuery, lang: Language) {
      const where = and(visible, ...filterConditions(query.filter))!;
      const [rows, [total]] = await Promise.all([
        selectJoined()
          .where(where)
          .orderBy(desc(bestCases.publishedAt), asc(bestCases.id))
          .limit(query.limit)
          .offset((query.page - 1) * query.limit),
        db.select({ total: count() }).from(bestCases).innerJoin(videos, eq(videos.id, bestCases.videoId)).where(where),
      ]);
      return { data: rows.map((r) => summaryOf(r, viewer.id, lang)), total: total?.total ?? 0, page: query.page, limit: query.limit };
    },

    /** 404 unless visible: an unpublished best case does not exist for them. */
    async view(viewer: RequestUser, id: string, lang: Language): Promise<BestCaseDetail> {
      if (!uuid.safeParse(id).success) throw notFound();
      const [row] = await selectJoined().where(and(eq(bestCases.id, id), visible));
      if (!row) throw notFound();
      return { ...summaryOf(row, viewer.id, lang), ...(await playable(row, viewer.id, lang)) };
    },

    // ---- Comparisons (the comparison module checks who may see the other side).

    /** The visible best cases of a surgery, newest first, except the one made of `exceptVideoId`. */
    async comparable(viewer: RequestUser, surgeryId: string | null, exceptVideoId: string, lang: Language): Promise<BestCaseSummary[]> {
      if (!surgeryId) return [];
      const rows = await selectJoined()
        .where(and(visible, eq(bestCases.surgeryId, surgeryId), sql`${bestCases.videoId} <> ${exceptVideoId}`))
        .orderBy(desc(bestCases.publishedAt), asc(bestCases.id))
        .limit(50);
      return rows.map((r) => summaryOf(r, viewer.id, lang));
    },

    /** A visible best case as a side of a comparison, with its video id (404 unless visible). */
    async comparisonSide(viewer: RequestUser, id: string, lang: Language) {
      if (!uuid.safeParse(id).success) throw notFound();
      const [row] = await selectJoined().where(and(eq(bestCases.id, id), visible));
      if (!row) throw notFound();
      return { side: await sideOf(row, viewer.id, lang), videoId: row.bc.videoId, surgeryId: row.bc.surgeryId };
    },

    // ---- Administrators (copil reads).

    async adminList(viewer: RequestUser, query: ListQuery, lang: Language) {
      const conditions = filterConditions(query.filter);
      const where = conditions.length ? and(...conditions) : undefined;
      const [rows, [total]] = await Promise.all([
        selectJoined()
          .where(where)
          .orderBy(desc(bestCases.createdAt), asc(bestCases.id))
          .limit(query.limit)
          .offset((query.page - 1) * query.limit),
        db.select({ total: count() }).from(bestCases).where(where),
      ]);
      return {
        data: await Promise.all(rows.map((r) => adminOf(r, viewer.id, lang))),
        total: total?.total ?? 0,
        page: query.page,
        limit: query.limit,
      };
    },

    adminDetail,

    async create(viewer: RequestUser, body: CreateBestCaseBody, ip: string, lang: Language): Promise<AdminBestCaseDetail> {
      await checkClassification(body.surgeryId, body.organId);
      const texts = { titleFr: body.titleFr, titleEn: body.titleEn, descriptionFr: body.descriptionFr, descriptionEn: body.descriptionEn };
      const now = clock();
      let id: string;
      if (body.source === 'video') {
        const [source] = await db
          .select()
          .from(videos)
          .where(and(eq(videos.id, body.videoId), eq(videos.purpose, 'case')));
        if (!source) throw new AppError('VALIDATION', {}, [{ path: 'videoId', code: 'INVALID_VALUE' }]);
        if (source.status !== 'analysed' || source.mediaStatus !== 'ready') throw new AppError('BEST_CASE_NOT_ANALYSED');
        const [created] = await db
          .insert(bestCases)
          .values({
            ...texts,
            videoId: source.id,
            origin: 'converted',
            surgeryId: body.surgeryId,
            organId: body.organId ?? null,
            consent: 'pending',
            createdById: viewer.id,
            createdAt: now,
            updatedAt: now,
          })
          .onConflictDoNothing()
          .returning();
        if (!created) throw new AppError('BEST_CASE_EXISTS');
        id = created.id;
        await notifications.notify(
          source.authorId,
          'bestCaseRequested',
          aboutCase(await surgeryNames(source.surgeryId), source),
          `/videos/${source.id}`,
        );
      } else {
        id = await db.transaction(async (tx) => {
          const [video] = await tx
            .insert(videos)
            .values({
              authorId: viewer.id,
              kind: 'video',
              purpose: 'best_case',
              status: 'saved',
              mediaStatus: 'uploading',
              surgeryId: body.surgeryId,
              organId: body.organId ?? null,
              createdAt: now,
              updatedAt: now,
            })
            .returning({ id: videos.id });
          const [created] = await tx
            .insert(bestCases)
            .values({
              ...texts,
              videoId: video!.id,
              origin: 'uploaded',
              surgeryId: body.surgeryId,
              organId: body.organId ?? null,
              consent: 'not_needed',
              createdById: viewer.id,
              createdAt: now,
              updatedAt: now,
            })
            .returning({ id: bestCases.id });
          return created!.id;
        });
      }
      await audit(viewer.id, 'best_case.created', 'best_case', id, ip, { source: body.source });
      return adminDetail(id, viewer, lang);
    },

    async update(viewer: RequestUser, id: string, body: UpdateBestCaseBody, ip: string, lang: Language): Promise<AdminBestCaseDetail> {
      const row = await adminRow(id);
      await checkClassification(body.surgeryId, body.organId);
      const changes: Partial<typeof bestCases.$inferInsert> = {};
      for (const key of ['titleFr', 'titleEn', 'descriptionFr', 'descriptionEn', 'surgeryId'] as const) {
        if (body[key] !== undefined) changes[key] = body[key];
      }
      if (Object.hasOwn(body, 'organId')) changes.organId = body.organId ?? null;
      await db
        .update(bestCases)
        .set({ ...changes, updatedAt: clock() })
        .where(eq(bestCases.id, row.bc.id));
      await audit(viewer.id, 'best_case.updated', 'best_case', row.bc.id, ip, { fields: Object.keys(changes) });
      return adminDetail(row.bc.id, viewer, lang);
    },

    /**
     * Publishing is allowed before the author of a converted case answered: it shows once they
     * accept. Refused once they declined or withdrew, and until the video is playable.
     */
    async setPublished(viewer: RequestUser, id: string, published: boolean, ip: string, lang: Language): Promise<AdminBestCaseDetail> {
      const row = await adminRow(id);
      if (published && row.bc.published) return adminDetail(row.bc.id, viewer, lang);
      if (!published && !row.bc.published) return adminDetail(row.bc.id, viewer, lang);
      if (published) {
        if (row.bc.consent === 'declined' || row.bc.consent === 'withdrawn') throw new AppError('BEST_CASE_CONSENT_REFUSED');
        if (row.video.mediaStatus !== 'ready') throw new AppError('VIDEO_NOT_READY');
      }
      const [changed] = await db
        .update(bestCases)
        .set({ published, ...(published ? { publishedAt: clock() } : {}), updatedAt: clock() })
        .where(and(eq(bestCases.id, row.bc.id), eq(bestCases.published, !published)))
        .returning({ id: bestCases.id });
      if (changed) await audit(viewer.id, published ? 'best_case.published' : 'best_case.unpublished', 'best_case', row.bc.id, ip);
      return adminDetail(row.bc.id, viewer, lang);
    },

    /**
     * The steps of an uploaded video, from where each starts (sorted); each ends where the next
     * starts, the last at the end of the video. Replaces every step at once.
     */
    async setSteps(viewer: RequestUser, id: string, body: BestCaseStepsBody, ip: string, lang: Language): Promise<AdminBestCaseDetail> {
      const row = await adminRow(id);
      if (row.bc.origin !== 'uploaded') throw new AppError('BEST_CASE_STEPS_KEPT');
      if (row.video.mediaStatus !== 'ready' || !row.video.duration) throw new AppError('VIDEO_NOT_READY');
      const duration = row.video.duration;
      const sorted = [...body.steps].sort((a, b) => a.start - b.start);
      const details: { path: string; code: 'INVALID_VALUE' }[] = [];
      const stepIds = [...new Set(sorted.map((s) => s.surgeryStepId))];
      const vocabulary = stepIds.length
        ? await db
            .select()
            .from(surgerySteps)
            .where(and(inArray(surgerySteps.id, stepIds), row.bc.surgeryId ? eq(surgerySteps.surgeryId, row.bc.surgeryId) : sql`false`))
        : [];
      body.steps.forEach((step, i) => {
        if (!vocabulary.some((v) => v.id === step.surgeryStepId)) details.push({ path: `steps.${i}.surgeryStepId`, code: 'INVALID_VALUE' });
        if (step.start >= duration) details.push({ path: `steps.${i}.start`, code: 'INVALID_VALUE' });
        if (body.steps.some((other, j) => j !== i && other.start === step.start))
          details.push({ path: `steps.${i}.start`, code: 'INVALID_VALUE' });
      });
      if (details.length) throw new AppError('VALIDATION', {}, details);
      await db.transaction(async (tx) => {
        // The notes follow their vocabulary step (occurrence by occurrence) into the new list.
        const notes = await tx
          .select({ surgeryStepId: videoSteps.surgeryStepId, noteFr: bestCaseStepNotes.noteFr, noteEn: bestCaseStepNotes.noteEn })
          .from(bestCaseStepNotes)
          .innerJoin(videoSteps, eq(videoSteps.id, bestCaseStepNotes.videoStepId))
          .where(eq(bestCaseStepNotes.bestCaseId, row.bc.id))
          .orderBy(asc(videoSteps.position));
        await tx.delete(videoSteps).where(eq(videoSteps.videoId, row.bc.videoId));
        const inserted = sorted.length
          ? await tx
              .insert(videoSteps)
              .values(
                sorted.map((step, i) => ({
                  videoId: row.bc.videoId,
                  position: i,
                  surgeryStepId: step.surgeryStepId,
                  name: vocabulary.find((v) => v.id === step.surgeryStepId)!.nameEn,
                  start: step.start,
                  end: sorted[i + 1]?.start ?? duration,
                })),
              )
              .returning({ id: videoSteps.id, surgeryStepId: videoSteps.surgeryStepId, position: videoSteps.position })
          : [];
        const carried = inserted
          .sort((a, b) => a.position - b.position)
          .flatMap((step) => {
            const at = notes.findIndex((n) => n.surgeryStepId === step.surgeryStepId);
            if (at < 0) return [];
            const [note] = notes.splice(at, 1);
            return [{ bestCaseId: row.bc.id, videoStepId: step.id, noteFr: note!.noteFr, noteEn: note!.noteEn, updatedAt: clock() }];
          });
        if (carried.length) await tx.insert(bestCaseStepNotes).values(carried);
      });
      await audit(viewer.id, 'best_case.steps_changed', 'best_case', row.bc.id, ip, { count: sorted.length });
      return adminDetail(row.bc.id, viewer, lang);
    },

    /**
     * The administrator's notes on the steps (each in French and English, either may be empty),
     * all at once: a step left out, or with both texts empty, has no note any more.
     */
    async setStepNotes(
      viewer: RequestUser,
      id: string,
      body: BestCaseStepNotesBody,
      ip: string,
      lang: Language,
    ): Promise<AdminBestCaseDetail> {
      const row = await adminRow(id);
      const steps = await db.select({ id: videoSteps.id }).from(videoSteps).where(eq(videoSteps.videoId, row.bc.videoId));
      const details: { path: string; code: 'INVALID_VALUE' }[] = [];
      body.notes.forEach((note, i) => {
        if (!steps.some((s) => s.id === note.stepId)) details.push({ path: `notes.${i}.stepId`, code: 'INVALID_VALUE' });
        if (body.notes.some((other, j) => j < i && other.stepId === note.stepId))
          details.push({ path: `notes.${i}.stepId`, code: 'INVALID_VALUE' });
      });
      if (details.length) throw new AppError('VALIDATION', {}, details);
      const kept = body.notes.filter((n) => n.noteFr || n.noteEn);
      await db.transaction(async (tx) => {
        await tx.delete(bestCaseStepNotes).where(eq(bestCaseStepNotes.bestCaseId, row.bc.id));
        if (kept.length)
          await tx.insert(bestCaseStepNotes).values(
            kept.map((n) => ({
              bestCaseId: row.bc.id,
              videoStepId: n.stepId,
              noteFr: n.noteFr ?? '',
              noteEn: n.noteEn ?? '',
              updatedAt: clock(),
            })),
          );
      });
      await audit(viewer.id, 'best_case.step_notes_changed', 'best_case', row.bc.id, ip, { count: kept.length });
      return adminDetail(row.bc.id, viewer, lang);
    },

    /** A converted case loses only its best case; an uploaded one its video and every file of it. */
    async remove(viewer: RequestUser, id: string, ip: string): Promise<void> {
      const row = await adminRow(id);
      if (row.bc.origin === 'uploaded') {
        const [video] = await db.delete(videos).where(eq(videos.id, row.bc.videoId)).returning();
        await storage.deletePrefix(`videos/${row.bc.videoId}`);
        if (video) await removeUploadFilesOf({ storage: deps.storage, uploads: deps.uploads }, video);
      } else {
        await db.delete(bestCases).where(eq(bestCases.id, row.bc.id));
      }
      await audit(viewer.id, 'best_case.deleted', 'best_case', row.bc.id, ip, { origin: row.bc.origin });
    },

    // ---- The author of a converted case.

    /**
     * Null when nothing was asked about the author's own case (most cases: their page asks on
     * every visit, an expected state and no error); 404 when the case is not theirs.
     */
    async request(viewer: RequestUser, videoId: string): Promise<BestCaseRequest | null> {
      const [own] = await db
        .select({ id: videos.id })
        .from(videos)
        .where(and(eq(videos.id, videoId), eq(videos.authorId, viewer.id)));
      if (!own) throw notFound();
      const [row] = await db
        .select({ bc: bestCases })
        .from(bestCases)
        .where(and(eq(bestCases.videoId, videoId), eq(bestCases.origin, 'converted')));
      return row ? requestOf(row.bc) : null;
    },

    /** Accepting shows it (when published); declining once accepted withdraws and unpublishes it. */
    async answer(viewer: RequestUser, videoId: string, accept: boolean, ip: string): Promise<BestCaseRequest> {
      const bc = await ownRequest(viewer, videoId);
      const next: BestCaseConsent = accept ? 'accepted' : bc.consent === 'accepted' ? 'withdrawn' : 'declined';
      if (bc.consent === next || (!accept && bc.consent === 'withdrawn')) return requestOf(bc);
      const [updated] = await db
        .update(bestCases)
        .set({ consent: next, consentAt: clock(), updatedAt: clock(), ...(accept ? {} : { published: false }) })
        .where(and(eq(bestCases.id, bc.id), eq(bestCases.consent, bc.consent)))
        .returning();
      if (!updated) return requestOf((await ownRequest(viewer, videoId)) ?? bc);
      await audit(viewer.id, accept ? 'best_case.consent_given' : 'best_case.consent_refused', 'best_case', bc.id, ip, { consent: next });
      if (bc.createdById) {
        const answer = {
          accepted: { en: 'accepted to have it published', fr: 'a accepté sa publication' },
          declined: { en: 'declined to have it published', fr: 'a refusé sa publication' },
          withdrawn: { en: 'withdrew their consent: it is no longer published', fr: "a retiré son consentement : il n'est plus publié" },
        }[next as 'accepted' | 'declined' | 'withdrawn'];
        await notifications.notify(
          bc.createdById,
          'bestCaseAnswered',
          { title: { fr: bc.titleFr, en: bc.titleEn }, answer },
          '/admin/best-cases',
        );
      }
      return requestOf(updated);
    },
  };
}
export type BestCaseService = ReturnType<typeof createBestCaseService>;
