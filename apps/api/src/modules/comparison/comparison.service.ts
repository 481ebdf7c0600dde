import { matchSteps, type Comparison, type ComparisonChoices, type ComparisonSide } from '@sutura/domain/comparison';
import type { Language } from '@sutura/domain/i18n';
import type { VideoDetail } from '@sutura/domain/videos';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { videos as videoRows } from '../../db/schema.ts';
import type { RequestUser } from '../../http/access.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { BestCaseService } from '../best-cases/best-cases.service.ts';
import type { VideoService } from '../videos/videos.service.ts';
import { stepRatingsOf } from './comparison.ratings.ts';

/** A side of the comparison and the video whose reviews rate its steps (none: its ratings are not shown to the caller). */
type RatedSide = { side: ComparisonSide; ratedVideoId: string | null };

/**
 * Comparing a case, or a best case, with a published best case of the same surgery, step by step
 * (docs/comparison.md). Who may see the case is the case read model's rule (its author, the people
 * it is shared with, administrators); the other side is always a visible best case.
 */
export function createComparisonService(deps: { db: Db; videos: VideoService; bestCases: BestCaseService }) {
  const { db, videos, bestCases } = deps;

  /**
   * Ratings as the result shows them: to administrators, and to the case's author with their ratings
   * shown once the ratings reached them (`ratings_released_at`: the result released and the
   * self-assessment answered or skipped, docs/self-assessment.md).
   */
  async function caseRatingsShown(viewer: RequestUser, video: VideoDetail): Promise<boolean> {
    if (video.access === 'admin') return true;
    if (video.access !== 'author' || !viewer.preferences.showRatings) return false;
    const [row] = await db.select({ released: videoRows.ratingsReleasedAt }).from(videoRows).where(eq(videoRows.id, video.id));
    return Boolean(row?.released);
  }
  /** A best case's ratings (its experts' reviews, when it was made of an analysed case): hidden with the caller's ratings. */
  const bestCaseRatingsShown = (viewer: RequestUser) => viewer.roles.includes('administrator') || viewer.preferences.showRatings;

  /** The caller's analysed case (404 to anyone it does not concern, ANALYSIS_NOT_READY before its result). */
  async function analysedCase(viewer: RequestUser, videoId: string, lang: Language): Promise<VideoDetail> {
    const video = await videos.detail(viewer, videoId, lang);
    if (video.status !== 'analysed' || video.kind !== 'video') throw new AppError('ANALYSIS_NOT_READY');
    return video;
  }

  const caseSide = (video: VideoDetail): ComparisonSide => ({
    kind: 'case',
    id: video.id,
    title: video.surgery?.name ?? '',
    surgery: video.surgery,
    duration: video.duration,
    videoUrl: video.videoUrl,
    posterUrl: video.posterUrl,
    storyboard: video.storyboard,
    steps: video.steps.map((step) => ({ ...step, note: null })),
    drawings: [],
  });

  /** The other side must be a visible best case of the same surgery, never the same video. */
  async function otherSide(
    viewer: RequestUser,
    bestCaseId: string,
    surgeryId: string | null,
    videoId: string,
    lang: Language,
  ): Promise<RatedSide> {
    const other = await bestCases.comparisonSide(viewer, bestCaseId, lang);
    if (!surgeryId || other.surgeryId !== surgeryId || other.videoId === videoId) throw notFound();
    return { side: other.side, ratedVideoId: bestCaseRatingsShown(viewer) ? other.videoId : null };
  }

  /** The rows of matched steps, each with both steps' ratings where the caller may read them. */
  async function compare(subject: RatedSide, bestCase: RatedSide): Promise<Comparison> {
    const ratingsOf = async (s: RatedSide) => (s.ratedVideoId ? stepRatingsOf(db, s.ratedVideoId) : new Map<string, number>());
    const [subjectRatings, bestRatings] = await Promise.all([ratingsOf(subject), ratingsOf(bestCase)]);
    const rating = (ratings: Map<string, number>, stepId: string | null) => (stepId === null ? null : (ratings.get(stepId) ?? null));
    return {
      subject: subject.side,
      bestCase: bestCase.side,
      rows: matchSteps(subject.side.steps, bestCase.side.steps).map((row) => ({
        ...row,
        caseRating: rating(subjectRatings, row.caseStepId),
        bestRating: rating(bestRatings, row.bestStepId),
      })),
    };
  }

  return {
    async caseChoices(viewer: RequestUser, videoId: string, lang: Language): Promise<ComparisonChoices> {
      const video = await analysedCase(viewer, videoId, lang);
      return {
        subject: { kind: 'case', id: video.id, title: video.surgery?.name ?? '', surgery: video.surgery },
        bestCases: await bestCases.comparable(viewer, video.surgery?.id ?? null, video.id, lang),
      };
    },

    async compareCase(viewer: RequestUser, videoId: string, bestCaseId: string, lang: Language): Promise<Comparison> {
      const video = await analysedCase(viewer, videoId, lang);
      return compare(
        { side: caseSide(video), ratedVideoId: (await caseRatingsShown(viewer, video)) ? video.id : null },
        await otherSide(viewer, bestCaseId, video.surgery?.id ?? null, video.id, lang),
      );
    },

    async bestCaseChoices(viewer: RequestUser, bestCaseId: string, lang: Language): Promise<ComparisonChoices> {
      const { side, videoId } = await bestCases.comparisonSide(viewer, bestCaseId, lang);
      return {
        subject: { kind: 'best_case', id: side.id, title: side.title, surgery: side.surgery },
        bestCases: await bestCases.comparable(viewer, side.surgery?.id ?? null, videoId, lang),
      };
    },

    async compareBestCases(viewer: RequestUser, bestCaseId: string, otherId: string, lang: Language): Promise<Comparison> {
      const { side, videoId, surgeryId } = await bestCases.comparisonSide(viewer, bestCaseId, lang);
      return compare(
        { side, ratedVideoId: bestCaseRatingsShown(viewer) ? videoId : null },
        await otherSide(viewer, otherId, surgeryId, videoId, lang),
      );
    },
  };
}
export type ComparisonService = ReturnType<typeof createComparisonService>;
