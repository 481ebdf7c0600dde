import { and, asc, eq, inArray } from 'drizzle-orm';
import { activeTimes, KPIS, type AnalysisResult, type RatingLevel, type ResultExpert } from '@sutura/domain/analysis';
import type { Language } from '@sutura/domain/i18n';
import type { Db } from '../../db/client.ts';
import { analyses, specialties, users, videos, videoSteps } from '../../db/schema.ts';
import type { ReviewService } from '../review/review.service.ts';
import type { RequestUser } from '../../http/access.ts';
import { AppError, notFound } from '../../http/errors.ts';

import type { CaseReads } from '../cases/case-read.ts';
import { localName } from '../cases/names.ts';
import type { MediaService } from '../media/media.service.ts';
import { invitationOpen, markResultSeen, reportComparison } from '../self-assessment/self-assessment.service.ts';
import type { AnalysisDrafts } from './analysis.drafts.ts';

/** The learner's result of a submitted analysis, and what its PDF report needs. */
export function createAnalysisResult(deps: {
  db: Db;
  cases: CaseReads;
  drafts: AnalysisDrafts;
  review: Pick<ReviewService, 'ofCase'>;
  mediaService: Pick<MediaService, 'urlFor'>;
  clock: () => Date;
  /** A reading of the result released the case's ratings to its author (their dashboard changed). */
  onRatingsReleased?: (authorId: string) => void;
}) {
  const { db, cases, drafts, review, mediaService, clock, onRatingsReleased } = deps;
  const { stepsOf, voiceOf, commentsOf, analysisRow } = drafts;

  /** Who may read a submitted analysis: its learner, and administrators; 404 for anyone else. */
  async function readableResult(viewer: RequestUser, videoId: string) {
    const [video] = await db.select().from(videos).where(eq(videos.id, videoId));
    const isAuthor = video?.authorId === viewer.id;
    const isAdmin = viewer.roles.includes('administrator');
    if (!video || (!isAuthor && !isAdmin)) throw notFound();
    const analysis = await analysisRow(video.id);
    // Shown once every required review is in (and kept while a further review is under way).
    const shown = video.status === 'analysed' || video.resultReleasedAt !== null;
    if (!shown || analysis?.status !== 'submitted') throw new AppError('ANALYSIS_NOT_READY');
    return { video, analysis, isAuthor };
  }

  /**
   * The experts of a case's reviews as the result page shows them: name, specialty (in the
   * reader's language) and avatar (signed for the reader), what `GET /v1/users/{id}` gives of them.
   */
  async function expertsOf(ids: string[], viewerId: string, lang: Language): Promise<Map<string, ResultExpert>> {
    const known = [...new Set(ids.filter(Boolean))];
    const rows = known.length
      ? await db
          .select({
            id: users.id,
            firstName: users.firstName,
            lastName: users.lastName,
            avatar: users.avatarMediaId,
            specialty: specialties,
          })
          .from(users)
          .leftJoin(specialties, eq(specialties.id, users.specialtyId))
          .where(inArray(users.id, known))
      : [];
    return new Map(
      rows.map((r) => [
        r.id,
        {
          id: r.id,
          firstName: r.firstName,
          lastName: r.lastName,
          specialty: r.specialty ? { id: r.specialty.id, name: localName(r.specialty, lang) } : null,
          media: r.avatar ? { id: r.avatar, url: mediaService.urlFor(r.avatar, viewerId)! } : null,
        },
      ]),
    );
  }

  /** An expert whose account is gone: their id (if any) and no name. */
  const unknownExpert = (id: string | null): ResultExpert => ({ id: id ?? '', firstName: '', lastName: '', specialty: null, media: null });

  /** The submitted reviews, round by round, each with its expert. */
  async function submittedReviews(
    videoId: string,
    viewerId: string,
    lang: Language,
    rating: (value: number | null | undefined) => RatingLevel | null,
  ) {
    const rows = await db
      .select()
      .from(analyses)
      .where(and(eq(analyses.videoId, videoId), eq(analyses.status, 'submitted')))
      .orderBy(asc(analyses.round));
    const stepIds = (
      await db.select({ id: videoSteps.id }).from(videoSteps).where(eq(videoSteps.videoId, videoId)).orderBy(asc(videoSteps.position))
    ).map((s) => s.id);
    const experts = await expertsOf(
      rows.map((a) => a.expertId ?? ''),
      viewerId,
      lang,
    );
    return Promise.all(
      rows.map(async (a) => ({
        round: a.round,
        expert: experts.get(a.expertId ?? '') ?? unknownExpert(a.expertId),
        submittedAt: a.submittedAt!.toISOString(),
        globalRating: rating(a.globalRating),
        assessment: a.assessment,
        advice: a.advice,
        voice: voiceOf(a, viewerId),
        kpis: KPIS.map((kpi) => ({ kpi, rating: rating(a.kpiRatings[kpi]) })),
        steps: stepIds.map((id) => ({ id, rating: rating(a.stepRatings[id]) })),
        comments: await commentsOf(videoId, a.round),
      })),
    );
  }

  const service = {
    /** Once submitted, for its learner (ratings only with their showRatings on) and administrators. */
    async result(viewer: RequestUser, videoId: string, lang: Language): Promise<AnalysisResult> {
      const { video, analysis, isAuthor } = await readableResult(viewer, videoId);
      return serve(viewer, video, analysis, isAuthor, lang);
    },

    /**
     * The result asked together with the case (`?ifReady=true`), before the page knows the case's
     * state: null instead of ANALYSIS_NOT_READY, for a case not (or no longer) 'analysed', and
     * for its author while the self-assessment invitation is open (the result stays unseen, so
     * the invitation comes first). The same access rules otherwise.
     */
    async resultIfReady(viewer: RequestUser, videoId: string, lang: Language): Promise<AnalysisResult | null> {
      const readable = await readableResult(viewer, videoId).catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'ANALYSIS_NOT_READY') return null;
        throw error;
      });
      if (!readable || readable.video.status !== 'analysed') return null;
      if (readable.isAuthor && (await invitationOpen(db, videoId))) return null;
      return serve(viewer, readable.video, readable.analysis, readable.isAuthor, lang);
    },

    /** What the PDF report needs, with the same reading rules as the result. */
    async reportData(viewer: RequestUser, videoId: string, lang: Language) {
      const result = await service.result(viewer, videoId, lang);
      const [video] = await db.select().from(videos).where(eq(videos.id, videoId));
      const { surgery, organ } = await cases.refs(video!, lang);
      // The author's self-assessment against the expert, with their ratings shown (docs/self-assessment.md).
      const selfAssessment = result.ratingsShown ? await reportComparison(db, videoId, viewer.id) : null;
      return { result, video: video!, surgery: surgery?.name ?? null, organ: organ?.name ?? null, selfAssessment };
    },
  };

  /** The result as served to its reader. */
  async function serve(
    viewer: RequestUser,
    video: typeof videos.$inferSelect,
    analysis: typeof analyses.$inferSelect,
    isAuthor: boolean,
    lang: Language,
  ): Promise<AnalysisResult> {
    // Served to its author: read while the invitation is open, it counts as declining it; the
    // case's ratings are theirs and the self-assessment is locked from now on.
    const released = isAuthor ? await markResultSeen(db, video.id, viewer.id, clock()) : null;
    if (released) onRatingsReleased?.(released);
    const ratingsShown = isAuthor ? viewer.preferences.showRatings : true;
    const rating = (value: number | null | undefined) => (ratingsShown && value ? (value as RatingLevel) : null);
    const steps = await stepsOf(video.id, lang);
    const times = activeTimes(steps, video.duration ?? 0);
    const reviews = await submittedReviews(video.id, viewer.id, lang, rating);
    const expert =
      reviews.find((r) => r.round === analysis.round)?.expert ??
      (await expertsOf([analysis.expertId ?? ''], viewer.id, lang)).get(analysis.expertId ?? '') ??
      unknownExpert(analysis.expertId);
    const mean = (values: (number | null)[]) => {
      const rated = values.filter((v): v is number => v !== null);
      return rated.length ? Math.round((rated.reduce((a, b) => a + b, 0) / rated.length) * 10) / 10 : null;
    };
    const disagreement = reviews.length > 1 ? await review.ofCase(video.id, lang) : null;
    return {
      videoId: video.id,
      ratingsShown,
      expert,
      submittedAt: analysis.submittedAt!.toISOString(),
      globalRating: rating(analysis.globalRating),
      assessment: analysis.assessment,
      advice: analysis.advice,
      voice: voiceOf(analysis, viewer.id),
      kpis: KPIS.map((kpi) => ({ kpi, rating: rating(analysis.kpiRatings[kpi]) })),
      steps: steps.map((s) => ({ ...s, duration: Math.round((s.end - s.start) * 10) / 10, rating: rating(analysis.stepRatings[s.id]) })),
      activeTime: times.active,
      nonActiveTime: times.nonActive,
      comments: await commentsOf(video.id),
      reportUrl: `/v1/videos/${video.id}/analysis/report`,
      reviews,
      mean: {
        globalRating: mean(reviews.map((r) => r.globalRating)),
        kpis: KPIS.map((kpi, i) => ({ kpi, rating: mean(reviews.map((r) => r.kpis[i]!.rating)) })),
        steps: steps.map((s, i) => ({ id: s.id, rating: mean(reviews.map((r) => r.steps[i]?.rating ?? null)) })),
      },
      disagreement: disagreement ? { items: disagreement.items.map((i) => ({ kind: i.kind, key: i.key, name: i.name })) } : null,
      furtherReviewPending: video.status !== 'analysed',
    };
  }

  return service;
}
