import { and, asc, eq, sql } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisResultSchema, expertWorkspaceSchema, KPIS, type Kpi } from '@sutura/domain/analysis';
import { DEFAULT_PREFERENCES } from '@sutura/domain/preferences';
import { disagreementListSchema, reviewSettingsViewSchema } from '@sutura/domain/review';
import {
  analyses,
  auditLog,
  disagreements,
  notifications,
  specialties,
  surgeries,
  surgerySteps,
  users,
  videoSteps,
  videos,
} from '../src/db/schema.ts';
import { createTestContext, type TestContext } from './harness.ts';
import { videoForm } from './video-fixtures.ts';

type Person = Awaited<ReturnType<TestContext['createUser']>>;

let ctx: TestContext;
let learner: Person;
let first: Person;
let second: Person;
let third: Person;
let admin: Person;
let formerAdmin: Person;
/** The next number the draw takes (the app's injected random source). */
let nextDraw = 0.5;

const db = () => ctx.database.db;
const nameOf = (who: Person) => (who === first ? 'Claire' : who === second ? 'Marc' : 'Inès');
const allKpis = (rating: number) => Object.fromEntries(KPIS.map((k) => [k, rating])) as Record<Kpi, number>;

beforeAll(async () => {
  ctx = await createTestContext({ random: () => nextDraw });
  learner = await ctx.createUser('learner');
  first = await ctx.createUser('expert', { firstName: 'Claire', lastName: 'Dubois' });
  second = await ctx.createUser('expert', { firstName: 'Marc', lastName: 'Lefèvre' });
  third = await ctx.createUser('expert', { firstName: 'Inès', lastName: 'Garnier' });
  admin = await ctx.createUser('administrator');
  formerAdmin = await ctx.createUser('administrator');
  await db().update(users).set({ deactivatedAt: new Date() }).where(eq(users.id, formerAdmin.id));
  await db()
    .update(users)
    .set({ specialtyId: await ctx.specialtyId() })
    .where(eq(users.id, first.id));
}, 180_000);

afterAll(async () => {
  await ctx?.close();
});

/** A rendered case with two steps, waiting in the analysis pool. */
async function preparedVideo(reviewsRequired = 1) {
  const form = await videoForm(ctx);
  const { kind: _kind, ...fields } = form;
  const [row] = await db()
    .insert(videos)
    .values({
      ...fields,
      authorId: learner.id,
      kind: 'video',
      status: 'pending_analysis',
      mediaStatus: 'ready',
      duration: 60,
      reviewsRequired,
    })
    .returning();
  const [step] = await db()
    .select()
    .from(surgerySteps)
    .where(eq(surgerySteps.surgeryId, form.surgeryId))
    .orderBy(asc(surgerySteps.position));
  await db()
    .insert(videoSteps)
    .values([
      { videoId: row!.id, position: 0, surgeryStepId: step!.id, name: step!.nameEn, start: 0, end: 20 },
      { videoId: row!.id, position: 1, surgeryStepId: null, name: 'Fermeture', start: 25, end: 50 },
    ]);
  return row!;
}

async function claim(videoId: string, who: Person) {
  const res = await ctx.inject({ method: 'POST', url: `/v1/expert/videos/${videoId}/claim`, token: who.token, body: {} });
  return res;
}

/** Claims, rates every KPI and step at `level` (and one comment), and submits. */
async function review(videoId: string, who: Person, level: number, stepLevel = level) {
  const claimed = await claim(videoId, who);
  expect(claimed.statusCode, claimed.body).toBe(200);
  const fencingToken = claimed.json().data.fencingToken as number;
  const ws = expertWorkspaceSchema.parse(
    (await ctx.inject({ method: 'GET', url: `/v1/expert/videos/${videoId}?langCode=en`, token: who.token })).json().data,
  );
  const saved = await ctx.inject({
    method: 'PUT',
    url: `/v1/expert/videos/${videoId}/analysis`,
    token: who.token,
    body: {
      fencingToken,
      kpiRatings: allKpis(level),
      stepRatings: ws.steps.map((s) => ({ stepId: s.id, rating: stepLevel })),
      globalRating: level,
      advice: `Advice of ${nameOf(who)}`,
    },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  const comment = await ctx.inject({
    method: 'POST',
    url: `/v1/expert/videos/${videoId}/comments`,
    token: who.token,
    body: { fencingToken, start: 3, text: `Comment of ${nameOf(who)}` },
  });
  expect(comment.statusCode, comment.body).toBe(201);
  const done = await ctx.inject({ method: 'POST', url: `/v1/expert/videos/${videoId}/finalize`, token: who.token, body: { fencingToken } });
  expect(done.statusCode, done.body).toBe(200);
  return ws;
}

const result = (videoId: string, who: Person = learner) =>
  ctx.inject({ method: 'GET', url: `/v1/videos/${videoId}/analysis?langCode=en`, token: who.token });

/** The PDF report's text, page by page, blanks made single spaces. */
async function reportPages(videoId: string, lang: 'en' | 'fr'): Promise<string[]> {
  const res = await ctx.inject({ method: 'GET', url: `/v1/videos/${videoId}/analysis/report?langCode=${lang}`, token: learner.token });
  expect(res.statusCode, res.body).toBe(200);
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(res.rawPayload)), { mergePages: false });
  return text.map((page) => page.replace(/\s+/g, ' '));
}

