import { randomUUID } from 'node:crypto';
import { asc, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminBestCaseDetail } from '@sutura/domain/best-cases';
import type { Comparison, ComparisonChoices } from '@sutura/domain/comparison';
import type { Role } from '@sutura/domain/roles';
import { analyses, bestCases, media, surgeries, surgerySteps, videoShares, videoSteps, videos } from '../src/db/schema.ts';
import { createTestContext, type TestContext } from './harness.ts';

type Person = Awaited<ReturnType<TestContext['createUser']>>;
type Step = { vocabulary: number | null; name?: string; start: number; end: number };

let ctx: TestContext;
const people = {} as Record<Role | 'author' | 'other' | 'sharedWith', Person>;
let surgery: typeof surgeries.$inferSelect;
let otherSurgery: typeof surgeries.$inferSelect;
let vocabulary: (typeof surgerySteps.$inferSelect)[];

/** A video row with a playable file (as the pipeline leaves it) and its steps. */
async function videoWith(
  authorId: string,
  values: Partial<typeof videos.$inferInsert>,
  steps: Step[],
  surgeryRow = surgery,
): Promise<string> {
  const db = ctx.database.db;
  const [video] = await db
    .insert(videos)
    .values({
      authorId,
      status: 'analysed',
      mediaStatus: 'ready',
      surgeryId: surgeryRow.id,
      organId: surgeryRow.organId,
      duration: 120,
      ...values,
    })
    .returning();
  const [file] = await db
    .insert(media)
    .values({
      ownerId: authorId,
      videoId: video!.id,
      kind: 'video',
      storageKey: `videos/${video!.id}/video.mp4`,
      contentType: 'video/mp4',
      size: 1,
    })
    .returning();
  await db.update(videos).set({ videoMediaId: file!.id }).where(eq(videos.id, video!.id));
  if (steps.length)
    await db.insert(videoSteps).values(
      steps.map((s, position) => ({
        videoId: video!.id,
        position,
        surgeryStepId: s.vocabulary === null ? null : vocabulary[s.vocabulary]!.id,
        name: s.name ?? (s.vocabulary === null ? 'Free step' : vocabulary[s.vocabulary]!.nameEn),
        start: s.start,
        end: s.end,
      })),
    );
  return video!.id;
}

/** An uploaded best case of the administrator, published unless told otherwise. */
async function bestCase(steps: Step[], opts: { published?: boolean; surgeryRow?: typeof surgery; title?: string } = {}) {
  const surgeryRow = opts.surgeryRow ?? surgery;
  const videoId = await videoWith(people.administrator.id, { purpose: 'best_case', status: 'saved' }, steps, surgeryRow);
  const published = opts.published ?? true;
  const [row] = await ctx.database.db
    .insert(bestCases)
    .values({
      videoId,
      origin: 'uploaded',
      titleFr: `${opts.title ?? 'Référence'} FR`,
      titleEn: `${opts.title ?? 'Reference'} EN`,
      descriptionFr: 'Description',
      descriptionEn: 'Description',
      surgeryId: surgeryRow.id,
      organId: surgeryRow.organId,
      consent: 'not_needed',
      published,
      publishedAt: published ? new Date() : null,
      createdById: people.administrator.id,
    })
    .returning();
  return { id: row!.id, videoId };
}

async function call<T>(person: Person | undefined, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, body?: unknown) {
  const res = await ctx.inject({ method, url, token: person?.token, ...(body === undefined ? {} : { body }) });
  return { status: res.statusCode, body: res.json() as { data: T; error?: { code: string; message: string } } };
}

let caseId: string;
let reference: { id: string; videoId: string };
let unpublished: { id: string; videoId: string };
let elsewhere: { id: string; videoId: string };
let second: { id: string; videoId: string };

