import { and, asc, eq } from 'drizzle-orm';
import { activeTimes, KPIS, type AnalysisResult, type RatingLevel } from '@sutura/domain/analysis';
import type { Language } from '@sutura/domain/i18n';
import type { Db } from '../../db/client.ts';
import { analyses, users, videos, videoSteps } from '../../db/schema.ts';
import type { ReviewService } from '../review/review.service.ts';
import type { RequestUser } from '../../http/access.ts';
import { AppError, notFound } from '../../http/errors.ts';

import type { CaseReads } from '../cases/case-read.ts';
import { markResultSeen, reportComparison } from '../self-assessment/self-assessment.service.ts';
import type { AnalysisDrafts } from './analysis.drafts.ts';

/** The learner's result of a submitted analysis, and what its PDF report needs. */
export function createAnalysisResult(deps: {
  db: Db;
  cases: CaseReads;
  drafts: AnalysisDrafts;
  review: Pick<ReviewService, 'ofCase'>;
  clock: () => Date;
}) {
  const { db, cases, drafts, review, clock } = deps;
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

  /** The submitted reviews, round by round, each with its expert's name. */
  async function submittedReviews(videoId: string, viewerId: string, rating: (value: number | null | undefined) => RatingLevel | null) {
    const rows = await db
      .select({ a: analyses, firstName: users.firstName, lastName: users.lastName })
      .from(analyses)
      .leftJoin(users, eq(users.id, analyses.expertId))
      .where(and(eq(analyses.videoId, videoId), eq(analyses.status, 'submitted')))
      .orderBy(asc(analyses.round));
    const stepIds = (
      await db.select({ id: videoSteps.id }).from(videoSteps).where(eq(videoSteps.videoId, videoId)).orderBy(asc(videoSteps.position))
    ).map((s) => s.id);
    return Promise.all(
      rows.map(async ({ a, firstName, lastName }) => ({
        round: a.round,
        expert: { id: a.expertId ?? '', firstName: firstName ?? '', lastName: lastName ?? '' },
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
      // Served to its author: the self-assessment of the case is locked from now on.
      if (isAuthor) await markResultSeen(db, video.id, viewer.id, clock());
      const ratingsShown = isAuthor ? viewer.preferences.showRatings : true;
      const rating = (value: number | null | undefined) => (ratingsShown && value ? (value as RatingLevel) : null);
      const steps = await stepsOf(video.id, lang);
      const [expert] = analysis.expertId
        ? await db
            .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
            .from(users)
            .where(eq(users.id, analysis.expertId))
        : [];
      const times = activeTimes(steps, video.duration ?? 0);
      const reviews = await submittedReviews(video.id, viewer.id, rating);
      const mean = (values: (number | null)[]) => {
        const rated = values.filter((v): v is number => v !== null);
        return rated.length ? Math.round((rated.reduce((a, b) => a + b, 0) / rated.length) * 10) / 10 : null;
      };
      const disagreement = reviews.length > 1 ? await review.ofCase(video.id, lang) : null;
      return {
        videoId: video.id,
        ratingsShown,
        expert: expert ?? { id: analysis.expertId ?? '', firstName: '', lastName: '' },
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
  return service;
}