/** Where each text first occurs in the whole report, in the order given (−1 when absent). */
const positions = (pages: string[], texts: string[]) => texts.map((t) => pages.join(' ').indexOf(t));

describe('the share of cases reviewed twice', () => {
  it('is set by an administrator, 0 to 100 for the installation and per surgery, and read by the administration', async () => {
    const denied = await ctx.inject({
      method: 'PUT',
      url: '/v1/admin/review-settings',
      token: first.token,
      body: { secondReviewShare: 50 },
    });
    expect(denied.statusCode).toBe(403);
    for (const bad of [101, -1, 12.5, '50', null]) {
      const res = await ctx.inject({
        method: 'PUT',
        url: '/v1/admin/review-settings?langCode=en',
        token: admin.token,
        body: { secondReviewShare: bad },
      });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(['VALIDATION', 'INVALID_VALUE', 'FIELD_REQUIRED']).toContain(res.json().error.code);
    }
    const set = await ctx.inject({ method: 'PUT', url: '/v1/admin/review-settings', token: admin.token, body: { secondReviewShare: 20 } });
    expect(set.statusCode, set.body).toBe(200);
    const [surgery] = await db().select().from(surgeries).orderBy(asc(surgeries.position)).limit(1);
    const missing = await ctx.inject({
      method: 'PUT',
      url: `/v1/admin/review-settings/surgeries/${crypto.randomUUID()}`,
      token: admin.token,
      body: { secondReviewShare: 50 },
    });
    expect(missing.statusCode).toBe(404);
    const override = await ctx.inject({
      method: 'PUT',
      url: `/v1/admin/review-settings/surgeries/${surgery!.id}`,
      token: admin.token,
      body: { secondReviewShare: 100 },
    });
    expect(override.statusCode, override.body).toBe(200);
    const read = await ctx.inject({ method: 'GET', url: '/v1/admin/review-settings?langCode=en', token: admin.token });
    const view = reviewSettingsViewSchema.parse(read.json().data);
    expect(view.secondReviewShare).toBe(20);
    expect(view.surgeries.find((s) => s.id === surgery!.id)).toMatchObject({ name: surgery!.nameEn, secondReviewShare: 100 });
    expect((await ctx.inject({ method: 'GET', url: '/v1/admin/review-settings', token: learner.token })).statusCode).toBe(403);
    // Back to the surgery following the default.
    await ctx.inject({
      method: 'PUT',
      url: `/v1/admin/review-settings/surgeries/${surgery!.id}`,
      token: admin.token,
      body: { secondReviewShare: null },
    });
  });

  it('is drawn once per case as it enters the analysis stage, with the share and the number recorded', async () => {
    const video = await preparedVideo();
    const draw = (id: string) => ctx.services.review.draw(db(), id);
    const read = async (id: string) => (await db().select().from(videos).where(eq(videos.id, id)))[0]!;
    // Default 20 %: 0.19 draws a second review, 0.2 does not.
    nextDraw = 0.19;
    await draw(video.id);
    expect(await read(video.id)).toMatchObject({
      reviewsRequired: 2,
      secondReviewShare: 20,
      secondReviewDraw: 0.19,
      secondReviewReason: 'drawn',
    });
    // Once: a later draw changes nothing.
    nextDraw = 0.99;
    await draw(video.id);
    expect(await read(video.id)).toMatchObject({ reviewsRequired: 2, secondReviewDraw: 0.19 });
    const other = await preparedVideo();
    nextDraw = 0.2;
    await draw(other.id);
    expect(await read(other.id)).toMatchObject({
      reviewsRequired: 1,
      secondReviewShare: 20,
      secondReviewDraw: 0.2,
      secondReviewReason: null,
    });
    // The surgery's own share wins over the default: 0 % never draws.
    await db().update(surgeries).set({ secondReviewShare: 0 }).where(eq(surgeries.id, other.surgeryId!));
    const third = await preparedVideo();
    nextDraw = 0;
    await draw(third.id);
    expect(await read(third.id)).toMatchObject({ reviewsRequired: 1, secondReviewShare: 0 });
    await db().update(surgeries).set({ secondReviewShare: null }).where(eq(surgeries.id, other.surgeryId!));
  });
});