beforeAll(async () => {
  ctx = await createTestContext({ workers: false });
  for (const role of ['learner', 'editor', 'expert', 'administrator', 'copil'] as const) people[role] = await ctx.createUser(role);
  people.author = await ctx.createUser('learner');
  people.other = await ctx.createUser('learner');
  people.sharedWith = await ctx.createUser('editor');
  const db = ctx.database.db;
  const rows = await db.select().from(surgeries).where(isNotNull(surgeries.organId)).orderBy(asc(surgeries.position));
  for (const row of rows) {
    const steps = await db.select().from(surgerySteps).where(eq(surgerySteps.surgeryId, row.id)).orderBy(asc(surgerySteps.position));
    if (steps.length >= 5) {
      surgery = row;
      vocabulary = steps;
      break;
    }
  }
  otherSurgery = rows.find((s) => s.id !== surgery.id)!;

  // The case: steps 0, 1, 2 of the vocabulary and a free-named one; the reference: 0, 1, 3 and the free one renamed in capitals.
  caseId = await videoWith(people.author.id, {}, [
    { vocabulary: 0, start: 0, end: 30 },
    { vocabulary: 1, start: 32, end: 70 },
    { vocabulary: 2, start: 72, end: 90 },
    { vocabulary: null, name: 'Contrôle de l’hémostase', start: 92, end: 110 },
  ]);
  await db.insert(videoShares).values({ videoId: caseId, userId: people.sharedWith.id });
  reference = await bestCase(
    [
      { vocabulary: 0, start: 0, end: 20 },
      { vocabulary: 1, start: 20, end: 65.5 },
      { vocabulary: 3, start: 65.5, end: 80 },
      { vocabulary: null, name: 'CONTROLE DE L HEMOSTASE', start: 80, end: 100 },
    ],
    { title: 'Reference' },
  );
  unpublished = await bestCase([{ vocabulary: 0, start: 0, end: 10 }], { published: false, title: 'Hidden' });
  elsewhere = await bestCase([{ vocabulary: null, start: 0, end: 10 }], { surgeryRow: otherSurgery, title: 'Elsewhere' });
  second = await bestCase([{ vocabulary: 0, start: 0, end: 50 }], { title: 'Second' });
});
afterAll(async () => {
  await ctx?.close();
});

