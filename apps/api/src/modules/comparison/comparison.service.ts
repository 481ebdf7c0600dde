import { matchSteps, type Comparison, type ComparisonChoices, type ComparisonSide } from '@sutura/domain/comparison';
import type { Language } from '@sutura/domain/i18n';
import type { VideoDetail } from '@sutura/domain/videos';
import type { RequestUser } from '../../http/access.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { BestCaseService } from '../best-cases/best-cases.service.ts';
import type { VideoService } from '../videos/videos.service.ts';

/**
 * Comparing a case, or a best case, with a published best case of the same surgery, step by step
 * (docs/comparison.md). Who may see the case is the case read model's rule (its author, the people
 * it is shared with, administrators); the other side is always a visible best case.
 */
export function createComparisonService(deps: { videos: VideoService; bestCases: BestCaseService }) {
  const { videos, bestCases } = deps;

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
  async function otherSide(viewer: RequestUser, bestCaseId: string, surgeryId: string | null, videoId: string, lang: Language) {
    const other = await bestCases.comparisonSide(viewer, bestCaseId, lang);
    if (!surgeryId || other.surgeryId !== surgeryId || other.videoId === videoId) throw notFound();
    return other.side;
  }

  const compare = (subject: ComparisonSide, bestCase: ComparisonSide): Comparison => ({
    subject,
    bestCase,
    rows: matchSteps(subject.steps, bestCase.steps),
  });

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
      return compare(caseSide(video), await otherSide(viewer, bestCaseId, video.surgery?.id ?? null, video.id, lang));
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
      return compare(side, await otherSide(viewer, otherId, surgeryId, videoId, lang));
    },
  };
}
export type ComparisonService = ReturnType<typeof createComparisonService>;
