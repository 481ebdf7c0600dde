import { and, asc, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { errorMessage, isErrorCode } from '@sutura/domain/errors';
import type { Language } from '@sutura/domain/i18n';
import type { ListQuery } from '@sutura/domain/query';
import {
  nasaTlxRawScore,
  VIDEO_TABS,
  type MediaStatus,
  type VideoDetail,
  type VideoFields,
  type VideoKind,
  type VideoStatus,
  type VideoSummary,
} from '@sutura/domain/videos';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import type { UploadStore } from '../../storage/uploads.ts';
import { media, organs, surgeries, surgerySteps, users, videoPictures, videoShares, videoSteps, videos } from '../../db/schema.ts';
import { preparedOnUse } from '../../db/prepared.ts';
import type { RequestUser } from '../../http/access.ts';
import { notFound } from '../../http/errors.ts';
import type { MediaService } from '../media/media.service.ts';
import { localName } from './names.ts';
import { listConditions, listOrder, pictureCount, sharedWith } from '../videos/videos.queries.ts';

export type VideoRow = typeof videos.$inferSelect;

/** How the caller relates to a case: the web shows only the actions this allows. */
export type VideoAccess = VideoSummary['access'];

/** The fields of a case, as columns of the same names. */
export const FIELD_KEYS = [
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
  'operatedOn',
] as const satisfies readonly (keyof VideoFields & keyof VideoRow)[];

/**
 * The read model of a case for its learner, the people it is shared with and administrators: who
 * may see it, its summary (lists) and its detail (fields, pictures, steps, shares, upload), with the
 * vocabulary named in the reader's language.
 */
export function createCaseViews(deps: { db: Db; mediaService: MediaService; uploads: UploadStore }) {
  const { db, mediaService } = deps;

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
      resultShown: row.status === 'analysed' || row.resultReleasedAt !== null,
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

  // What every detail reads: built once (at the first detail), named statements on every connection.
  const videoWithAccess = preparedOnUse(() =>
    selectWithNames({ shared: sharedWith(sql.placeholder('viewerId')) })
      .where(eq(videos.id, sql.placeholder('videoId')))
      .prepare('video_detail'),
  );
  const picturesOf = preparedOnUse(() =>
    db
      .select({ id: videoPictures.id, mediaId: videoPictures.mediaId, width: media.width, height: media.height })
      .from(videoPictures)
      .innerJoin(media, eq(media.id, videoPictures.mediaId))
      .where(eq(videoPictures.videoId, sql.placeholder('videoId')))
      .orderBy(asc(videoPictures.position), asc(videoPictures.createdAt))
      .prepare('video_pictures'),
  );
  const sharesOf = preparedOnUse(() =>
    db
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
      .prepare('video_shares'),
  );

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

  return {
    accessOf,
    load,
    detailOf,
    namesOf,
    videoWithAccess,

    /** A page of the caller's cases (or everyone's, for an administrator's `all` tab). */
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
  };
}
export type CaseViews = ReturnType<typeof createCaseViews>;
