import { and, asc, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KPIS, type Kpi } from '@sutura/domain/analysis';
import type { Cohort, LearnerCurves, MyProgrammes, ProgrammeDetail } from '@sutura/domain/programmes';
import { analyses, auditLog, notifications, selfAssessments, surgeries, videos } from '../src/db/schema.ts';
import { createTestContext, type TestContext } from './harness.ts';
import { videoForm } from './video-fixtures.ts';

// Training programmes and learning curves (docs/learning-curves.md): who may read what, the audit
// of every read of a learner's data by someone else, and the CUSUM through the API on sequences
// worked by hand (defaults: s = 0.1862, h0 = h1 = 1.6277; 9 successes in a row signal proficiency,
// two failures in a row an unacceptable rate).

type Person = Awaited<ReturnType<TestContext['createUser']>>;
let ctx: TestContext;
let admin: Person;
let copil: Person;
let director: Person;
let otherDirector: Person;
let learner: Person;
let second: Person;
let outsider: Person;
let expertA: Person;
let expertB: Person;
let programmeId: string;
let otherProgrammeId: string;
let surgeryId: string;
let otherSurgeryId: string;

const db = () => ctx.database.db;
const en = { 'accept-language': 'en' };
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, who: Person, body?: unknown) =>
  ctx.inject({ method, url, token: who.token, headers: en, ...(body !== undefined ? { body } : {}) });
const kpis = (level: number) => Object.fromEntries(KPIS.map((k) => [k, level])) as Record<Kpi, number>;

let sent = Date.parse('2026-06-01T08:00:00Z');
/**
 * A case of `author` whose ratings reached them: analysed, its reviews submitted (one per global
 * rating given), its self-assessment skipped. `operatedOn` null: ordered by the day it was sent.
 */
async function ratedCase(author: Person, globals: number[], opts: { operatedOn?: string | null; surgery?: string; sentAt?: Date } = {}) {
  const form = await videoForm(ctx);
  const { kind: _kind, ...fields } = form;
  sent += 3600_000;
  const at = opts.sentAt ?? new Date(sent);
  const [row] = await db()
    .insert(videos)
    .values({
      ...fields,
      surgeryId: opts.surgery ?? surgeryId,
      organId: null,
      keyStepIds: [],
      authorId: author.id,
      kind: 'video',
      status: 'analysed',
      mediaStatus: 'ready',
      reviewsRequired: globals.length,
      sentAt: at,
      operatedOn: opts.operatedOn ?? null,
      resultReleasedAt: at,
    })
    .returning();
  const experts = [expertA, expertB, admin];
  for (const [i, g] of globals.entries()) {
    await db()
      .insert(analyses)
      .values({
        videoId: row!.id,
        round: i + 1,
        expertId: experts[i]!.id,
        status: 'submitted',
        globalRating: g,
        kpiRatings: kpis(g),
        advice: `Advice ${i + 1} on case ${row!.id.slice(0, 4)}`,
        submittedAt: at,
      });
  }
  await db().insert(selfAssessments).values({ videoId: row!.id, authorId: author.id, skippedAt: at });
  await db().update(videos).set({ ratingsReleasedAt: at }).where(eq(videos.id, row!.id));
  return row!.id;
}

