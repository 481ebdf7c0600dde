import { and, eq, inArray, notInArray, sql } from 'drizzle-orm';
import {
  caseRatingsOfReviews,
  learningCurve,
  type LearningCurve,
  type LearningCurveCase,
  type LearningCurveSettings,
} from '@sutura/domain/learning-curves';
import { trendDelta } from '@sutura/domain/programmes';
import type { Db } from '../../db/client.ts';
import { analyses, programmeCurves, programmeMembers, programmes, videos } from '../../db/schema.ts';
import type { ClaimsTx } from '../claims/claims.service.ts';

type Tx = Db | ClaimsTx;

/** One rated case of a learner: its surgery, its days and the means of its submitted reviews. */
export interface RatedCase extends LearningCurveCase {
  surgeryId: string;
  reviews: number;
}

export type ProgrammeRow = typeof programmes.$inferSelect;

export const settingsOf = (p: Pick<ProgrammeRow, 'p0' | 'p1' | 'alpha' | 'beta' | 'failureRule'>): LearningCurveSettings => ({
  p0: p.p0,
  p1: p.p1,
  alpha: p.alpha,
  beta: p.beta,
  failureRule: p.failureRule as LearningCurveSettings['failureRule'],
});

/**
 * The learner's cases whose ratings reached them (`ratings_released_at`, docs/self-assessment.md),
 * with a surgery, each with the means of its submitted reviews (`caseRatingsOfReviews`). One learner's
 * cases only: a few dozen rows.
 */
export async function ratedCasesOf(db: Tx, learnerId: string): Promise<RatedCase[]> {
  const rows = await db
    .select({
      videoId: videos.id,
      surgeryId: videos.surgeryId,
      operatedOn: videos.operatedOn,
      sentAt: videos.sentAt,
      createdAt: videos.createdAt,
      globalRating: analyses.globalRating,
      kpiRatings: analyses.kpiRatings,
    })
    .from(videos)
    .innerJoin(analyses, and(eq(analyses.videoId, videos.id), eq(analyses.status, 'submitted')))
    .where(
      and(
        eq(videos.authorId, learnerId),
        eq(videos.purpose, 'case'),
        sql`${videos.ratingsReleasedAt} IS NOT NULL`,
        sql`${videos.surgeryId} IS NOT NULL`,
      ),
    );
  const byCase = new Map<
    string,
    { row: (typeof rows)[number]; reviews: { globalRating: number | null; kpis: Record<string, number | null> }[] }
  >();
  for (const row of rows) {
    const entry = byCase.get(row.videoId) ?? { row, reviews: [] };
    entry.reviews.push({ globalRating: row.globalRating, kpis: row.kpiRatings });
    byCase.set(row.videoId, entry);
  }
  return [...byCase.values()].map(({ row, reviews }) => ({
    videoId: row.videoId,
    surgeryId: row.surgeryId!,
    operatedOn: row.operatedOn,
    sentAt: (row.sentAt ?? row.createdAt).toISOString(),
    reviews: reviews.length,
    ...caseRatingsOfReviews(reviews),
  }));
}

/** The learner's curve for each surgery they have rated cases of, under the settings. */
export function curvesBySurgery(
  cases: readonly RatedCase[],
  settings: LearningCurveSettings,
  timeZone: string,
): Map<string, LearningCurve> {
  const bySurgery = new Map<string, RatedCase[]>();
  for (const c of cases) bySurgery.set(c.surgeryId, [...(bySurgery.get(c.surgeryId) ?? []), c]);
  return new Map([...bySurgery].map(([surgeryId, list]) => [surgeryId, learningCurve(list, settings, { timeZone })]));
}

/** A signal the directors are to be told of: a learner became proficient, or relapsed, at a surgery. */
export interface CurveSignal {
  programmeId: string;
  learnerId: string;
  surgeryId: string;
  kind: 'proficient' | 'relapse';
  /** The case number where the state began. */
  at: number;
}

/**
 * Writes the learner's rows of the read model for each programme they are a member of (or the one
 * given), from their rated cases, and removes those of surgeries they no longer have rated cases of.
 * With `notify`, answers the signals not told yet (a proficiency or a relapse that began at a case
 * not recorded in `notified_*`) and records them; without, records the present states as told
 * (a learner just added, settings changed: nothing new happened to the learner).
 */
