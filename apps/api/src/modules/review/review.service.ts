import { and, asc, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { ANALYSIS_SOCKET_EVENTS, KPI_DEFINITIONS, type Kpi } from '@sutura/domain/analysis';
import type { Language } from '@sutura/domain/i18n';
import {
  disagreementsOf,
  drawsSecondReview,
  largestGap,
  MAX_REVIEW_ROUNDS,
  SECOND_REVIEW_SHARE_KEY,
  secondReviewShareSchema,
  type Disagreement,
  type DisagreementListQuery,
  type MoreReviewResponse,
  type ReviewSettings,
  type ReviewSettingsView,
} from '@sutura/domain/review';
import type { Db } from '../../db/client.ts';
import { analyses, appState, disagreements, surgeries, users, videos, videoSteps } from '../../db/schema.ts';
import type { RequestUser } from '../../http/access.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { Audit } from '../audit/audit.service.ts';
import type { ClaimsTx } from '../claims/claims.service.ts';
import { localName, surgeryNamesOf } from '../cases/names.ts';
import { aboutCase, type NotificationService, type RealtimeHub } from '../notifications/notifications.service.ts';

type Tx = Db | ClaimsTx;

/**
 * The double review (docs/double-review.md): the share of cases drawn for a second review, the
 * draw, an administrator's request of another review, and the disagreements between reviews.
 */
export function createReviewService(deps: {
  db: Db;
  audit: Audit;
  notifications: NotificationService;
  hub: RealtimeHub;
  clock: () => Date;
  /** Uniform in [0, 1): injected, so that tests draw known numbers. */
  random?: () => number;
}) {
  const { db, audit, notifications, hub, clock } = deps;
  const random = deps.random ?? Math.random;

  async function defaultShare(tx: Tx = db): Promise<number> {
    const [row] = await tx.select().from(appState).where(eq(appState.key, SECOND_REVIEW_SHARE_KEY));
    const parsed = secondReviewShareSchema.safeParse((row?.value as { share?: unknown } | undefined)?.share);
    return parsed.success ? parsed.data : 0;
  }

  /** The disagreement rows of the reviews submitted so far (all rounds), written in `tx`. */
  async function recordDisagreement(tx: Tx, videoId: string, stepIds: string[]) {
    const reviews = await tx
      .select({ round: analyses.round, kpiRatings: analyses.kpiRatings, stepRatings: analyses.stepRatings })
      .from(analyses)
      .where(and(eq(analyses.videoId, videoId), eq(analyses.status, 'submitted')));
    const items = disagreementsOf(reviews, stepIds);
    if (!items.length) {
      await tx.delete(disagreements).where(eq(disagreements.videoId, videoId));
      return false;
    }
    const row = {
      items,
      maxGap: largestGap(items),
      status: 'flagged',
      flaggedAt: clock(),
      resolvedById: null,
      resolvedAt: null,
      note: null,
    };
    await tx
      .insert(disagreements)
      .values({ videoId, ...row })
      .onConflictDoUpdate({ target: disagreements.videoId, set: row });
    return true;
  }

  return {
    defaultShare,

    async settings(): Promise<ReviewSettings> {
      return { secondReviewShare: await defaultShare() };
    },

    /** The default and every surgery's override (null: the default applies). */
    async settingsWithSurgeries(lang: Language): Promise<ReviewSettingsView> {
      const rows = await db
        .select({ id: surgeries.id, nameFr: surgeries.nameFr, nameEn: surgeries.nameEn, share: surgeries.secondReviewShare })
        .from(surgeries)
        .where(isNull(surgeries.retiredAt))
        .orderBy(asc(surgeries.position), asc(surgeries.id));
      return {
        secondReviewShare: await defaultShare(),
        surgeries: rows.map((r) => ({ id: r.id, name: localName(r, lang), secondReviewShare: r.share })),
      };
    },

    async setSurgeryShare(viewer: RequestUser, surgeryId: string, share: number | null, ip: string | null) {
      const [row] = await db
        .update(surgeries)
        .set({ secondReviewShare: share })
        .where(eq(surgeries.id, surgeryId))
        .returning({ id: surgeries.id });
      if (!row) throw notFound();
      await audit(viewer.id, 'review.settings_changed', 'surgery', surgeryId, ip, { to: share });
      return { id: surgeryId, secondReviewShare: share };
    },

    async setSettings(viewer: RequestUser, body: ReviewSettings, ip: string | null): Promise<ReviewSettings> {
      const before = await defaultShare();
      await db
        .insert(appState)
        .values({ key: SECOND_REVIEW_SHARE_KEY, value: { share: body.secondReviewShare }, updatedAt: clock() })
        .onConflictDoUpdate({ target: appState.key, set: { value: { share: body.secondReviewShare }, updatedAt: clock() } });
      if (before !== body.secondReviewShare) {
        await audit(viewer.id, 'review.settings_changed', 'surgery', null, ip, { from: before, to: body.secondReviewShare });
      }
      return { secondReviewShare: body.secondReviewShare };
    },

    /**
     * The draw, once per case, when it enters the analysis stage (in that transaction): the
     * surgery's share or the installation's, and a number drawn in [0, 1), both recorded.
     */
    async draw(tx: Tx, videoId: string): Promise<void> {
      const [video] = await tx
        .select({ surgeryId: videos.surgeryId, share: videos.secondReviewShare, reviewsRequired: videos.reviewsRequired })
        .from(videos)
        .where(eq(videos.id, videoId));
      if (!video || video.share !== null) return;
      const [surgery] = video.surgeryId
        ? await tx.select({ share: surgeries.secondReviewShare }).from(surgeries).where(eq(surgeries.id, video.surgeryId))
        : [];
      const share = surgery?.share ?? (await defaultShare(tx));
      const drawn = random();
      const twice = drawsSecondReview(share, drawn);
      await tx
        .update(videos)
        .set({
          secondReviewShare: share,
          secondReviewDraw: drawn,
          ...(twice ? { reviewsRequired: Math.max(2, video.reviewsRequired), secondReviewReason: 'drawn' } : {}),
        })
        .where(eq(videos.id, videoId));
    },

    /** In the submit's transaction of the last required review (see analysis.workspace): true when flagged. */
    recordDisagreement,

    /**
     * Once a flag is committed: every active administrator is told in the app (and by mail where
     * they asked for the analysis notifications), with a link to the disagreements.
     */
    async tellFlagged(videoId: string): Promise<void> {
      const [row] = await db
        .select({ video: videos, maxGap: disagreements.maxGap })
        .from(disagreements)
        .innerJoin(videos, eq(videos.id, disagreements.videoId))
        .where(and(eq(disagreements.videoId, videoId), eq(disagreements.status, 'flagged')));
      if (!row) return;
      const admins = await db
        .select({ id: users.id })
        .from(users)
        .where(and(sql`${users.roles} @> array['administrator']::text[]`, isNull(users.deactivatedAt)));
      const params = { ...aboutCase(await surgeryNamesOf(db, row.video.surgeryId), row.video), gap: row.maxGap };
      for (const admin of admins) {
        await notifications.notify(admin.id, 'casesDisagree', params, `/admin/disagreements?status=flagged`);
      }
    },

    /**
     * An administrator sends an analysed case for another review: a second for any, a third for a
     * flagged one. The case goes to the review pool; its learner keeps their result meanwhile.
     */
    async requestReview(viewer: RequestUser, videoId: string, ip: string | null): Promise<MoreReviewResponse> {
      const result = await db.transaction(async (tx) => {
        const [video] = await tx.select().from(videos).where(eq(videos.id, videoId)).for('update');
        if (!video || video.purpose !== 'case' || video.kind !== 'video') throw notFound();
        if (video.status !== 'analysed') throw new AppError('REVIEW_NOT_POSSIBLE');
        const submitted = await tx
          .select({ round: analyses.round })
          .from(analyses)
          .where(and(eq(analyses.videoId, videoId), eq(analyses.status, 'submitted')));
        const done = submitted.length;
        const [flag] = await tx.select().from(disagreements).where(eq(disagreements.videoId, videoId));
        // A second review of any analysed case; a third only for a flagged disagreement.
        const possible = done === 1 || (done === 2 && flag?.status === 'flagged');
        if (!possible || done >= MAX_REVIEW_ROUNDS) throw new AppError('REVIEW_NOT_POSSIBLE');
        const round = done + 1;
        await tx
          .update(videos)
          .set({
            status: 'pending_review',
            reviewRound: round,
            reviewsRequired: round,
            ...(round === 2 ? { secondReviewReason: 'requested' } : {}),
            claimHolderId: null,
            leaseEndsAt: null,
            updatedAt: clock(),
          })
          .where(eq(videos.id, videoId));
        if (round === 3) {
          await tx
            .update(disagreements)
            .set({ status: 'third_review', resolvedById: viewer.id, resolvedAt: clock() })
            .where(eq(disagreements.videoId, videoId));
        }
        return { video, round };
      });
      await audit(viewer.id, 'review.requested', 'video', videoId, ip, { round: result.round });
      hub.emitToRole('expert', ANALYSIS_SOCKET_EVENTS.poolChanged, { videoId, change: 'sent' });
      // The learner keeps their result; they hear that another expert reviews the case.
      await notifications.notify(
        result.video.authorId,
        'secondReviewStarted',
        aboutCase(await surgeryNamesOf(db, result.video.surgeryId), result.video),
        `/videos/${videoId}`,
      );
      return { videoId, reviewsRequired: result.round, status: 'pending_review' };
    },

    /** The flagged cases for administrators, newest first, by status and surgery. */
    async list(query: DisagreementListQuery, lang: Language): Promise<{ items: Disagreement[] }> {
      const where: SQL[] = [];
      if (query.status) where.push(eq(disagreements.status, query.status));
      if (query.surgeryId) where.push(eq(videos.surgeryId, query.surgeryId));
      const rows = await db
        .select({
          d: disagreements,
          surgery: { nameFr: surgeries.nameFr, nameEn: surgeries.nameEn },
          author: { firstName: users.firstName, lastName: users.lastName },
          caseCreatedAt: videos.createdAt,
        })
        .from(disagreements)
        .innerJoin(videos, eq(videos.id, disagreements.videoId))
        .innerJoin(users, eq(users.id, videos.authorId))
        .leftJoin(surgeries, eq(surgeries.id, videos.surgeryId))
        .where(and(...where))
        .orderBy(desc(disagreements.flaggedAt), asc(disagreements.videoId))
        .limit(200);
      const names = await stepNames(
        db,
        rows.map((r) => r.d.videoId),
        lang,
      );
      return {
        items: rows.map(({ d, surgery, author, caseCreatedAt }) => ({
          videoId: d.videoId,
          surgery: surgery?.nameFr ? localName(surgery as { nameFr: string; nameEn: string }, lang) : null,
          author,
          caseCreatedAt: caseCreatedAt.toISOString(),
          status: d.status as Disagreement['status'],
          maxGap: d.maxGap,
          items: d.items.map((i) => ({ ...i, name: itemName(i, names, lang) })),
          flaggedAt: d.flaggedAt.toISOString(),
          resolvedAt: d.resolvedAt?.toISOString() ?? null,
          note: d.note,
        })),
      };
    },

    /** The disagreement of one case, named in the reader's language (null without one). */
    async ofCase(videoId: string, lang: Language) {
      const [d] = await db.select().from(disagreements).where(eq(disagreements.videoId, videoId));
      if (!d) return null;
      const names = await stepNames(db, [videoId], lang);
      return { status: d.status, items: d.items.map((i) => ({ ...i, name: itemName(i, names, lang) })) };
    },

    /** An administrator marks a flagged case discussed, with a note (audited). */
    async markDiscussed(viewer: RequestUser, videoId: string, note: string, ip: string | null) {
      const [row] = await db
        .update(disagreements)
        .set({ status: 'discussed', note, resolvedById: viewer.id, resolvedAt: clock() })
        .where(and(eq(disagreements.videoId, videoId), inArray(disagreements.status, ['flagged', 'third_review'])))
        .returning();
      if (!row) {
        const [exists] = await db.select({ id: disagreements.videoId }).from(disagreements).where(eq(disagreements.videoId, videoId));
        if (!exists) throw notFound();
        throw new AppError('REVIEW_NOT_POSSIBLE');
      }
      await audit(viewer.id, 'review.disagreement_discussed', 'video', videoId, ip, { maxGap: row.maxGap });
      return { videoId, status: 'discussed' as const };
    },
  };
}
export type ReviewService = ReturnType<typeof createReviewService>;

async function stepNames(db: Db, videoIds: string[], lang: Language): Promise<Map<string, string>> {
  if (!videoIds.length) return new Map();
  const rows = await db
    .select({ id: videoSteps.id, name: videoSteps.name, surgeryStepId: videoSteps.surgeryStepId })
    .from(videoSteps)
    .where(inArray(videoSteps.videoId, videoIds));
  void lang;
  return new Map(rows.map((r) => [r.id, r.name]));
}

function itemName(item: { kind: 'kpi' | 'step'; key: string }, steps: Map<string, string>, lang: Language): string {
  if (item.kind === 'kpi') return KPI_DEFINITIONS[item.key as Kpi]?.name[lang] ?? item.key;
  return steps.get(item.key) ?? '';
}