describe('a case reviewed twice', () => {
  let videoId = '';

  it('goes to the review pool after its first review, hidden from its learner, and not offered to its first expert', async () => {
    videoId = (await preparedVideo(2)).id;
    await review(videoId, first, 2);
    const [video] = await db().select().from(videos).where(eq(videos.id, videoId));
    expect(video).toMatchObject({ status: 'pending_review', reviewRound: 2, resultReleasedAt: null });
    const hidden = await result(videoId);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().error.code).toBe('ANALYSIS_NOT_READY');
    const again = await claim(videoId, first);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('REVIEW_ALREADY_REVIEWED');
    const pool = async (who: Person) =>
      ((await ctx.inject({ method: 'GET', url: '/v1/expert/pool?limit=100', token: who.token })).json().data.data as { id: string }[]).map(
        (v) => v.id,
      );
    expect(await pool(first)).not.toContain(videoId);
    expect(await pool(second)).toContain(videoId);
  });

  it('is blind: the second expert reads nothing of the first review, and the first nothing of the second', async () => {
    const claimed = await claim(videoId, second);
    expect(claimed.statusCode, claimed.body).toBe(200);
    const fencingToken = claimed.json().data.fencingToken as number;
    const ws = (await ctx.inject({ method: 'GET', url: `/v1/expert/videos/${videoId}?langCode=en`, token: second.token })).json().data;
    const draft = expertWorkspaceSchema.parse(ws).draft!;
    expect(Object.values(draft.kpiRatings).every((r) => r === null)).toBe(true);
    expect(draft.stepRatings.every((r) => r.rating === null)).toBe(true);
    expect(draft.advice).toBe('');
    expect(draft.comments).toEqual([]);
    expect(JSON.stringify(ws)).not.toContain('Claire');
    expect(JSON.stringify(ws)).not.toContain('Advice of');
    // The first review's comments cannot be reached by id either.
    const { rows } = await db().execute<{ id: string }>(sql`SELECT id FROM analysis_comments WHERE video_id = ${videoId} AND round = 1`);
    const [firstComment] = rows;
    const edit = await ctx.inject({
      method: 'PUT',
      url: `/v1/expert/videos/${videoId}/comments/${firstComment!.id}`,
      token: second.token,
      body: { fencingToken, start: 1, text: 'Changed' },
    });
    expect(edit.statusCode).toBe(404);
    // The first expert reads their own review only.
    const mine = (await ctx.inject({ method: 'GET', url: `/v1/expert/videos/${videoId}?langCode=en`, token: first.token })).json().data;
    expect(mine.draft.advice).toBe('Advice of Claire');
    await ctx.inject({ method: 'POST', url: `/v1/expert/videos/${videoId}/release`, token: second.token, body: { fencingToken } });
  });

  it('shows its learner both reviews side by side, their mean, each signed, and where the experts disagreed', async () => {
    await review(videoId, second, 4, 3);
    const [video] = await db().select().from(videos).where(eq(videos.id, videoId));
    expect(video!.status).toBe('analysed');
    expect(video!.resultReleasedAt).not.toBeNull();
    const res = await result(videoId);
    expect(res.statusCode, res.body).toBe(200);
    const shown = analysisResultSchema.parse(res.json().data);
    expect(shown.reviews.map((r) => [r.round, r.expert.lastName, r.advice])).toEqual([
      [1, 'Dubois', 'Advice of Claire'],
      [2, 'Lefèvre', 'Advice of Marc'],
    ]);
    expect(shown.reviews[1]!.comments.map((c) => c.text)).toEqual(['Comment of Marc']);
    expect(shown.mean.kpis.every((k) => k.rating === 3)).toBe(true);
    expect(shown.mean.steps.every((s) => s.rating === 2.5)).toBe(true);
    expect(shown.mean.globalRating).toBe(3);
    // KPIs differ by 2 levels, steps by 1: the KPIs only, by name.
    expect(
      shown.disagreement!.items.map((i) => i.name),
      JSON.stringify(shown.disagreement),
    ).toEqual(['Depth perception', 'Bimanual dexterity', 'Movement efficiency', 'Tissue handling', 'Autonomy']);
    expect(shown.furtherReviewPending).toBe(false);
    // The PDF report opens with the experts' result — both experts named (with their specialty),
    // the mean, where they disagree — all on page 1, then gives each review in turn.
    const [specialty] = await db()
      .select()
      .from(specialties)
      .where(eq(specialties.id, await ctx.specialtyId()));
    const en = await reportPages(videoId, 'en');
    expect(en[0]).toContain(`Claire Dubois, ${specialty!.nameEn}`);
    expect(en[0]).toContain('Marc Lefèvre');
    expect(en[0]).toMatch(/Global rating, the experts’ mean 3\/5/);
    expect(en[0]).toContain('The experts differ by 2 levels or more on: Depth perception, Bimanual dexterity');
    expect(en[0]).toMatch(/Autonomy 2\/5 4\/5 3\/5/);
    expect(en[0]).not.toContain('Review by');
    expect(en[0]).not.toContain('Advice of');
    const order = positions(en, [
      'The experts’ analysis',
      'The experts differ by 2 levels',
      'Steps',
      'Review by Claire Dubois',
      'Advice of Claire',
      'Comment of Claire',
      'Review by Marc Lefèvre',
      'Advice of Marc',
      'Comment of Marc',
    ]);
    expect(
      order.every((at) => at >= 0),
      JSON.stringify(order),
    ).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // The steps: each expert's rating and the mean (2 and 3, 2.5).
    expect(en.join(' ')).toMatch(/Fermeture 0:25 0:50 0:25 2\/5 3\/5 2\.5\/5/);
    const fr = await reportPages(videoId, 'fr');
    expect(fr[0]).toMatch(/Note globale, moyenne des experts 3\/5/);
    expect(fr[0]).toContain('Les experts diffèrent de 2 niveaux ou plus sur : ');
    expect(fr.join(' ')).toMatch(/Fermeture 0:25 0:50 0:25 2\/5 3\/5 2,5\/5/);
    const frOrder = positions(fr, ['L’analyse des experts', 'Analyse de Claire Dubois', 'Analyse de Marc Lefèvre']);
    expect(
      frOrder.every((at) => at >= 0),
      JSON.stringify(frOrder),
    ).toBe(true);
    expect([...frOrder].sort((a, b) => a - b)).toEqual(frOrder);
    // The second review's submit told the learner once the result was shown.
    const rows = await db().select().from(analyses).where(eq(analyses.videoId, videoId));
    expect(rows.map((r) => r.round).sort()).toEqual([1, 2]);
  });

  it('tells every active administrator in the app, in their language, that the experts disagree', async () => {
    const told = async (who: Person) =>
      db()
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, who.id), eq(notifications.key, 'casesDisagree')));
    const [note] = await told(admin);
    expect(note).toMatchObject({ link: '/admin/disagreements?status=flagged', status: 'unread' });
    expect(note!.params).toMatchObject({ gap: 2 });
    expect(await told(formerAdmin)).toEqual([]);
    expect(await told(learner)).toEqual([]);
    const read = async (lang: 'fr' | 'en') => {
      await db()
        .update(users)
        .set({ preferences: { ...DEFAULT_PREFERENCES, langCode: lang } })
        .where(eq(users.id, admin.id));
      const res = await ctx.inject({ method: 'GET', url: '/v1/notification/list?limit=50', token: admin.token });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().data.data as { key: string; content: string }[]).find((n) => n.key === 'casesDisagree')?.content;
    };
    expect(await read('en')).toMatch(/^Two experts disagree on the case of .+ \(up to 2 levels apart\)/);
    expect(await read('fr')).toMatch(/^Deux experts sont en désaccord sur le cas de .+ \(jusqu'à 2 niveaux d'écart\)/);
  });

  it('is flagged for administrators, who ask a third review, then mark it discussed with a note (audited)', async () => {
    const list = async (query = '') => {
      const res = await ctx.inject({ method: 'GET', url: `/v1/admin/disagreements?langCode=en${query}`, token: admin.token });
      expect(res.statusCode, res.body).toBe(200);
      return disagreementListSchema.parse(res.json().data).items;
    };
    const flagged = (await list()).find((d) => d.videoId === videoId);
    expect(flagged).toMatchObject({ status: 'flagged', maxGap: 2, author: { lastName: 'learner' } });
    expect(flagged!.items.find((i) => i.key === 'autonomy')).toMatchObject({ name: 'Autonomy', levels: { '1': 2, '2': 4 } });
    const [video] = await db().select().from(videos).where(eq(videos.id, videoId));
    expect(flagged!.caseCreatedAt).toBe(video!.createdAt.toISOString());
    // Copil reads the flagged cases too, but acts on none.
    const copil = await ctx.createUser('copil');
    expect((await ctx.inject({ method: 'GET', url: '/v1/admin/disagreements', token: copil.token })).statusCode).toBe(200);
    const copilAsk = await ctx.inject({ method: 'POST', url: `/v1/admin/videos/${videoId}/reviews`, token: copil.token, body: {} });
    expect(copilAsk.statusCode).toBe(403);
    const copilNote = await ctx.inject({
      method: 'POST',
      url: `/v1/admin/disagreements/${videoId}/discussed`,
      token: copil.token,
      body: { note: 'Seen' },
    });
    expect(copilNote.statusCode).toBe(403);
    expect((await list('&status=discussed')).find((d) => d.videoId === videoId)).toBeUndefined();
    const badFilter = await ctx.inject({ method: 'GET', url: '/v1/admin/disagreements?status=maybe', token: admin.token });
    expect(badFilter.statusCode).toBe(400);
    expect((await ctx.inject({ method: 'GET', url: '/v1/admin/disagreements', token: first.token })).statusCode).toBe(403);

    const asked = await ctx.inject({ method: 'POST', url: `/v1/admin/videos/${videoId}/reviews`, token: admin.token, body: {} });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json().data).toMatchObject({ reviewsRequired: 3, status: 'pending_review' });
    // Twice is once: the case is no longer analysed.
    const twice = await ctx.inject({ method: 'POST', url: `/v1/admin/videos/${videoId}/reviews`, token: admin.token, body: {} });
    expect(twice.statusCode).toBe(409);
    // The learner keeps their result meanwhile, told another review is under way.
    const meanwhile = analysisResultSchema.parse((await result(videoId)).json().data);
    expect(meanwhile.furtherReviewPending).toBe(true);
    expect(meanwhile.reviews).toHaveLength(2);
    // Neither former reviewer may take the third.
    expect((await claim(videoId, second)).statusCode).toBe(409);
    await review(videoId, third, 3);
    const after = analysisResultSchema.parse((await result(videoId)).json().data);
    expect(after.reviews.map((r) => r.expert.lastName)).toEqual(['Dubois', 'Lefèvre', 'Garnier']);
    expect(after.furtherReviewPending).toBe(false);

    const empty = await ctx.inject({
      method: 'POST',
      url: `/v1/admin/disagreements/${videoId}/discussed`,
      token: admin.token,
      body: { note: '' },
    });
    expect(empty.statusCode).toBe(400);
    const done = await ctx.inject({
      method: 'POST',
      url: `/v1/admin/disagreements/${videoId}/discussed`,
      token: admin.token,
      body: { note: 'Discussed with both experts: tissue handling anchors reread.' },
    });
    expect(done.statusCode, done.body).toBe(200);
    const [row] = await db().select().from(disagreements).where(eq(disagreements.videoId, videoId));
    expect(row).toMatchObject({ status: 'discussed', resolvedById: admin.id });
    const again = await ctx.inject({
      method: 'POST',
      url: `/v1/admin/disagreements/${videoId}/discussed`,
      token: admin.token,
      body: { note: 'Again' },
    });
    expect(again.statusCode).toBe(409);
    const audited = await db().select().from(auditLog).where(eq(auditLog.entityId, videoId));
    expect(audited.map((a) => a.action)).toEqual(
      expect.arrayContaining(['review.requested', 'review.disagreement_discussed', 'review.submitted']),
    );
  });

  it('never lets the case’s author claim a further review of it, even as an expert', async () => {
    const author = await ctx.createUser('expert', { roles: ['learner', 'expert'] });
    const form = await videoForm(ctx);
    const { kind: _kind, ...fields } = form;
    const [own] = await db()
      .insert(videos)
      .values({
        ...fields,
        authorId: author.id,
        kind: 'video',
        status: 'pending_analysis',
        mediaStatus: 'ready',
        duration: 60,
        reviewsRequired: 2,
      })
      .returning();
    await db().insert(videoSteps).values({ videoId: own!.id, position: 0, surgeryStepId: null, name: 'Dissection', start: 0, end: 20 });
    await review(own!.id, first, 3);
    const pool = (await ctx.inject({ method: 'GET', url: '/v1/expert/pool?limit=100', token: author.token })).json().data.data as {
      id: string;
    }[];
    expect(pool.map((v) => v.id)).not.toContain(own!.id);
    const mine = await claim(own!.id, author);
    expect(mine.statusCode).toBe(409);
    expect(mine.json().error.code).toBe('REVIEW_OWN_CASE');
    const [still] = await db().select().from(videos).where(eq(videos.id, own!.id));
    expect(still).toMatchObject({ status: 'pending_review', claimHolderId: null });
    // Another expert may.
    await review(own!.id, second, 3);
  });

  it('lets an administrator send a case reviewed once for a second review; its learner keeps the first result meanwhile', async () => {
    const video = await preparedVideo();
    await review(video.id, first, 4);
    expect((await result(video.id)).statusCode).toBe(200);
    const denied = await ctx.inject({ method: 'POST', url: `/v1/admin/videos/${video.id}/reviews`, token: learner.token, body: {} });
    expect(denied.statusCode).toBe(403);
    const sent = await ctx.inject({ method: 'POST', url: `/v1/admin/videos/${video.id}/reviews`, token: admin.token, body: {} });
    expect(sent.statusCode, sent.body).toBe(200);
    const meanwhile = analysisResultSchema.parse((await result(video.id)).json().data);
    expect(meanwhile).toMatchObject({ furtherReviewPending: true });
    expect(meanwhile.reviews).toHaveLength(1);
    await review(video.id, second, 4);
    const both = analysisResultSchema.parse((await result(video.id)).json().data);
    expect(both.reviews).toHaveLength(2);
    expect(both.disagreement).toBeNull();
  });
});