export async function writeCurves(
  tx: Tx,
  learnerId: string,
  opts: { timeZone: string; notify: boolean; programmeId?: string; at: Date },
): Promise<CurveSignal[]> {
  const memberOf = await tx
    .select({ programme: programmes })
    .from(programmeMembers)
    .innerJoin(programmes, eq(programmes.id, programmeMembers.programmeId))
    .where(and(eq(programmeMembers.userId, learnerId), opts.programmeId ? eq(programmeMembers.programmeId, opts.programmeId) : undefined));
  if (memberOf.length === 0) return [];
  const cases = await ratedCasesOf(tx, learnerId);
  const signals: CurveSignal[] = [];
  for (const { programme } of memberOf) {
    const curves = curvesBySurgery(cases, settingsOf(programme), opts.timeZone);
    const before = await tx
      .select({
        surgeryId: programmeCurves.surgeryId,
        notifiedProficientAt: programmeCurves.notifiedProficientAt,
        notifiedRelapseAt: programmeCurves.notifiedRelapseAt,
      })
      .from(programmeCurves)
      .where(and(eq(programmeCurves.programmeId, programme.id), eq(programmeCurves.learnerId, learnerId)));
    const told = new Map(before.map((b) => [b.surgeryId, b]));
    for (const [surgeryId, curve] of curves) {
      const s = curve.summary;
      const last = curve.points[curve.points.length - 1];
      const previous = told.get(surgeryId);
      let notifiedProficientAt = previous?.notifiedProficientAt ?? null;
      let notifiedRelapseAt = previous?.notifiedRelapseAt ?? null;
      if (s.state === 'proficient' && s.proficientAt !== null && s.proficientAt !== notifiedProficientAt) {
        if (opts.notify) signals.push({ programmeId: programme.id, learnerId, surgeryId, kind: 'proficient', at: s.proficientAt });
        notifiedProficientAt = s.proficientAt;
      }
      if (s.state === 'relapse' && s.relapseAt !== null && s.relapseAt !== notifiedRelapseAt) {
        if (opts.notify) signals.push({ programmeId: programme.id, learnerId, surgeryId, kind: 'relapse', at: s.relapseAt });
        notifiedRelapseAt = s.relapseAt;
      }
      const values = {
        cases: s.cases,
        judged: s.judged,
        failures: s.failures,
        state: s.state,
        proficientAt: s.proficientAt,
        relapseAt: s.relapseAt,
        unacceptableAt: s.unacceptableAt,
        cusum: last?.signal ? 0 : (last?.cusum ?? 0),
        latestRating: last?.globalRating ?? null,
        latestAverage: [...curve.points].reverse().find((p) => p.globalAverage !== null)?.globalAverage ?? null,
        trend: trendDelta(curve),
        lastCaseOn: last?.date ?? null,
        notifiedProficientAt,
        notifiedRelapseAt,
        updatedAt: opts.at,
      };
      await tx
        .insert(programmeCurves)
        .values({ programmeId: programme.id, learnerId, surgeryId, ...values })
        .onConflictDoUpdate({ target: [programmeCurves.programmeId, programmeCurves.learnerId, programmeCurves.surgeryId], set: values });
    }
    const kept = [...curves.keys()];
    await tx
      .delete(programmeCurves)
      .where(
        and(
          eq(programmeCurves.programmeId, programme.id),
          eq(programmeCurves.learnerId, learnerId),
          kept.length ? notInArray(programmeCurves.surgeryId, kept) : undefined,
        ),
      );
  }
  return signals;
}

/** Every member's rows of one programme (settings changed): nothing is told. */
export async function rewriteProgramme(tx: Tx, programmeId: string, opts: { timeZone: string; at: Date }): Promise<void> {
  const members = await tx
    .select({ userId: programmeMembers.userId })
    .from(programmeMembers)
    .where(eq(programmeMembers.programmeId, programmeId));
  for (const m of members) await writeCurves(tx, m.userId, { ...opts, programmeId, notify: false });
}

/** Removes a former member's rows: nothing of theirs stays in the programme's read model. */
export async function forgetMember(tx: Tx, programmeId: string, learnerIds: string[]): Promise<void> {
  if (learnerIds.length === 0) return;
  await tx.delete(programmeCurves).where(and(eq(programmeCurves.programmeId, programmeId), inArray(programmeCurves.learnerId, learnerIds)));
}