describe('comparing an analysed case with a best case', () => {
  it('offers the published best cases of the same surgery only', async () => {
    const res = await call<ComparisonChoices>(people.author, 'GET', `/v1/videos/${caseId}/comparison?langCode=en`);
    expect(res.status).toBe(200);
    expect(res.body.data.subject).toMatchObject({ kind: 'case', id: caseId, surgery: { id: surgery.id, name: surgery.nameEn } });
    const ids = res.body.data.bestCases.map((b) => b.id);
    expect(ids.sort()).toEqual([reference.id, second.id].sort());
    expect(ids).not.toContain(unpublished.id);
    expect(ids).not.toContain(elsewhere.id);
  });

  it('never offers the best case made of the case itself', async () => {
    const [converted] = await ctx.database.db
      .insert(bestCases)
      .values({
        videoId: caseId,
        origin: 'converted',
        titleFr: 'Le même',
        titleEn: 'The same',
        descriptionFr: 'D',
        descriptionEn: 'D',
        surgeryId: surgery.id,
        consent: 'accepted',
        published: true,
        publishedAt: new Date(),
      })
      .returning();
    try {
      const res = await call<ComparisonChoices>(people.author, 'GET', `/v1/videos/${caseId}/comparison`);
      expect(res.body.data.bestCases.map((b) => b.id)).not.toContain(converted!.id);
      expect((await call(people.author, 'GET', `/v1/videos/${caseId}/comparison/${converted!.id}`)).status).toBe(404);
    } finally {
      await ctx.database.db.delete(bestCases).where(eq(bestCases.id, converted!.id));
    }
  });

  it('lines the steps up: matched by vocabulary or name, the missing and the extra ones said, durations and differences', async () => {
    const res = await call<Comparison>(people.author, 'GET', `/v1/videos/${caseId}/comparison/${reference.id}?langCode=fr`);
    expect(res.status).toBe(200);
    const { subject, bestCase: best, rows } = res.body.data;
    expect(subject).toMatchObject({ kind: 'case', id: caseId, title: surgery.nameFr });
    expect(subject.videoUrl).toMatch(/\/v1\/media\//);
    expect(best).toMatchObject({ kind: 'best_case', id: reference.id, title: 'Reference FR' });
    // Names in the reader's language for vocabulary steps.
    expect(subject.steps[0]!.name).toBe(vocabulary[0]!.nameFr);
    const nameOf = (id: string | null, side: typeof subject) => (id ? side.steps.find((s) => s.id === id)!.name : null);
    expect(rows.map((r) => [nameOf(r.caseStepId, subject), nameOf(r.bestStepId, best), r.matchedBy])).toEqual([
      [vocabulary[0]!.nameFr, vocabulary[0]!.nameFr, 'vocabulary'],
      [vocabulary[1]!.nameFr, vocabulary[1]!.nameFr, 'vocabulary'],
      [vocabulary[2]!.nameFr, null, null],
      [null, vocabulary[3]!.nameFr, null],
      ['Contrôle de l’hémostase', 'CONTROLE DE L HEMOSTASE', 'name'],
    ]);
    expect(rows.map((r) => [r.caseDuration, r.bestDuration, r.difference])).toEqual([
      [30, 20, 10],
      [38, 45.5, -7.5],
      [18, null, null],
      [null, 14.5, null],
      [18, 20, -2],
    ]);
    // Steps in seconds of the video that plays, as the results page shows them.
    expect(subject.steps.map((s) => [s.start, s.end])).toEqual([
      [0, 30],
      [32, 70],
      [72, 90],
      [92, 110],
    ]);
  });

  it('lets the people who see the case today compare it: its author, whom it is shared with, an administrator', async () => {
    for (const person of [people.author, people.sharedWith, people.administrator]) {
      expect((await call(person, 'GET', `/v1/videos/${caseId}/comparison/${reference.id}`)).status).toBe(200);
    }
  });

  it('answers 404 to anyone the case does not concern, 403 to a role that never sees cases, 401 without a token', async () => {
    for (const person of [people.other, people.learner, people.editor, people.expert]) {
      const res = await call(person, 'GET', `/v1/videos/${caseId}/comparison?langCode=en`);
      expect(res.status).toBe(404);
      expect(res.body.error?.code).toBe('NOT_FOUND');
      expect((await call(person, 'GET', `/v1/videos/${caseId}/comparison/${reference.id}`)).status).toBe(404);
    }
    expect((await call(people.copil, 'GET', `/v1/videos/${caseId}/comparison`)).body.error?.code).toBe('FORBIDDEN');
    expect((await call(people.copil, 'GET', `/v1/videos/${caseId}/comparison/${reference.id}`)).status).toBe(403);
    expect((await call(undefined, 'GET', `/v1/videos/${caseId}/comparison`)).status).toBe(401);
    expect((await call(undefined, 'GET', `/v1/videos/${caseId}/comparison/${reference.id}`)).status).toBe(401);
  });

  it('refuses an unpublished best case, one of another surgery, an unknown one and a case not analysed yet', async () => {
    for (const other of [unpublished.id, elsewhere.id, randomUUID()]) {
      const res = await call(people.author, 'GET', `/v1/videos/${caseId}/comparison/${other}`);
      expect(res.status).toBe(404);
      expect(res.body.error?.code).toBe('NOT_FOUND');
    }
    const waiting = await videoWith(people.author.id, { status: 'pending_analysis' }, [{ vocabulary: 0, start: 0, end: 5 }]);
    const res = await call(people.author, 'GET', `/v1/videos/${waiting}/comparison?langCode=en`);
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'ANALYSIS_NOT_READY', message: 'The analysis of this video is not available yet' });
    expect((await call(people.author, 'GET', `/v1/videos/${waiting}/comparison/${reference.id}`)).body.error?.code).toBe(
      'ANALYSIS_NOT_READY',
    );
    // A best case's own video is nobody's case.
    expect((await call(people.administrator, 'GET', `/v1/videos/${reference.videoId}/comparison`)).status).toBe(404);
    // A malformed id is no case either (as on every route of a case).
    expect((await call(people.author, 'GET', `/v1/videos/not-an-id/comparison`)).status).toBe(404);
  });
});

