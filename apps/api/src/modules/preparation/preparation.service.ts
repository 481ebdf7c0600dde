import { asc, eq } from 'drizzle-orm';
import type { ClaimResponse, ReleaseResponse } from '@sutura/domain/claims';
import type { Language } from '@sutura/domain/i18n';
import {
  PREPARATION_SOCKET_EVENTS,
  type PoolChangedEvent,
  type PreparationDetail,
  type PreparationPhase,
  type RenderStatus,
  type VideoStatusChangedEvent,
} from '@sutura/domain/preparation';
import type { MediaStatus, VideoStatus } from '@sutura/domain/videos';
import type { OrganIcon } from '@sutura/domain/vocabularies';
import type { Db } from '../../db/client.ts';
import { organs, preparations, surgeries, surgerySteps, videos } from '../../db/schema.ts';
import type { RequestUser } from '../../http/access.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { Queue } from '../../jobs/queue.ts';
import type { Audit } from '../audit/audit.service.ts';
import type { Claims } from '../claims/claims.service.ts';
import type { MediaService } from '../media/media.service.ts';
import { aboutCase, type NotificationService, type RealtimeHub } from '../notifications/notifications.service.ts';
import { localName, surgeryNamesOf } from '../cases/names.ts';
import { createStage, defineStage } from '../workflow/stage.ts';
import { createPreparationDrafts } from './preparation.drafts.ts';
import { createPreparationLists } from './preparation.lists.ts';
import { frameRateOf, SUBMITTED } from './preparation.rules.ts';

type VideoRow = typeof videos.$inferSelect;

const STAGE = 'preparation';

export { frameRateOf, validateSteps, validateTrims } from './preparation.rules.ts';