describe('what the learner reads of a case reviewed twice', () => {
  const summary = async (videoId: string) =>
    (await ctx.inject({ method: 'GET', url: `/v1/videos/${videoId}`, token: learner.token })).json().data as {
      status: string;
      resultShown: boolean;
    };
  const selfAssessment = async (videoId: string) =>
    (await ctx.inject({ method: 'GET', url: `/v1/videos/${videoId}/self-assessment`, token: learner.token })).json().data as {
      canRate: boolean;
      comparison: { kpi: string; self: number | null; expert: number | null; gap: number | null }[] | null;
    };

  it('self-assesses while the second review is awaited, then compares with the experts’ mean, kept during a third review', async () => {
    const { id: videoId } = await preparedVideo(2);
    await review(videoId, first, 2);
    expect(await summary(videoId)).toMatchObject({ status: 'pending_review', resultShown: false });
    expect((await selfAssessment(videoId)).canRate).toBe(true);
    const rated = await ctx.inject({
      method: 'PUT',
      url: `/v1/videos/${videoId}/self-assessment`,
      token: learner.token,
      body: { kpiRatings: allKpis(5), globalRating: 5 },
    });
    expect(rated.statusCode, rated.body).toBe(200);
    await review(videoId, second, 4);
    expect(await summary(videoId)).toMatchObject({ status: 'analysed', resultShown: true });
    expect((await result(videoId)).statusCode).toBe(200);
    const compared = (await selfAssessment(videoId)).comparison!;
    expect(compared.find((c) => c.kpi === 'autonomy')).toEqual({ kpi: 'autonomy', self: 5, expert: 3, gap: 2 });
    // The PDF report compares with the experts' mean, and says so.
    const en = (await reportPages(videoId, 'en')).join(' ');
    expect(en).toMatch(/Skill You Experts \(mean\) Gap/);
    expect(en).toMatch(/Autonomy 5 3 2 higher/);
    expect((await reportPages(videoId, 'fr')).join(' ')).toMatch(/Compétence Vous Experts \(moyenne\) Écart/);

    // A third review asked after the disagreement: the result and the comparison stay meanwhile.
    const asked = await ctx.inject({ method: 'POST', url: `/v1/admin/videos/${videoId}/reviews`, token: admin.token, body: {} });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(await summary(videoId)).toMatchObject({ status: 'pending_review', resultShown: true });
    expect((await selfAssessment(videoId)).comparison!.find((c) => c.kpi === 'autonomy')).toMatchObject({ expert: 3 });
  });
});
