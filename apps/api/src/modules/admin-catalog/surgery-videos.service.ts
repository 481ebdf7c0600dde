import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { ADMIN_VIDEO_SEARCH_MAX, type AdminVideo, type AdminVideoList } from '@sutura/domain/admin-catalog';
import { CLAIM_STATUSES, type ClaimStage } from '@sutura/domain/claims';
import type { Language } from '@sutura/domain/i18n';
import type { ListQuery } from '@sutura/domain/query';
import { MEDIA_STATUSES, VIDEO_STATUSES, type MediaStatus, type VideoStatus } from '@sutura/domain/videos';
import type { Db } from '../../db/client.ts';
import { legalHolds, organs, surgeries, USER_SEARCH_TEXT, users, videos } from '../../db/schema.ts';
import type { RequestUser } from '../../http/access.ts';
import { AppError } from '../../http/errors.ts';
import type { Audit } from '../audit/audit.service.ts';
import type { Claims, ClaimsTx } from '../claims/claims.service.ts';
import { aboutCase, type NotificationService } from '../notifications/notifications.service.ts';
import { localName, type Named } from '../cases/names.ts';

const invalid = (key: string) => new AppError('VALIDATION', {}, [{ path: `filter.${key}`, code: 'INVALID_VALUE' }]);
const HELD_STATUSES = Object.values(CLAIM_STATUSES).map((s) => s.held);
const holder = alias(users, 'holder');

/** `%`, `_` and `\` of a search are looked for as they are. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const searchSchema = z.string().trim().min(1).max(ADMIN_VIDEO_SEARCH_MAX);

/**
 * Every case of every learner for the administrators (docs/admin-catalog.md): a page of them,
 * newest first, with who holds each and until when; an administrator may end a claim.
 */
