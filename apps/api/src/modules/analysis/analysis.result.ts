import { eq } from 'drizzle-orm';
import { activeTimes, KPIS, type AnalysisResult, type RatingLevel } from '@sutura/domain/analysis';
import type { Language } from '@sutura/domain/i18n';
import type { Db } from '../../db/client.ts';
import { users, videos } from '../../db/schema.ts';
import type { RequestUser } from '../../http/access.ts';
import { AppError, notFound } from '../../http/errors.ts';

import type { CaseReads } from '../cases/case-read.ts';
import { markResultSeen, reportComparison } from '../self-assessment/self-assessment.service.ts';
import type { AnalysisDrafts } from './analysis.drafts.ts';

/** The learner's result of a submitted analysis, and what its PDF report needs. */
export function createAnalysisResult(deps: { db: Db; cases: CaseReads; drafts: AnalysisDrafts; clock: () => Date }) {
  const { db, cases, drafts, clock } = deps;
  const { stepsOf, voiceOf, commentsOf, analysisRow } = drafts;

  /** Who may read a submitted analysis: its learner, and administrators; 404 for anyone else. */
  async function readableResult(viewer: RequestUser, videoId: string) {
    const [video] = await db.select().from(videos).where(eq(videos.id, videoId));
    const isAuthor = video?.authorId === viewer.id;
    const isAdmin = viewer.roles.includes('administrator');
    if (!video || (!isAuthor && !isAdmin)) throw notFound();
    const analysis = await analysisRow(video.id);
    if (video.status !== 'analysed' || analysis?.status !== 'submitted') throw new AppError('ANALYSIS_NOT_READY');
    return { video, analysis, isAuthor };
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