export function createPreparationService(deps: {
  db: Db;
  claims: Claims;
  mediaService: MediaService;
  notifications: NotificationService;
  hub: RealtimeHub;
  queue: Queue;
  audit: Audit;
  clock: () => Date;
}) {
  const { db, claims, mediaService, notifications, hub, queue, audit, clock } = deps;

  function poolChanged(videoId: string, change: PoolChangedEvent['change']) {
    stage.poolChanged(videoId, change);
  }

  /** The author, and the editor working on it, follow the video's status live. */
  function statusChanged(video: Pick<VideoRow, 'id' | 'authorId'>, status: VideoStatus, editorId?: string | null) {
    const payload: VideoStatusChangedEvent = { videoId: video.id, status };
    hub.emitToUser(video.authorId, PREPARATION_SOCKET_EVENTS.videoStatusChanged, payload);
    if (editorId) hub.emitToUser(editorId, PREPARATION_SOCKET_EVENTS.videoStatusChanged, payload);
  }

  const surgeryNames = (surgeryId: string | null) => surgeryNamesOf(db, surgeryId);

  const drafts = createPreparationDrafts({
    db,
    claims,
    queue,
    audit,
    clock,
    statusChanged,
    detail: (viewer, videoId, lang) => service.detail(viewer, videoId, lang),
  });
  const { preparationOf, namedSteps } = drafts;

  /** The preparation stage: the editors' pool, each claim with its draft, a release dropping it. */
  const stage = createStage(
    { db, claims, audit, notifications, hub, clock },
    defineStage<boolean>({
      name: STAGE,
      pool: { role: 'editor', event: PREPARATION_SOCKET_EVENTS.poolChanged },
      audit: { claimed: 'preparation.claimed', released: 'preparation.released' },
      leaseExpired: { notification: 'preparationLeaseExpired', link: '/editor' },
      /** The holder's draft: made at the first claim; another editor's is started afresh. Returns whether it is the first. */
      async onClaim(viewer, videoId) {
        const prep = await preparationOf(videoId);
        if (!prep) {
          await db.insert(preparations).values({ videoId, editorId: viewer.id }).onConflictDoNothing();
        } else if (prep.editorId !== viewer.id) {
          // Nobody sees another editor's draft: a new editor starts afresh.
          await db
            .update(preparations)
            .set({
              editorId: viewer.id,
              phase: 'trim',
              trims: [],
              steps: [],
              savedAt: null,
              submittedAt: null,
              renderStatus: 'idle',
              renderError: null,
            })
            .where(eq(preparations.videoId, videoId));
        }
        return !prep;
      },
      async afterClaim(_viewer, video, firstClaim) {
        // Sources sent before this stage existed have none yet.
        if (video.cutSuggestions === null) await queue.send('preparation.suggest', { videoId: video.id });
        statusChanged(video, 'in_preparation');
        if (firstClaim) {
          await notifications.notify(
            video.authorId,
            'videoInPreparation',
            aboutCase(await surgeryNames(video.surgeryId), video),
            `/videos/${video.id}`,
          );
        }
      },
      async onRelease(tx, videoId) {
        await tx
          .update(preparations)
          .set({ phase: 'trim', trims: [], steps: [], savedAt: null, submittedAt: null, renderStatus: 'idle', renderError: null })
          .where(eq(preparations.videoId, videoId));
      },
      async afterRelease(video) {
        statusChanged(video, 'pending_preparation');
      },
      async afterExpired(video) {
        statusChanged(video, 'pending_preparation');
      },
    }),
  );

  const service = {
    ...createPreparationLists({ db, mediaService, inPool: (now) => stage.inPool(now), clock }),

    async claim(viewer: RequestUser, videoId: string, ip: string | null = null): Promise<ClaimResponse> {
      return stage.claim(viewer, videoId, ip);
    },

    /**
     * Gives the video back to the pool and drops its draft (docs/preparation.md): whoever claims it
     * next — another editor or the same one — starts from the untouched source. Both in one
     * transaction, so a refused release (LEASE_LOST) keeps the draft.
     */
    async release(viewer: RequestUser, videoId: string, fencingToken: number, ip: string | null = null): Promise<ReleaseResponse> {
      return stage.release(viewer, videoId, fencingToken, ip);
    },

    /**
     * The page /editor/[id]: for the live holder, or the editor who submitted it (read-only).
     * A holder whose lease ran out is told so; anyone else gets 404.
     */
    async detail(viewer: RequestUser, videoId: string, lang: Language): Promise<PreparationDetail> {
      const now = clock();
      const [video] = await db.select().from(videos).where(eq(videos.id, videoId));
      const prep = video ? await preparationOf(videoId) : undefined;
      if (!video || !prep) throw notFound();
      if (prep.editorId !== viewer.id) {
        // Taken over after the lease ran out: its former holder is told, anyone else learns nothing.
        const stillInStage = video.status === 'pending_preparation' || video.status === 'in_preparation';
        if (stillInStage && (await claims.heldBefore(STAGE, videoId, viewer.id))) throw new AppError('LEASE_LOST');
        throw notFound();
      }
      const holding =
        video.status === 'in_preparation' && video.claimHolderId === viewer.id && video.leaseEndsAt !== null && video.leaseEndsAt > now;
      const submitted = SUBMITTED.includes(video.status as VideoStatus) && prep.submittedAt !== null;
      if (!holding && !submitted) {
        if (video.status === 'pending_preparation' || video.status === 'in_preparation') throw new AppError('LEASE_LOST');
        throw notFound();
      }
      const [surgery] = video.surgeryId ? await db.select().from(surgeries).where(eq(surgeries.id, video.surgeryId)) : [];
      const [organ] = video.organId ? await db.select().from(organs).where(eq(organs.id, video.organId)) : [];
      const vocabulary = video.surgeryId
        ? await db.select().from(surgerySteps).where(eq(surgerySteps.surgeryId, video.surgeryId)).orderBy(asc(surgerySteps.position))
        : [];
      const keySteps = vocabulary.filter((s) => video.keyStepIds.includes(s.id));
      const url = (id: string | null) => mediaService.urlFor(id, viewer.id);
      return {
        id: video.id,
        status: video.status as VideoStatus,
        mediaStatus: video.mediaStatus as MediaStatus,
        surgery: surgery ? { id: surgery.id, name: localName(surgery, lang) } : null,
        organ: organ ? { id: organ.id, name: localName(organ, lang), icon: organ.icon as OrganIcon } : null,
        priority: video.priority,
        keySteps: keySteps.map((s) => ({ id: s.id, name: localName(s, lang) })),
        // The source only to its holder; once rendered, the editor sees what experts will see.
        sourceUrl: holding ? url(video.videoMediaId) : null,
        renderedUrl: prep.renderStatus === 'done' && !holding ? url(video.videoMediaId) : null,
        posterUrl: url(video.posterMediaId),
        storyboard: mediaService.storyboardFor(video.storyboard, viewer.id),
        frameRate: frameRateOf(video),
        duration: video.duration ?? 0,
        width: video.width,
        height: video.height,
        phase: prep.phase as PreparationPhase,
        trims: prep.trims,
        steps: await namedSteps(prep.steps, lang),
        suggestions: video.cutSuggestions,
        leaseEndsAt: holding ? video.leaseEndsAt!.toISOString() : null,
        fencingToken: holding ? video.fencingToken : null,
        savedAt: prep.savedAt?.toISOString() ?? null,
        renderStatus: prep.renderStatus as RenderStatus,
        renderError: prep.renderError,
        // The names the editor may pick: retired steps (docs/admin-catalog.md) keep naming the drafts that have them.
        vocabulary: vocabulary.filter((s) => !s.retiredAt).map((s) => ({ id: s.id, name: localName(s, lang), position: s.position })),
      };
    },

    ...drafts.edits,

    /** For the periodic job: expired leases back to the pool, their editors told. */
    tidyExpiredLeases: () => stage.tidyExpiredLeases(),

    /** A video the learner just sent enters every editor's pool; its cuts are looked for. */
    async videoSent(videoId: string) {
      poolChanged(videoId, 'sent');
      await queue.send('preparation.suggest', { videoId });
    },

    poolChanged,
    statusChanged,
    surgeryNames,
  };
  return service;
}
export type PreparationService = ReturnType<typeof createPreparationService>;