describe('the step ratings beside the durations', () => {
  /** The ids of a video's steps, in order. */
  const stepIds = async (videoId: string) =>
    (
      await ctx.database.db
        .select({ id: videoSteps.id })
        .from(videoSteps)
        .where(eq(videoSteps.videoId, videoId))
        .orderBy(asc(videoSteps.position))
    ).map((s) => s.id);
  const review = (videoId: string, round: number, stepRatings: Record<string, number | null>, status = 'submitted') =>
    ctx.database.db
      .insert(analyses)
      .values({ videoId, round, expertId: people.expert.id, status, stepRatings, submittedAt: status === 'submitted' ? new Date() : null });
  const ratings = (comparison: Comparison) => comparison.rows.map((r) => [r.caseRating, r.bestRating]);

  it('are the mean of the submitted reviews on both sides, for whoever may read the ratings of each', async () => {
    const steps: Step[] = [
      { vocabulary: 0, start: 0, end: 30 },
      { vocabulary: 1, start: 32, end: 70 },
    ];
    const rated = await videoWith(people.author.id, {}, steps);
    await ctx.database.db.insert(videoShares).values({ videoId: rated, userId: people.sharedWith.id });
    const [firstStep, secondStep] = await stepIds(rated);
    // Two reviews (a double review): 4 and 3 on the first step; the second step rated by the second review only. A draft never counts.
    await review(rated, 1, { [firstStep!]: 4, [secondStep!]: null });
    await review(rated, 2, { [firstStep!]: 3, [secondStep!]: 5 });
    await review(rated, 3, { [firstStep!]: 1, [secondStep!]: 1 }, 'draft');
    // A best case made of another learner's analysed case: its review rates its steps.
    const source = await videoWith(people.other.id, {}, [
      { vocabulary: 0, start: 0, end: 20 },
      { vocabulary: 1, start: 20, end: 50 },
    ]);
    const [sourceFirst, sourceSecond] = await stepIds(source);
    await review(source, 1, { [sourceFirst!]: 2, [sourceSecond!]: 4 });
    const [converted] = await ctx.database.db
      .insert(bestCases)
      .values({
        videoId: source,
        origin: 'converted',
        titleFr: 'Converti',
        titleEn: 'Converted',
        descriptionFr: 'D',
        descriptionEn: 'D',
        surgeryId: surgery.id,
        organId: surgery.organId,
        consent: 'accepted',
        published: true,
        publishedAt: new Date(),
        createdById: people.administrator.id,
      })
      .returning();

    const compare = async (person: Person, other: string) => {
      const res = await call<Comparison>(person, 'GET', `/v1/videos/${rated}/comparison/${other}`);
      expect(res.status).toBe(200);
      return res.body.data;
    };
    // Until the ratings reached the author (result released, self-assessment answered or skipped),
    // the comparison shows them none of their case's; an administrator reads them.
    expect(ratings(await compare(people.author, converted!.id))).toEqual([
      [null, 2],
      [null, 4],
    ]);
    await ctx.database.db.update(videos).set({ ratingsReleasedAt: new Date() }).where(eq(videos.id, rated));
    for (const person of [people.author, people.administrator]) {
      expect(ratings(await compare(person, converted!.id))).toEqual([
        [3.5, 2],
        [5, 4],
      ]);
    }
    // An uploaded best case has no review.
    expect(ratings(await compare(people.author, reference.id))).toEqual([
      [3.5, null],
      [5, null],
      [null, null],
      [null, null],
    ]);
    // Whom the case is shared with does not read its result: its ratings neither.
    expect(ratings(await compare(people.sharedWith, converted!.id))).toEqual([
      [null, 2],
      [null, 4],
    ]);

    // An author who hides their ratings sees none, on either side.
    const hiding = await ctx.createUser('learner', { preferences: { langCode: 'en', theme: 'auto', showRatings: false } });
    const hidden = await videoWith(hiding.id, {}, steps);
    await review(hidden, 1, Object.fromEntries((await stepIds(hidden)).map((id) => [id, 4])));
    await ctx.database.db.update(videos).set({ ratingsReleasedAt: new Date() }).where(eq(videos.id, hidden));
    const res = await call<Comparison>(hiding, 'GET', `/v1/videos/${hidden}/comparison/${converted!.id}`);
    expect(res.status).toBe(200);
    expect(ratings(res.body.data)).toEqual([
      [null, null],
      [null, null],
    ]);

    // Two best cases: the converted one's review rates its side.
    const both = await call<Comparison>(people.learner, 'GET', `/v1/best-cases/${converted!.id}/comparison/${second.id}`);
    expect(both.status).toBe(200);
    expect(ratings(both.body.data)).toEqual([
      [2, null],
      [4, null],
    ]);
    await ctx.database.db.delete(bestCases).where(eq(bestCases.id, converted!.id));
  });
});

