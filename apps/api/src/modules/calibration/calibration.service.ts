import { and, asc, eq, inArray, isNotNull, lt, sql, type SQL } from 'drizzle-orm';
import { buildAgreementReport, type AgreementReport, type CaseItem, type CaseReview, type ReviewedCase } from '@sutura/domain/agreement';
import { KPIS } from '@sutura/domain/analysis';
import { calibrationFilterSchema, type CalibrationFilter, type ExpertCalibration } from '@sutura/domain/calibration';
import type { ListQuery } from '@sutura/domain/query';
import { zonedDay } from '@sutura/domain/time-zone';
import type { Db } from '../../db/client.ts';
import { analyses, surgeries, users, videos } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';

/** One submitted review as read from the database, in submission order within its case. */
interface ReviewRow {
  videoId: string;
  expertId: string;
  kpiRatings: Record<string, number | null>;
  globalRating: number | null;
  stepRatings: Record<string, number | null>;
  submittedAt: Date;
}

/**
 * The calibration figures (docs/agreement.md, "Where the numbers come from"): the submitted
 * reviews of the cases reviewed by two experts or more, turned into the rating matrix that
 * `buildAgreementReport` computes on.
 */
export function createCalibrationService(deps: { db: Db; timeZone: string }) {
  const { db, timeZone } = deps;

  /** The route's filter, checked by the shared schema: a catalogue code on the first wrong field. */
  function parseFilter(filter: ListQuery['filter']): CalibrationFilter {
    const parsed = calibrationFilterSchema.safeParse(filter);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0]!;
    const known = ['FIELD_REQUIRED', 'DATE_RANGE_INVERTED'] as const;
    const code = (known as readonly string[]).includes(issue.message) ? (issue.message as (typeof known)[number]) : 'INVALID_VALUE';
    throw new AppError(code, {}, [{ path: `filter.${issue.path.join('.')}`, code }]);
  }

  async function requireSurgery(surgeryId: string | undefined) {
    if (!surgeryId) return;
    const [row] = await db.select({ id: surgeries.id }).from(surgeries).where(eq(surgeries.id, surgeryId));
    if (!row) throw new AppError('NOT_FOUND');
  }

  /**
   * The double-reviewed cases whose second review was submitted within the period, each with its
   * submitted reviews in submission order. Reviews submitted after the period's end are left out
   * (the figures as they stood at its end); a review whose expert's account was deleted has no
   * expert to compare and is left out. `hiddenFrom`: leave out the cases this expert reviews
   * blind (a review of theirs not yet submitted, or another required review not yet in).
   */
  async function reviewedCases(filter: CalibrationFilter, hiddenFrom?: string): Promise<ReviewedCase[]> {
    const { start } = zonedDay(filter.from!, timeZone);
    const { end } = zonedDay(filter.to!, timeZone);
    const where: SQL[] = [
      eq(analyses.status, 'submitted'),
      isNotNull(analyses.expertId),
      isNotNull(analyses.submittedAt),
      lt(analyses.submittedAt, end),
      sql`${analyses.videoId} in (select a.video_id from analyses a where a.status = 'submitted' and a.expert_id is not null
        and a.submitted_at < ${end} group by a.video_id having count(distinct a.expert_id) >= 2)`,
    ];
    if (filter.surgeryId) where.push(eq(videos.surgeryId, filter.surgeryId));
    if (hiddenFrom) {
      // Blind (docs/double-review.md): not a case the expert is reviewing, nor one they reviewed
      // whose other required reviews are not all in.
      where.push(
        sql`${analyses.videoId} not in (select a.video_id from analyses a where a.expert_id = ${hiddenFrom} and a.status <> 'submitted')`,
        sql`not (${hiddenFrom} in (select a.expert_id from analyses a where a.video_id = ${videos.id} and a.expert_id is not null)
          and ${videos.reviewsRequired} > (select count(*) from analyses a where a.video_id = ${videos.id} and a.status = 'submitted'))`,
      );
    }
    const rows = (await db
      .select({
        videoId: analyses.videoId,
        expertId: analyses.expertId,
        kpiRatings: analyses.kpiRatings,
        globalRating: analyses.globalRating,
        stepRatings: analyses.stepRatings,
        submittedAt: analyses.submittedAt,
      })
      .from(analyses)
      .innerJoin(videos, eq(videos.id, analyses.videoId))
      .where(and(...where))
      .orderBy(asc(analyses.videoId), asc(analyses.submittedAt))) as ReviewRow[];

    const byCase = new Map<string, ReviewRow[]>();
    for (const row of rows) byCase.set(row.videoId, [...(byCase.get(row.videoId) ?? []), row]);
    const cases: ReviewedCase[] = [];
    for (const [caseId, reviews] of byCase) {
      // The case belongs to the period of its second review (the first by a second expert).
      const first = reviews[0]!.expertId;
      const second = reviews.find((r) => r.expertId !== first);
      if (!second || second.submittedAt < start) continue;
      cases.push({ caseId, reviews: reviews.map(toReview) });
    }
    return cases;
  }

  function toReview(row: ReviewRow): CaseReview {
    const ratings: Partial<Record<CaseItem, number | null>> = { global: row.globalRating };
    for (const kpi of KPIS) ratings[kpi] = row.kpiRatings[kpi] ?? null;
    return { expertId: row.expertId, ratings, stepRatings: row.stepRatings };
  }

  async function expertNames(cases: readonly ReviewedCase[]): Promise<{ id: string; name: string }[]> {
    const ids = [...new Set(cases.flatMap((c) => c.reviews.map((r) => r.expertId)))];
    if (!ids.length) return [];
    const rows = await db
      .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
      .from(users)
      .where(inArray(users.id, ids));
    return rows.map((u) => ({ id: u.id, name: `${u.firstName} ${u.lastName}`.trim() }));
  }

  return {
    /** The administrators' report (and copil's): every expert by name; `expertId` narrows to one expert's view. */
    async programme(query: ListQuery['filter']): Promise<AgreementReport> {
      const filter = parseFilter(query);
      await requireSurgery(filter.surgeryId);
      if (filter.expertId) {
        const [expert] = await db.select({ id: users.id }).from(users).where(eq(users.id, filter.expertId));
        if (!expert) throw new AppError('NOT_FOUND');
      }
      const cases = await reviewedCases(filter);
      return buildAgreementReport({
        cases,
        experts: await expertNames(cases),
        from: filter.from!,
        to: filter.to!,
        surgeryId: filter.surgeryId ?? null,
        expertId: filter.expertId ?? null,
      });
    },

    /** An expert's view of themselves: their own figures, and the programme's without anyone's name. */
    async own(expertId: string, query: ListQuery['filter']): Promise<ExpertCalibration> {
      const filter = parseFilter(query);
      // An expert asks for themselves only: the filter has no expert, or it is them.
      if (filter.expertId && filter.expertId !== expertId) throw new AppError('FORBIDDEN');
      await requireSurgery(filter.surgeryId);
      const cases = await reviewedCases(filter, expertId);
      const [me] = await db.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, expertId));
      const common = { cases, from: filter.from!, to: filter.to!, surgeryId: filter.surgeryId ?? null };
      const own = buildAgreementReport({
        ...common,
        experts: me ? [{ id: expertId, name: `${me.firstName} ${me.lastName}`.trim() }] : [],
        expertId,
      });
      const programme = buildAgreementReport(common);
      return { own, programme: { ...programme, items: programme.items.map((item) => ({ ...item, experts: [] })) } };
    },
  };
}
export type CalibrationService = ReturnType<typeof createCalibrationService>;
