import { and, asc, count, desc, eq, gt, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { leaseHoursLeft } from '@sutura/domain/claims';
import type { Language } from '@sutura/domain/i18n';
import type { HeldItem, PoolItem, PreparationPhase, PreparedItem, RenderStatus } from '@sutura/domain/preparation';
import type { ListQuery } from '@sutura/domain/query';
import type { VideoStatus } from '@sutura/domain/videos';
import type { OrganIcon } from '@sutura/domain/vocabularies';
import type { Db } from '../../db/client.ts';
import { organs, preparations, surgeries, videos } from '../../db/schema.ts';
import type { RequestUser } from '../../http/access.ts';
import { AppError } from '../../http/errors.ts';
import type { MediaService } from '../media/media.service.ts';
import { localName } from '../cases/names.ts';
import { SUBMITTED } from './preparation.rules.ts';

type VideoRow = typeof videos.$inferSelect;
const uuid = z.uuid();

/** The editors' three lists: the pool, the videos I hold, the videos I prepared. */
export function createPreparationLists(deps: { db: Db; mediaService: MediaService; inPool: (now: Date) => SQL; clock: () => Date }) {
  const { db, mediaService, inPool, clock } = deps;

  /** What the pool, held and prepared lists share. */
  const listColumns = {
    video: videos,
    surgery: { id: surgeries.id, nameFr: surgeries.nameFr, nameEn: surgeries.nameEn },
    organ: { id: organs.id, nameFr: organs.nameFr, nameEn: organs.nameEn, icon: organs.icon },
  };
  type ListRow = {
    video: VideoRow;
    surgery: { id: string; nameFr: string; nameEn: string } | null;
    organ: { id: string; nameFr: string; nameEn: string; icon: string } | null;
  };

  function poolItemOf(row: ListRow, viewerId: string, lang: Language): PoolItem {
    const { video } = row;
    const sentAt = video.sentAt ?? video.createdAt;
    return {
      id: video.id,
      surgery: row.surgery ? { id: row.surgery.id, name: localName(row.surgery, lang) } : null,
      organ: row.organ ? { id: row.organ.id, name: localName(row.organ, lang), icon: row.organ.icon as OrganIcon } : null,
      duration: video.duration,
      priority: video.priority,
      posterUrl: mediaService.urlFor(video.posterMediaId, viewerId),
      sentAt: sentAt.toISOString(),
      waitingSeconds: Math.max(0, Math.floor((clock().getTime() - sentAt.getTime()) / 1000)),
    };
  }

  function poolFilter(filter: Record<string, string>): SQL[] {
    const conditions: SQL[] = [];
    for (const [key, value] of Object.entries(filter)) {
      if (key !== 'surgeryId' && key !== 'organId') continue;
      if (!uuid.safeParse(value).success) throw new AppError('VALIDATION', {}, [{ path: `filter.${key}`, code: 'INVALID_VALUE' }]);
      conditions.push(eq(key === 'surgeryId' ? videos.surgeryId : videos.organId, value));
    }
    return conditions;
  }

  return {
    /** Videos waiting for an editor: the pool, and held ones whose lease ran out (free at once). */
    async pool(viewer: RequestUser, query: ListQuery, lang: Language) {
      const where = and(inPool(clock()), ...poolFilter(query.filter));
      const rows = await db
        .select(listColumns)
        .from(videos)
        .leftJoin(surgeries, eq(surgeries.id, videos.surgeryId))
        .leftJoin(organs, eq(organs.id, videos.organId))
        .where(where)
        .orderBy(desc(videos.priority), sql`${videos.sentAt} asc nulls last`, asc(videos.id))
        .limit(query.limit)
        .offset((query.page - 1) * query.limit);
      const [total] = await db.select({ total: count() }).from(videos).where(where);
      return { data: rows.map((r) => poolItemOf(r, viewer.id, lang)), total: total?.total ?? 0, page: query.page, limit: query.limit };
    },

    /** The videos I hold under a live lease. */
    async held(viewer: RequestUser, query: ListQuery, lang: Language) {
      const now = clock();
      const where = and(
        eq(videos.status, 'in_preparation'),
        eq(videos.claimHolderId, viewer.id),
        gt(videos.leaseEndsAt, now),
        ...poolFilter(query.filter),
      );
      const rows = await db
        .select({ ...listColumns, prep: preparations })
        .from(videos)
        .leftJoin(surgeries, eq(surgeries.id, videos.surgeryId))
        .leftJoin(organs, eq(organs.id, videos.organId))
        .leftJoin(preparations, eq(preparations.videoId, videos.id))
        .where(where)
        .orderBy(asc(videos.leaseEndsAt), asc(videos.id))
        .limit(query.limit)
        .offset((query.page - 1) * query.limit);
      const [total] = await db.select({ total: count() }).from(videos).where(where);
      const data: HeldItem[] = rows.map((r) => ({
        ...poolItemOf(r, viewer.id, lang),
        leaseEndsAt: r.video.leaseEndsAt!.toISOString(),
        hoursLeft: leaseHoursLeft(r.video.leaseEndsAt!, now),
        fencingToken: r.video.fencingToken,
        phase: (r.prep?.phase ?? 'trim') as PreparationPhase,
        renderStatus: (r.prep?.renderStatus ?? 'idle') as RenderStatus,
      }));
      return { data, total: total?.total ?? 0, page: query.page, limit: query.limit };
    },

    /** The videos I submitted, newest first. */
    async prepared(viewer: RequestUser, query: ListQuery, lang: Language) {
      const where = and(eq(preparations.editorId, viewer.id), isNotNull(preparations.submittedAt), inArray(videos.status, [...SUBMITTED]));
      const rows = await db
        .select({ ...listColumns, prep: preparations })
        .from(preparations)
        .innerJoin(videos, eq(videos.id, preparations.videoId))
        .leftJoin(surgeries, eq(surgeries.id, videos.surgeryId))
        .leftJoin(organs, eq(organs.id, videos.organId))
        .where(where)
        .orderBy(desc(preparations.submittedAt), asc(videos.id))
        .limit(query.limit)
        .offset((query.page - 1) * query.limit);
      const [total] = await db
        .select({ total: count() })
        .from(preparations)
        .innerJoin(videos, eq(videos.id, preparations.videoId))
        .where(where);
      const data: PreparedItem[] = rows.map((r) => ({
        ...poolItemOf(r, viewer.id, lang),
        status: r.video.status as VideoStatus,
        submittedAt: r.prep.submittedAt!.toISOString(),
        renderStatus: r.prep.renderStatus as RenderStatus,
        stepCount: r.prep.steps.length,
      }));
      return { data, total: total?.total ?? 0, page: query.page, limit: query.limit };
    },
  };
}