beforeAll(async () => {
  ctx = await createTestContext({ workers: false });
  [admin, copil, director, otherDirector, learner, second, outsider, expertA, expertB] = await Promise.all([
    ctx.createUser('administrator'),
    ctx.createUser('copil'),
    ctx.createUser('expert', { firstName: 'Dora', lastName: 'Director' }),
    ctx.createUser('expert'),
    ctx.createUser('learner', { firstName: 'Lea', lastName: 'Learner' }),
    ctx.createUser('learner', { firstName: 'Sam', lastName: 'Second' }),
    ctx.createUser('learner'),
    ctx.createUser('expert'),
    ctx.createUser('expert'),
  ]);
  const list = await db().select({ id: surgeries.id }).from(surgeries).orderBy(asc(surgeries.position)).limit(2);
  surgeryId = list[0]!.id;
  otherSurgeryId = list[1]!.id;
  const created = await call('POST', '/v1/admin/programmes', admin, { name: 'Urology residents 2026', startsOn: '2026-01-01' });
  expect(created.statusCode, created.body).toBe(201);
  programmeId = (created.json().data as ProgrammeDetail).id;
  const other = await call('POST', '/v1/admin/programmes', admin, { name: 'Other programme' });
  otherProgrammeId = (other.json().data as ProgrammeDetail).id;
  for (const [url, who] of [
    [`/v1/admin/programmes/${programmeId}/members`, learner],
    [`/v1/admin/programmes/${programmeId}/members`, second],
    [`/v1/admin/programmes/${programmeId}/directors`, director],
    [`/v1/admin/programmes/${otherProgrammeId}/directors`, otherDirector],
  ] as const) {
    const res = await call('POST', url, admin, { userId: who.id });
    expect(res.statusCode, res.body).toBe(200);
  }
}, 180_000);

afterAll(async () => {
  await ctx?.close();
});

describe('the administration of programmes', () => {
  it('creates a programme with the documented defaults and validates its settings in the caller language', async () => {
    const detail = (await call('GET', `/v1/admin/programmes/${programmeId}`, admin)).json().data as ProgrammeDetail;
    expect(detail.settings).toEqual({ p0: 0.1, p1: 0.3, alpha: 0.1, beta: 0.1, failureRule: 'globalBelow3' });
    expect(detail.members.map((m) => m.id).sort()).toEqual([learner.id, second.id].sort());
    expect(detail.directors.map((d) => d.id)).toEqual([director.id]);

    const refused = await ctx.inject({
      method: 'POST',
      url: '/v1/admin/programmes',
      token: admin.token,
      headers: { 'accept-language': 'fr' },
      body: {
        name: 'X',
        startsOn: '2026-05-01',
        endsOn: '2026-04-01',
        settings: { p0: 0.3, p1: 0.1, alpha: 0.1, beta: 0.6, failureRule: 'globalBelow3' },
      },
    });
    expect(refused.statusCode).toBe(400);
    const codes = (refused.json().error.details as { path: string; code: string }[]).map((d) => `${d.path}:${d.code}`).sort();
    expect(codes).toEqual(
      ['endsOn:PROGRAMME_DATES_ORDER', 'settings.beta:LEARNING_CURVE_RISK_RANGE', 'settings.p1:LEARNING_CURVE_RATE_ORDER'].sort(),
    );
    const beta = (refused.json().error.details as { code: string; message: string }[]).find((d) => d.code === 'LEARNING_CURVE_RISK_RANGE');
    expect(beta!.message).toBe("Un risque d'erreur doit être d'au moins 1 % et inférieur à 50 %");
  });

  it('refuses a non-learner as a member and an unknown person, with catalogue errors', async () => {
    const expert = await call('POST', `/v1/admin/programmes/${programmeId}/members`, admin, { userId: expertA.id });
    expect(expert.statusCode).toBe(400);
    expect(expert.json().error.code).toBe('PROGRAMME_MEMBER_NOT_LEARNER');
    const unknown = await call('POST', `/v1/admin/programmes/${programmeId}/directors`, admin, { userId: crypto.randomUUID() });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('PROGRAMME_PERSON_NOT_FOUND');
  });

  it('lets copil read programmes but refuses every write of copil, directors and learners', async () => {
    expect((await call('GET', '/v1/admin/programmes', copil)).statusCode).toBe(200);
    expect((await call('GET', `/v1/admin/programmes/${programmeId}`, copil)).statusCode).toBe(200);
    for (const who of [copil, director, learner]) {
      expect((await call('POST', '/v1/admin/programmes', who, { name: 'Mine' })).statusCode).toBe(403);
      expect((await call('PUT', `/v1/admin/programmes/${programmeId}`, who, { name: 'Renamed' })).statusCode).toBe(403);
      expect((await call('POST', `/v1/admin/programmes/${programmeId}/members`, who, { userId: outsider.id })).statusCode).toBe(403);
      expect((await call('DELETE', `/v1/admin/programmes/${programmeId}/directors/${director.id}`, who)).statusCode).toBe(403);
      expect((await call('DELETE', `/v1/admin/programmes/${programmeId}`, who)).statusCode).toBe(403);
    }
    expect((await call('GET', '/v1/admin/programmes', director)).statusCode).toBe(403);
  });
});