export function createSurgeryVideosAdmin(deps: {
  db: Db;
  claims: Claims;
  audit: Audit;
  notifications: NotificationService;
  /** The stage whose claim ended hears of it (pool and status events, the expert's draft dropped). */
  /** In the release's transaction: the work of the claim that goes with it (an expert's draft); what to tidy once committed. */
  onReleasing: (claim: { videoId: string; stage: ClaimStage }, tx: ClaimsTx) => Promise<string | null>;
  /** Once committed, with what `onReleasing` returned. */
  onReleased: (claim: { videoId: string; stage: ClaimStage; authorId: string }, leftover: string | null) => Promise<void>;
}) {
  const { db, claims, audit, notifications } = deps;

  function conditions(filter: ListQuery['filter']): SQL | undefined {
    // Learners' cases only: a best case's own upload is managed on the best cases page.
    const where: SQL[] = [eq(videos.purpose, 'case')];
    for (const [key, value] of Object.entries(filter)) {
      switch (key) {
        case 'status':
          if (!(VIDEO_STATUSES as readonly string[]).includes(value)) throw invalid(key);
          where.push(eq(videos.status, value as VideoStatus));
          break;
        case 'mediaStatus':
          if (!(MEDIA_STATUSES as readonly string[]).includes(value)) throw invalid(key);
          where.push(eq(videos.mediaStatus, value as MediaStatus));
          break;
        case 'search': {
          const parsed = searchSchema.safeParse(value);
          if (!parsed.success) throw invalid(key);
          const pattern = likePattern(parsed.data);
          // Each side by its own trigram index (users_search_trgm, surgeries_name_*_trgm).
          const authors = db
            .select({ id: users.id })
            .from(users)
            .where(sql`(${sql.raw(USER_SEARCH_TEXT)}) ilike ${pattern}`);
          const named = db
            .select({ id: surgeries.id })
            .from(surgeries)
            .where(or(ilike(surgeries.nameFr, pattern), ilike(surgeries.nameEn, pattern)));
          where.push(or(inArray(videos.authorId, authors), inArray(videos.surgeryId, named))!);
          break;
        }
        default:
          throw invalid(key);
      }
    }
    return and(...where);
  }

  return {
    async list(query: ListQuery, lang: Language): Promise<AdminVideoList> {
      const where = conditions(query.filter);
      const direction = query.sort[0]?.direction === 'asc' ? asc : desc;
      const rows = await db
        .select({
          video: {
            id: videos.id,
            kind: videos.kind,
            status: videos.status,
            mediaStatus: videos.mediaStatus,
            createdAt: videos.createdAt,
            claimHolderId: videos.claimHolderId,
            leaseEndsAt: videos.leaseEndsAt,
          },
          author: { id: users.id, firstName: users.firstName, lastName: users.lastName },
          surgery: { id: surgeries.id, nameFr: surgeries.nameFr, nameEn: surgeries.nameEn },
          organ: { id: organs.id, nameFr: organs.nameFr, nameEn: organs.nameEn, icon: organs.icon },
          holder: { id: holder.id, firstName: holder.firstName, lastName: holder.lastName },
          hold: { reason: legalHolds.reason, heldAt: legalHolds.heldAt },
        })
        .from(videos)
        .innerJoin(users, eq(users.id, videos.authorId))
        .leftJoin(surgeries, eq(surgeries.id, videos.surgeryId))
        .leftJoin(organs, eq(organs.id, videos.organId))
        .leftJoin(holder, eq(holder.id, videos.claimHolderId))
        .leftJoin(legalHolds, eq(legalHolds.videoId, videos.id))
        .where(where)
        .orderBy(direction(videos.createdAt), asc(videos.id))
        .limit(query.limit)
        .offset((query.page - 1) * query.limit);
      const [total] = await db
        .select({ n: count() })
        .from(videos)
        .innerJoin(users, eq(users.id, videos.authorId))
        .leftJoin(surgeries, eq(surgeries.id, videos.surgeryId))
        .where(where);
      const name = (r: Named) => localName(r, lang);
      const data: AdminVideo[] = rows.map((r) => ({
        id: r.video.id,
        kind: r.video.kind,
        status: r.video.status as VideoStatus,
        mediaStatus: r.video.mediaStatus as MediaStatus,
        createdAt: r.video.createdAt.toISOString(),
        author: r.author,
        surgery: r.surgery ? { id: r.surgery.id, name: name(r.surgery) } : null,
        organ: r.organ ? { id: r.organ.id, name: name(r.organ), icon: r.organ.icon } : null,
        // A held video's lease; a finished stage keeps its holder recorded but holds nothing.
        claim:
          HELD_STATUSES.includes(r.video.status as never) && r.video.leaseEndsAt
            ? { holder: r.holder, leaseEndsAt: r.video.leaseEndsAt.toISOString() }
            : null,
        legalHold: r.hold ? { reason: r.hold.reason, heldAt: r.hold.heldAt.toISOString() } : null,
      }));
      return { data, total: total?.n ?? 0, page: query.page, limit: query.limit };
    },

    /**
     * Ends whoever holds the video: it goes back to its stage's pool, the holder's next write is
     * LEASE_LOST, the holder is told. CLAIM_NOT_HELD when nobody holds it (a second click included).
     */
    async releaseClaim(viewer: RequestUser, videoId: string, ip: string) {
      // The claim and the work that goes with it end together; the rest once committed.
      const released = await claims.transaction(async (tx) => {
        const ended = await claims.forceRelease(videoId, tx);
        return ended && { ended, leftover: await deps.onReleasing(ended, tx) };
      });
      if (!released) throw new AppError('CLAIM_NOT_HELD');
      const { ended, leftover } = released;
      const [video] = await db
        .select({ authorId: videos.authorId, createdAt: videos.createdAt, nameFr: surgeries.nameFr, nameEn: surgeries.nameEn })
        .from(videos)
        .leftJoin(surgeries, eq(surgeries.id, videos.surgeryId))
        .where(eq(videos.id, videoId));
      if (video) await deps.onReleased({ videoId, stage: ended.stage, authorId: video.authorId }, leftover);
      await audit(viewer.id, 'video.claim_released_by_admin', 'video', videoId, ip, {
        stage: ended.stage,
        holderId: ended.holderId,
        fencingToken: ended.fencingToken,
      });
      if (ended.holderId) {
        const surgery = video?.nameFr && video.nameEn ? { fr: video.nameFr, en: video.nameEn } : { fr: 'chirurgie', en: 'surgery' };
        await notifications.notify(
          ended.holderId,
          ended.stage === 'preparation' ? 'preparationClaimReleased' : 'analysisClaimReleased',
          video ? aboutCase(surgery, video) : { surgery },
          ended.stage === 'preparation' ? '/editor' : '/expert',
        );
      }
      return { videoId, stage: ended.stage, released: true as const };
    },
  };
}
export type SurgeryVideosAdmin = ReturnType<typeof createSurgeryVideosAdmin>;
