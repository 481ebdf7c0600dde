import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Comparison, ComparisonChoices } from '@sutura/domain/comparison';
import { surgeries, surgerySteps, videoSteps, videos } from '../src/db/schema.ts';
import { seedDemoReferenceBestCase } from '../src/demo/best-cases.ts';
import { createTestContext, type TestContext } from './harness.ts';

let ctx: TestContext;

beforeAll(async () => {
  // Workers on: the reference clip goes through the real media pipeline.
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

describe('the demo comparison', () => {
  it('compares the analysed demo pyeloplasty with the uploaded reference best case: three steps matched, one the best case lacks', async () => {
    const db = ctx.database.db;
    await ctx.createUser('administrator', { email: 'admin@sutura.local' });
    const learner = await ctx.createUser('learner');
    const [surgery] = await db.select().from(surgeries).where(eq(surgeries.code, 'pyeloplasty'));
    const vocabulary = await db
      .select()
      .from(surgerySteps)
      .where(eq(surgerySteps.surgeryId, surgery!.id))
      .orderBy(asc(surgerySteps.position));
    // The analysed demo case as demo/analysis.ts marks it: the first four steps of the surgery over 120 s.
    const [analysed] = await db
      .insert(videos)
      .values({
        authorId: learner.id,
        status: 'analysed',
        mediaStatus: 'ready',
        surgeryId: surgery!.id,
        organId: surgery!.organId,
        duration: 120,
      })
      .returning();
    await db.insert(videoSteps).values(
      vocabulary.slice(0, 4).map((s, i) => ({
        videoId: analysed!.id,
        position: i,
        surgeryStepId: s.id,
        name: s.nameEn,
        start: i * 30,
        end: (i + 1) * 30 - (i < 3 ? 4 : 0),
      })),
    );

    await seedDemoReferenceBestCase({
      db,
      queue: ctx.queue,
      storage: ctx.storage,
      scratch: ctx.services.scratch,
      log: ctx.app.log as never,
    });

    // Shown once the pipeline has made its video playable.
    const deadline = Date.now() + 120_000;
    let choices: ComparisonChoices | undefined;
    while (Date.now() < deadline) {
      const res = await ctx.inject({ method: 'GET', url: `/v1/videos/${analysed!.id}/comparison?langCode=en`, token: learner.token });
      expect(res.statusCode, res.body).toBe(200);
      choices = (res.json() as { data: ComparisonChoices }).data;
      if (choices.bestCases.length) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(choices!.bestCases).toHaveLength(1);
    expect(choices!.bestCases[0]!.title).toBe('Pyeloplasty: exposure first');
    expect(choices!.bestCases[0]!.duration).toBeCloseTo(96, 0);

    const res = await ctx.inject({
      method: 'GET',
      url: `/v1/videos/${analysed!.id}/comparison/${choices!.bestCases[0]!.id}?langCode=en`,
      token: learner.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    const { bestCase, rows } = (res.json() as { data: Comparison }).data;
    expect(bestCase.videoUrl).toMatch(/\/v1\/media\//);
    expect(rows.map((r) => [r.caseStepId !== null, r.bestStepId !== null])).toEqual([
      [true, true],
      [true, true],
      [true, true],
      [true, false],
    ]);
    expect(bestCase.steps.every((s) => s.note && s.note.length > 10)).toBe(true);
  }, 180_000);
});