describe('who reads a cohort and a learner', () => {
  it('shows the director their programmes, and the learner theirs with who directs them', async () => {
    const mine = (await call('GET', '/v1/programmes', director)).json().data as MyProgrammes;
    expect(mine.directed.map((p) => p.id)).toEqual([programmeId]);
    const own = (await call('GET', '/v1/programmes', learner)).json().data as MyProgrammes;
    expect(own.directed).toEqual([]);
    expect(own.memberOf.map((p) => p.id)).toEqual([programmeId]);
    expect(own.memberOf[0]!.directors.map((d) => `${d.firstName} ${d.lastName}`)).toEqual(['Dora Director']);
  });

  it('answers 404 to a director of another programme, a learner of it and an outsider', async () => {
    for (const who of [otherDirector, learner, outsider]) {
      expect((await call('GET', `/v1/programmes/${programmeId}/cohort`, who)).statusCode).toBe(404);
      expect((await call('GET', `/v1/programmes/${programmeId}/cohort/export`, who)).statusCode).toBe(404);
    }
    expect((await call('GET', `/v1/programmes/${programmeId}/learners/${learner.id}`, otherDirector)).statusCode).toBe(404);
    expect((await call('GET', `/v1/programmes/${programmeId}/learners/${learner.id}`, second)).statusCode).toBe(404);
    // A director cannot read a person who is not a learner of the programme through it.
    expect((await call('GET', `/v1/programmes/${programmeId}/learners/${outsider.id}`, director)).statusCode).toBe(404);
  });

  it('lets the learner read what the directors see of them, without an audit row', async () => {
    const before = await db().select().from(auditLog).where(eq(auditLog.action, 'programme.learner_viewed'));
    const res = await call('GET', `/v1/programmes/${programmeId}/learners/${learner.id}`, learner);
    expect(res.statusCode, res.body).toBe(200);
    const after = await db().select().from(auditLog).where(eq(auditLog.action, 'programme.learner_viewed'));
    expect(after.length).toBe(before.length);
  });

  it('writes an audit row for every read of a learner by a director, copil or an administrator', async () => {
    for (const who of [director, copil, admin]) {
      const res = await call('GET', `/v1/programmes/${programmeId}/learners/${second.id}`, who);
      expect(res.statusCode, res.body).toBe(200);
      const [row] = await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'programme.learner_viewed'), eq(auditLog.actorId, who.id)))
        .orderBy(desc(auditLog.createdAt));
      expect(row).toMatchObject({ entity: 'user', entityId: second.id, details: { programmeId } });
    }
    const cohort = await call('GET', `/v1/programmes/${programmeId}/cohort`, director);
    expect(cohort.statusCode).toBe(200);
    const [viewed] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'programme.cohort_viewed'), eq(auditLog.actorId, director.id)));
    expect((viewed!.details as { learners: string[] }).learners.sort()).toEqual([learner.id, second.id].sort());
  });

  it('ends a former member’s access at once: the cohort forgets them and their page answers 404', async () => {
    const leaving = await ctx.createUser('learner');
    await call('POST', `/v1/admin/programmes/${programmeId}/members`, admin, { userId: leaving.id });
    await ratedCase(leaving, [4]);
    expect((await call('GET', `/v1/programmes/${programmeId}/learners/${leaving.id}`, director)).statusCode).toBe(200);
    let cohort = (await call('GET', `/v1/programmes/${programmeId}/cohort`, director)).json().data as Cohort;
    expect(cohort.rows.some((r) => r.learnerId === leaving.id)).toBe(true);

    const removed = await call('DELETE', `/v1/admin/programmes/${programmeId}/members/${leaving.id}`, admin);
    expect(removed.statusCode).toBe(200);
    expect((await call('GET', `/v1/programmes/${programmeId}/learners/${leaving.id}`, director)).statusCode).toBe(404);
    cohort = (await call('GET', `/v1/programmes/${programmeId}/cohort`, director)).json().data as Cohort;
    expect(cohort.learners.some((l) => l.id === leaving.id)).toBe(false);
    expect(cohort.rows.some((r) => r.learnerId === leaving.id)).toBe(false);
    // Their own programmes no longer list it either.
    expect(((await call('GET', '/v1/programmes', leaving)).json().data as MyProgrammes).memberOf).toEqual([]);
  });

  it('ends a former director’s access at once', async () => {
    const leaving = await ctx.createUser('expert');
    await call('POST', `/v1/admin/programmes/${programmeId}/directors`, admin, { userId: leaving.id });
    expect((await call('GET', `/v1/programmes/${programmeId}/cohort`, leaving)).statusCode).toBe(200);
    await call('DELETE', `/v1/admin/programmes/${programmeId}/directors/${leaving.id}`, admin);
    expect((await call('GET', `/v1/programmes/${programmeId}/cohort`, leaving)).statusCode).toBe(404);
  });
});