describe('comparing two best cases', () => {
  it('offers the other published best cases of the surgery and compares them', async () => {
    const choices = await call<ComparisonChoices>(people.learner, 'GET', `/v1/best-cases/${reference.id}/comparison?langCode=en`);
    expect(choices.status).toBe(200);
    expect(choices.body.data.subject).toMatchObject({ kind: 'best_case', id: reference.id, title: 'Reference EN' });
    expect(choices.body.data.bestCases.map((b) => b.id)).toEqual([second.id]);
    const res = await call<Comparison>(people.expert, 'GET', `/v1/best-cases/${reference.id}/comparison/${second.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data.rows).toHaveLength(4);
    expect(res.body.data.rows[0]).toMatchObject({ matchedBy: 'vocabulary', caseDuration: 20, bestDuration: 50, difference: -30 });
  });

  it('answers 404 for an invisible best case on either side, 403 to the administration roles, 401 without a token', async () => {
    for (const [a, b] of [
      [unpublished.id, second.id],
      [reference.id, unpublished.id],
      [reference.id, elsewhere.id],
      [reference.id, reference.id],
    ]) {
      expect((await call(people.learner, 'GET', `/v1/best-cases/${a}/comparison/${b}`)).status).toBe(404);
    }
    expect((await call(people.learner, 'GET', `/v1/best-cases/${unpublished.id}/comparison`)).status).toBe(404);
    expect((await call(people.copil, 'GET', `/v1/best-cases/${reference.id}/comparison`)).status).toBe(403);
    expect((await call(people.administrator, 'GET', `/v1/best-cases/${reference.id}/comparison/${second.id}`)).status).toBe(403);
    expect((await call(undefined, 'GET', `/v1/best-cases/${reference.id}/comparison/${second.id}`)).status).toBe(401);
  });
});

describe("the administrator's notes on the steps of a best case", () => {
  const url = () => `/v1/admin/best-cases/${reference.id}/step-notes`;

  it('are written in both languages, shown in the comparison in the reader’s language (else the other one)', async () => {
    const detail = await call<AdminBestCaseDetail>(people.administrator, 'GET', `/v1/admin/best-cases/${reference.id}`);
    const [first, secondStep, third] = detail.body.data.steps;
    const res = await call<AdminBestCaseDetail>(people.administrator, 'PUT', url(), {
      notes: [
        { stepId: first!.id, noteFr: 'Exposez d’abord la jonction.', noteEn: 'Expose the junction first.' },
        { stepId: secondStep!.id, noteFr: 'Traction douce.', noteEn: '' },
        { stepId: third!.id, noteFr: '', noteEn: '' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.stepNotes).toEqual([
      { stepId: first!.id, noteFr: 'Exposez d’abord la jonction.', noteEn: 'Expose the junction first.' },
      { stepId: secondStep!.id, noteFr: 'Traction douce.', noteEn: '' },
    ]);
    const en = await call<Comparison>(people.author, 'GET', `/v1/videos/${caseId}/comparison/${reference.id}?langCode=en`);
    expect(en.body.data.bestCase.steps.map((s) => s.note)).toEqual(['Expose the junction first.', 'Traction douce.', null, null]);
    const fr = await call<Comparison>(people.author, 'GET', `/v1/videos/${caseId}/comparison/${reference.id}?langCode=fr`);
    expect(fr.body.data.bestCase.steps[0]!.note).toBe('Exposez d’abord la jonction.');
    // The case's own side never carries notes.
    expect(fr.body.data.subject.steps.every((s) => s.note === null)).toBe(true);
  });

  it('follow their steps when the steps of an uploaded best case are marked again', async () => {
    const before = await call<AdminBestCaseDetail>(people.administrator, 'GET', `/v1/admin/best-cases/${reference.id}`);
    const res = await call<AdminBestCaseDetail>(people.administrator, 'PUT', `/v1/admin/best-cases/${reference.id}/steps`, {
      steps: [
        { surgeryStepId: vocabulary[4]!.id, start: 0 },
        { surgeryStepId: vocabulary[0]!.id, start: 10 },
        { surgeryStepId: vocabulary[1]!.id, start: 40 },
      ],
    });
    expect(res.status).toBe(200);
    const stepIds = res.body.data.steps.map((s) => s.id);
    expect(stepIds).not.toContain(before.body.data.steps[0]!.id);
    expect(res.body.data.stepNotes).toEqual([
      { stepId: stepIds[1], noteFr: 'Exposez d’abord la jonction.', noteEn: 'Expose the junction first.' },
      { stepId: stepIds[2], noteFr: 'Traction douce.', noteEn: '' },
    ]);
  });

  it('refuses a step of another video, a repeated step and a text too long, changing nothing', async () => {
    const detail = await call<AdminBestCaseDetail>(people.administrator, 'GET', `/v1/admin/best-cases/${reference.id}`);
    const [own] = detail.body.data.steps;
    const [foreign] = await ctx.database.db.select().from(videoSteps).where(eq(videoSteps.videoId, caseId));
    for (const notes of [
      [{ stepId: foreign!.id, noteFr: 'x' }],
      [
        { stepId: own!.id, noteFr: 'x' },
        { stepId: own!.id, noteEn: 'y' },
      ],
      [{ stepId: own!.id, noteFr: 'x'.repeat(2001) }],
      [{ stepId: 'nope', noteFr: 'x' }],
    ]) {
      const res = await call(people.administrator, 'PUT', `${url()}?langCode=en`, { notes });
      expect(res.status).toBe(400);
      expect(['VALIDATION', 'TEXT_TOO_LONG', 'INVALID_VALUE']).toContain(res.body.error?.code);
      expect(res.body.error?.message).toMatch(/[a-z]/);
    }
    const after = await call<AdminBestCaseDetail>(people.administrator, 'GET', `/v1/admin/best-cases/${reference.id}`);
    expect(after.body.data.stepNotes).toEqual(detail.body.data.stepNotes);
  });

  it('are written by administrators only: 403 for copil and the practice roles, 404 for an unknown best case, 401 without a token', async () => {
    for (const role of ['copil', 'learner', 'editor', 'expert'] as const) {
      expect((await call(people[role], 'PUT', url(), { notes: [] })).status).toBe(403);
    }
    expect((await call(people.administrator, 'PUT', `/v1/admin/best-cases/${randomUUID()}/step-notes`, { notes: [] })).status).toBe(404);
    expect((await call(undefined, 'PUT', url(), { notes: [] })).status).toBe(401);
  });

  it('are cleared by an empty list', async () => {
    const res = await call<AdminBestCaseDetail>(people.administrator, 'PUT', url(), { notes: [] });
    expect(res.body.data.stepNotes).toEqual([]);
  });
});

describe("the administrator's teaching drawings on a best case", () => {
  const ellipse = { kind: 'ellipse', color: 'cyan', center: [0.3, 0.4], rx: 0.12, ry: 0.15 } as const;
  const arrow = { kind: 'arrow', color: 'yellow', from: [0.8, 0.8], to: [0.55, 0.6] } as const;

  it('come with the best case in the comparison, in time order with their notes, on either side; the case side has none', async () => {
    const url = `/v1/admin/best-cases/${reference.id}/drawings`;
    const late = await call<{ id: string }>(people.administrator, 'POST', url, {
      note: 'Dissect in this plane.',
      drawing: { time: 30.04, shapes: [ellipse] },
    });
    expect(late.status).toBe(201);
    const early = await call<{ id: string }>(people.administrator, 'POST', url, {
      note: 'The ureter runs here.',
      drawing: { time: 5, shapes: [arrow, ellipse] },
    });
    expect(early.status).toBe(201);

    const res = await call<Comparison>(people.author, 'GET', `/v1/videos/${caseId}/comparison/${reference.id}?langCode=en`);
    expect(res.status).toBe(200);
    expect(res.body.data.bestCase.drawings).toEqual([
      { id: early.body.data.id, note: 'The ureter runs here.', drawing: { time: 5, shapes: [arrow, ellipse] } },
      { id: late.body.data.id, note: 'Dissect in this plane.', drawing: { time: 30.04, shapes: [ellipse] } },
    ]);
    expect(res.body.data.subject.drawings).toEqual([]);

    // Two best cases: each side carries its own.
    const pair = await call<Comparison>(people.learner, 'GET', `/v1/best-cases/${second.id}/comparison/${reference.id}`);
    expect(pair.status).toBe(200);
    expect(pair.body.data.subject.drawings).toEqual([]);
    expect(pair.body.data.bestCase.drawings.map((d) => d.note)).toEqual(['The ureter runs here.', 'Dissect in this plane.']);
    const reverse = await call<Comparison>(people.learner, 'GET', `/v1/best-cases/${reference.id}/comparison/${second.id}`);
    expect(reverse.body.data.subject.drawings.map((d) => d.id)).toEqual([early.body.data.id, late.body.data.id]);

    // A drawing removed leaves the comparison.
    expect((await call(people.administrator, 'DELETE', `${url}/${early.body.data.id}`)).status).toBe(200);
    const after = await call<Comparison>(people.author, 'GET', `/v1/videos/${caseId}/comparison/${reference.id}`);
    expect(after.body.data.bestCase.drawings.map((d) => d.id)).toEqual([late.body.data.id]);
    expect((await call(people.administrator, 'DELETE', `${url}/${late.body.data.id}`)).status).toBe(200);
  });
});
