import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Language } from '@sutura/domain/i18n';
import {
  MIN_STEPS,
  type DraftStep,
  type PreparationDetail,
  type PreparationDraft,
  type PreparationPhase,
  type Trim,
} from '@sutura/domain/preparation';
import type { VideoStatus } from '@sutura/domain/videos';
import type { Db } from '../../db/client.ts';
import { preparations, surgerySteps, videos, type StoredDraftStep } from '../../db/schema.ts';
import type { RequestUser } from '../../http/access.ts';
import { AppError } from '../../http/errors.ts';
import type { Queue } from '../../jobs/queue.ts';
import type { Audit } from '../audit/audit.service.ts';
import type { Claims } from '../claims/claims.service.ts';
import { localName } from '../cases/names.ts';
import { frameRateOf, validateSteps, validateTrims } from './preparation.rules.ts';

type VideoRow = typeof videos.$inferSelect;
type PreparationRow = typeof preparations.$inferSelect;
const STAGE = 'preparation';

/** The holder's draft: its reads, the fenced edits of trims, phase and steps, and the submit to the render. */
export function createPreparationDrafts(deps: {
  db: Db;
  claims: Claims;
  queue: Queue;
  audit: Audit;
  clock: () => Date;
  statusChanged: (video: Pick<VideoRow, 'id' | 'authorId'>, status: VideoStatus, editorId?: string | null) => void;
  detail: (viewer: RequestUser, videoId: string, lang: Language) => Promise<PreparationDetail>;
}) {
  const { db, claims, queue, audit, clock, statusChanged, detail } = deps;

  async function preparationOf(videoId: string): Promise<PreparationRow | undefined> {
    const [row] = await db.select().from(preparations).where(eq(preparations.videoId, videoId));
    return row;
  }

  /** Names of vocabulary steps in the reader's language; free names as they are. */
  async function namedSteps(steps: readonly StoredDraftStep[], lang: Language) {
    const ids = steps.map((s) => s.surgeryStepId).filter((id): id is string => id !== null);
    const vocabulary = ids.length ? await db.select().from(surgerySteps).where(inArray(surgerySteps.id, ids)) : [];
    const names = new Map(vocabulary.map((s) => [s.id, localName(s, lang)]));
    return steps.map((s) => ({ ...s, name: s.surgeryStepId ? (names.get(s.surgeryStepId) ?? s.name) : s.name }));
  }

  async function draftOf(video: VideoRow, prep: PreparationRow, lang: Language): Promise<PreparationDraft> {
    return {
      videoId: video.id,
      phase: prep.phase as PreparationPhase,
      trims: prep.trims,
      steps: await namedSteps(prep.steps, lang),
      fencingToken: video.fencingToken,
      leaseEndsAt: (video.leaseEndsAt ?? clock()).toISOString(),
      savedAt: prep.savedAt?.toISOString() ?? null,
    };
  }

  /** A fenced write: the holder's video and draft, or LEASE_LOST / 404. */
  async function held(viewer: RequestUser, videoId: string, fencingToken: number) {
    const video = await claims.assertHolder(STAGE, videoId, viewer.id, fencingToken);
    const prep = await preparationOf(videoId);
    if (!prep || prep.editorId !== viewer.id) throw new AppError('LEASE_LOST');
    return { video, prep };
  }

  function requirePhase(prep: PreparationRow, phase: PreparationPhase) {
    if (prep.phase !== phase) throw new AppError('PREPARATION_WRONG_PHASE');
  }

  /**
   * Writes the holder's draft under the claim, checked again with the video row locked: an
   * administrator ending the hold meanwhile makes it LEASE_LOST rather than a write after the end.
   */
  async function save(viewer: RequestUser, video: VideoRow, values: Partial<typeof preparations.$inferInsert>, lang: Language) {
    const [prep] = await claims.whileHolding(STAGE, video.id, viewer.id, video.fencingToken, (tx) =>
      tx
        .update(preparations)
        .set({ ...values, savedAt: clock() })
        .where(and(eq(preparations.videoId, video.id), eq(preparations.editorId, viewer.id)))
        .returning(),
    );
    if (!prep) throw new AppError('LEASE_LOST');
    return draftOf(video, prep, lang);
  }

  const edits = {
    async saveTrims(
      viewer: RequestUser,
      videoId: string,
      body: { fencingToken: number; trims: Trim[] },
      lang: Language,
      ip: string | null = null,
    ) {
      const { video, prep } = await held(viewer, videoId, body.fencingToken);
      requirePhase(prep, 'trim');
      const trims = validateTrims(body.trims, video.duration ?? 0, frameRateOf(video));
      const draft = await save(viewer, video, { trims }, lang);
      await audit(viewer.id, 'preparation.saved', 'video', videoId, ip, { part: 'trims', count: trims.length });
      return draft;
    },

    /** To steps once something is kept; back to trim drops every step (SPEC §5). */
    async setPhase(
      viewer: RequestUser,
      videoId: string,
      body: { fencingToken: number; phase: PreparationPhase },
      lang: Language,
      ip: string | null = null,
    ) {
      const { video, prep } = await held(viewer, videoId, body.fencingToken);
      if (body.phase === 'steps' && prep.trims.length === 0) throw new AppError('TRIMS_REQUIRED');
      const draft = await save(viewer, video, body.phase === 'steps' ? { phase: 'steps' } : { phase: 'trim', steps: [] }, lang);
      await audit(viewer.id, 'preparation.saved', 'video', videoId, ip, { part: 'phase', phase: body.phase });
      return draft;
    },

    async saveSteps(
      viewer: RequestUser,
      videoId: string,
      body: { fencingToken: number; steps: DraftStep[] },
      lang: Language,
      ip: string | null = null,
    ) {
      const { video, prep } = await held(viewer, videoId, body.fencingToken);
      requirePhase(prep, 'steps');
      const steps = validateSteps(body.steps, prep.trims, frameRateOf(video));
      const vocabularyIds = steps.map((s) => s.surgeryStepId).filter((id): id is string => id !== null);
      if (vocabularyIds.length) {
        const known = video.surgeryId
          ? await db
              .select({ id: surgerySteps.id, retiredAt: surgerySteps.retiredAt })
              .from(surgerySteps)
              .where(and(eq(surgerySteps.surgeryId, video.surgeryId), inArray(surgerySteps.id, vocabularyIds)))
          : [];
        // A retired step (docs/admin-catalog.md) keeps naming the draft that already has it, nothing new.
        const drafted = new Set(prep.steps.map((s) => s.surgeryStepId));
        const ids = new Set(known.filter((k) => !k.retiredAt || drafted.has(k.id)).map((k) => k.id));
        const details = steps.flatMap((s, i) =>
          s.surgeryStepId && !ids.has(s.surgeryStepId) ? [{ path: `steps.${i}.surgeryStepId`, code: 'INVALID_VALUE' as const }] : [],
        );
        if (details.length) throw new AppError('VALIDATION', {}, details);
      }
      const draft = await save(viewer, video, { steps }, lang);
      await audit(viewer.id, 'preparation.saved', 'video', videoId, ip, { part: 'steps', count: steps.length });
      return draft;
    },

    /**
     * Hands the work to the render job: the video moves to processing in one conditional
     * update on the fencing token, so a stale holder's submit can never go through.
     */
    async submit(
      viewer: RequestUser,
      videoId: string,
      fencingToken: number,
      lang: Language,
      ip: string | null = null,
    ): Promise<PreparationDetail> {
      const { video, prep } = await held(viewer, videoId, fencingToken);
      requirePhase(prep, 'steps');
      if (prep.trims.length === 0) throw new AppError('TRIMS_REQUIRED');
      if (prep.steps.length < MIN_STEPS) throw new AppError('STEPS_MIN');
      if (prep.steps.some((s) => !s.surgeryStepId && !s.name.trim())) throw new AppError('STEPS_UNNAMED');
      validateSteps(prep.steps, prep.trims, frameRateOf(video));
      // The video moves to processing, its preparation to rendering and its render job into the
      // queue in one transaction: a processing video always has the render it waits for, even
      // when the process dies right after the commit.
      const updated = await claims.transaction(async (tx) => {
        await claims.finish(STAGE, videoId, viewer.id, fencingToken, 'processing', tx);
        const [updated] = await tx
          .update(preparations)
          .set({
            submittedAt: clock(),
            renderStatus: 'rendering',
            renderError: null,
            renderAttempt: sql`${preparations.renderAttempt} + 1`,
          })
          .where(eq(preparations.videoId, videoId))
          .returning({ attempt: preparations.renderAttempt });
        await queue.send('preparation.render', { videoId, attempt: updated!.attempt }, { tx });
        return updated;
      });
      await audit(viewer.id, 'preparation.submitted', 'video', videoId, ip, { steps: prep.steps.length, attempt: updated!.attempt });
      statusChanged(video, 'processing', viewer.id);
      return detail(viewer, videoId, lang);
    },
  };
  return { preparationOf, namedSteps, edits };
}