describe('the curves through the API', () => {
  it('signals proficiency at the 9th success in a row, a relapse after two failures, and tells the directors once', async () => {
    // 9 successes: −0.1862 × 9 = −1.6755 reaches −h0 at the 9th; then two failures: 1.6277 = h1.
    const ids: string[] = [];
    for (let i = 0; i < 9; i++) ids.push(await ratedCase(learner, [4], { operatedOn: `2026-02-${String(i + 1).padStart(2, '0')}` }));
    let cohort = (await call('GET', `/v1/programmes/${programmeId}/cohort`, director)).json().data as Cohort;
    let row = cohort.rows.find((r) => r.learnerId === learner.id && r.surgery.id === surgeryId)!;
    expect(row).toMatchObject({ cases: 9, judged: 9, failures: 0, state: 'proficient', proficientAt: 9, latestRating: 4 });

    const told = () => db().select().from(notifications).where(eq(notifications.userId, director.id)).orderBy(asc(notifications.createdAt));
    let mine = await told();
    expect(mine.filter((n) => n.key === 'learnerProficient')).toHaveLength(1);
    expect(mine[0]!.link).toBe(`/programmes/${programmeId}/learners/${learner.id}`);

    // Reading again tells nobody again.
    await call('GET', `/v1/programmes/${programmeId}/cohort`, director);
    expect((await told()).filter((n) => n.key === 'learnerProficient')).toHaveLength(1);

    await ratedCase(learner, [2], { operatedOn: '2026-02-10' });
    await ratedCase(learner, [1], { operatedOn: '2026-02-11' });
    cohort = (await call('GET', `/v1/programmes/${programmeId}/cohort`, director)).json().data as Cohort;
    row = cohort.rows.find((r) => r.learnerId === learner.id && r.surgery.id === surgeryId)!;
    expect(row).toMatchObject({ cases: 11, failures: 2, state: 'relapse', proficientAt: 9, relapseAt: 11, latestRating: 1 });
    mine = await told();
    expect(mine.filter((n) => n.key === 'learnerRelapsed')).toHaveLength(1);
    const list = (await call('GET', '/v1/notification/list', director)).json().data.data as { key: string; content: string }[];
    expect(list.find((n) => n.key === 'learnerRelapsed')!.content).toContain('Lea Learner (Urology residents 2026) relapsed at');
    expect(list.find((n) => n.key === 'learnerProficient')!.content).toContain('at case 9');
    // The other director, of another programme, heard nothing.
    expect(await db().select().from(notifications).where(eq(notifications.userId, otherDirector.id))).toEqual([]);
  });

  it('tells the directors as soon as a case’s ratings reach the learner, before anyone reads the cohort', async () => {
    const third = await ctx.createUser('learner', { firstName: 'Tom', lastName: 'Third' });
    await call('POST', `/v1/admin/programmes/${programmeId}/members`, admin, { userId: third.id });
    for (let i = 0; i < 8; i++) await ratedCase(third, [4], { operatedOn: `2026-04-${String(i + 1).padStart(2, '0')}` });
    // The 9th: analysed, its result released, its self-assessment not answered yet.
    const ninth = await ratedCase(third, [5], { operatedOn: '2026-04-09' });
    await db().update(videos).set({ ratingsReleasedAt: null }).where(eq(videos.id, ninth));
    await db().delete(selfAssessments).where(eq(selfAssessments.videoId, ninth));
    const skipped = await call('POST', `/v1/videos/${ninth}/self-assessment/skip`, third, {});
    expect(skipped.statusCode, skipped.body).toBe(200);
    const told = async () =>
      (await db().select().from(notifications).where(eq(notifications.userId, director.id))).filter(
        (n) => n.key === 'learnerProficient' && n.link?.endsWith(third.id),
      );
    for (let i = 0; i < 100 && (await told()).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await told()).toHaveLength(1);
    expect((await told())[0]!.params).toMatchObject({ learner: 'Tom Third', case: 9 });
  });

  it('orders by the day of the operation, not of the upload, and counts a double-reviewed case as the mean of its reviews', async () => {
    // Sent in this order: case A (operated 3 March), case B (operated 1 March, reviews 2 and 3: mean
    // 2.5, a failure), case C (no operation day: sent 5 March 23:30 UTC, 6 March in Paris).
    const a = await ratedCase(second, [4], { operatedOn: '2026-03-03', surgery: otherSurgeryId, sentAt: new Date('2026-03-04T10:00:00Z') });
    const b = await ratedCase(second, [2, 3], {
      operatedOn: '2026-03-01',
      surgery: otherSurgeryId,
      sentAt: new Date('2026-03-05T10:00:00Z'),
    });
    const c = await ratedCase(second, [2], { surgery: otherSurgeryId, sentAt: new Date('2026-03-05T23:30:00Z') });
    const res = await call('GET', `/v1/programmes/${programmeId}/learners/${second.id}`, director);
    expect(res.statusCode, res.body).toBe(200);
    const curves = res.json().data as LearnerCurves;
    const curve = curves.curves.find((x) => x.surgery.id === otherSurgeryId)!.curve;
    expect(curve.points.map((p) => p.videoId)).toEqual([b, a, c]);
    expect(curve.points.map((p) => p.globalRating)).toEqual([2.5, 4, 2]);
    expect(curve.points.map((p) => p.goalsTotal)).toEqual([12.5, 20, 10]);
    expect(curve.points.map((p) => p.date)).toEqual(['2026-03-01', '2026-03-03', '2026-03-06']);
    expect(curve.points.map((p) => p.dateSource)).toEqual(['operation', 'operation', 'sent']);
    // 0.8138, 0.6277, 1.4415: no signal yet (a success between the two failures).
    expect(curve.points.map((p) => Number(p.cusum.toFixed(4)))).toEqual([0.8138, 0.6277, 1.4415]);
    expect(curve.points.map((p) => Number(p.globalAverage!.toFixed(2)))).toEqual([2.5, 3.25, 2.83]);
    expect(curve.summary).toMatchObject({ cases: 3, judged: 3, failures: 2, state: 'learning' });
    // The case list carries both reviews' advice for the double-reviewed case.
    expect(curves.cases.find((x) => x.videoId === b)!.advice).toHaveLength(2);
    expect(curves.cases.find((x) => x.videoId === b)!.reviews).toBe(2);

    // The learner dates case C before case A: a failure then... 2.5 (F), 2 (F) → 1.6277, unacceptable at the 2nd.
    const moved = await call('PUT', `/v1/videos/${c}/operation-day`, second, { operatedOn: '2026-03-02' });
    expect(moved.statusCode, moved.body).toBe(200);
    const again = (await call('GET', `/v1/programmes/${programmeId}/learners/${second.id}`, director)).json().data as LearnerCurves;
    const reordered = again.curves.find((x) => x.surgery.id === otherSurgeryId)!.curve;
    expect(reordered.points.map((p) => p.videoId)).toEqual([b, c, a]);
    expect(reordered.summary).toMatchObject({ state: 'unacceptable', unacceptableAt: 2, signals: [{ index: 2, kind: 'unacceptable' }] });
    expect(reordered.points.map((p) => Number(p.cusum.toFixed(4)))).toEqual([0.8138, 1.6277, -0.1862]);
    const cohort = (await call('GET', `/v1/programmes/${programmeId}/cohort`, director)).json().data as Cohort;
    expect(cohort.rows.find((r) => r.learnerId === second.id && r.surgery.id === otherSurgeryId)).toMatchObject({
      state: 'unacceptable',
      unacceptableAt: 2,
      cases: 3,
    });
  });

  it('refuses an operation day in the future or that does not exist, and lets only the author set it', async () => {
    const [id] = (await db().select({ id: videos.id }).from(videos).where(eq(videos.authorId, second.id)).limit(1)).map((r) => r.id);
    const future = await call('PUT', `/v1/videos/${id}/operation-day`, second, { operatedOn: '2999-01-01' });
    expect(future.statusCode).toBe(400);
    expect(future.json().error.details[0].code).toBe('OPERATION_DAY_FUTURE');
    const wrong = await call('PUT', `/v1/videos/${id}/operation-day`, second, { operatedOn: '2026-02-30' });
    expect(wrong.json().error.details[0].code).toBe('INVALID_DATE');
    expect((await call('PUT', `/v1/videos/${id}/operation-day`, director, { operatedOn: '2026-01-01' })).statusCode).toBe(404);
  });

  it('applies the programme’s own settings and failure rule', async () => {
    // Under "any skill below 3" with α = 0.05 the learner's curves are computed again at once.
    const res = await call('PUT', `/v1/admin/programmes/${programmeId}`, admin, {
      name: 'Urology residents 2026',
      startsOn: '2026-01-01',
      settings: { p0: 0.1, p1: 0.3, alpha: 0.05, beta: 0.1, failureRule: 'anySkillBelow3' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const curves = (await call('GET', `/v1/programmes/${programmeId}/learners/${learner.id}`, director)).json().data as LearnerCurves;
    expect(curves.settings).toMatchObject({ alpha: 0.05, failureRule: 'anySkillBelow3' });
    const curve = curves.curves.find((x) => x.surgery.id === surgeryId)!.curve;
    expect(Number(curve.limits.h1.toFixed(4))).toBe(2.1411);
    // Two failures after proficiency no longer reach h1 = 2.1411: still proficient.
    expect(curve.summary.state).toBe('proficient');
    const cohort = (await call('GET', `/v1/programmes/${programmeId}/cohort`, director)).json().data as Cohort;
    expect(cohort.rows.find((r) => r.learnerId === learner.id && r.surgery.id === surgeryId)!.state).toBe('proficient');
  });

  it('gives the learner their own curves in My statistics, and exports the cohort as CSV', async () => {
    const own = await call('GET', '/v1/stats/me/learning-curves', learner);
    expect(own.statusCode, own.body).toBe(200);
    const mine = own.json().data as LearnerCurves;
    expect(mine.programme).toBeNull();
    expect(mine.settings.failureRule).toBe('globalBelow3');
    expect(mine.curves.find((x) => x.surgery.id === surgeryId)!.curve.summary).toMatchObject({
      state: 'relapse',
      proficientAt: 9,
      relapseAt: 11,
    });
    expect((await call('GET', `/v1/stats/me/learning-curves?programmeId=${otherProgrammeId}`, learner)).statusCode).toBe(404);

    const csv = await ctx.inject({
      method: 'GET',
      url: `/v1/programmes/${programmeId}/cohort/export`,
      token: director.token,
      headers: { 'accept-language': 'fr' },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toMatch(/sutura-cohort-urology-residents-2026-\d{4}-\d{2}-\d{2}\.csv/);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Nom;Prénom;E-mail;Procédure;Cas analysés;Échecs;Dernière note globale;Moyenne des 5 derniers;Tendance;État;Maîtrise au cas;Rechute au cas;Dernier cas',
    );
    expect(lines.some((l) => l.startsWith('Learner;Lea;') && l.includes(';11;') && l.includes(';maîtrise;9;'))).toBe(true);
  });
});
