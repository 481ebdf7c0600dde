import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { inflateSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisResultSchema, expertWorkspaceSchema, KPIS } from '@sutura/domain/analysis';
import { bestCaseDrawingSchema, DRAWING_COLOR_HEX, DRAWING_LIMITS, type Drawing } from '@sutura/domain/drawing';
import { errorMessage, isErrorCode, type ErrorCode } from '@sutura/domain/errors';
import { analysisComments, bestCases, videos } from '../src/db/schema.ts';
import { createTestContext, type TestContext } from './harness.ts';
import { makePatternClip, readFrameNumbers } from './frame-pattern.ts';
import { videoForm } from './video-fixtures.ts';

type Person = Awaited<ReturnType<TestContext['createUser']>>;

let ctx: TestContext;
let work: string;
let learner: Person;
let otherLearner: Person;
let editor: Person;
let expert: Person;
let otherExpert: Person;
let admin: Person;

const db = () => ctx.database.db;
const FRAME_RATE = 25;

beforeAll(async () => {
  ctx = await createTestContext();
  work = await mkdtemp(path.join(tmpdir(), 'sutura-drawing-test-'));
  learner = await ctx.createUser('learner');
  otherLearner = await ctx.createUser('learner');
  editor = await ctx.createUser('editor');
  expert = await ctx.createUser('expert');
  otherExpert = await ctx.createUser('expert');
  admin = await ctx.createUser('administrator');
}, 180_000);

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
  await ctx?.close();
});

/**
 * A prepared video waiting for an expert; with `clip`, its media is a real video whose every frame
 * carries its number (frame-pattern.ts), at FRAME_RATE frames a second.
 */
async function preparedVideo(clip = false) {
  const { kind: _kind, ...fields } = await videoForm(ctx);
  const [row] = await db()
    .insert(videos)
    .values({
      ...fields,
      authorId: learner.id,
      kind: 'video',
      status: 'pending_analysis',
      mediaStatus: 'ready',
      duration: 4,
      sentAt: new Date(),
    })
    .returning();
  if (clip) {
    const file = path.join(work, `clip-${row!.id}.mp4`);
    await makePatternClip({ seconds: 4, frameRate: FRAME_RATE, gop: 1 }, file);
    const stored = await ctx.services.mediaService.storeFile({
      ownerId: learner.id,
      videoId: row!.id,
      kind: 'video',
      contentType: 'video/mp4',
      file,
      key: (id) => `videos/${row!.id}/rendered-${id}.mp4`,
    });
    await db().update(videos).set({ videoMediaId: stored.id }).where(eq(videos.id, row!.id));
  }
  return row!;
}

async function claim(videoId: string, who: Person = expert): Promise<number> {
  const res = await ctx.inject({ method: 'POST', url: `/v1/expert/videos/${videoId}/claim`, token: who.token, body: {} });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.fencingToken as number;
}

const comment = (videoId: string, body: Record<string, unknown>, who: Person | null = expert, lang = 'en') =>
  ctx.inject({ method: 'POST', url: `/v1/expert/videos/${videoId}/comments?langCode=${lang}`, token: who?.token, body });

async function workspaceComments(videoId: string) {
  const res = await ctx.inject({ method: 'GET', url: `/v1/expert/videos/${videoId}`, token: expert.token });
  expect(res.statusCode, res.body).toBe(200);
  return expertWorkspaceSchema.parse(res.json().data).draft.comments;
}

async function submit(videoId: string, token: number) {
  const rate = await ctx.inject({
    method: 'PUT',
    url: `/v1/expert/videos/${videoId}/analysis`,
    token: expert.token,
    body: { fencingToken: token, globalRating: 4, kpiRatings: Object.fromEntries(KPIS.map((k) => [k, 4])) },
  });
  expect(rate.statusCode, rate.body).toBe(200);
  const res = await ctx.inject({
    method: 'POST',
    url: `/v1/expert/videos/${videoId}/finalize`,
    token: expert.token,
    body: { fencingToken: token, confirmAnyway: true },
  });
  expect(res.statusCode, res.body).toBe(200);
}

const drawing = (time: number): Drawing => ({
  time,
  shapes: [
    {
      kind: 'freehand',
      color: 'yellow',
      points: [
        [0.1, 0.2],
        [0.15, 0.25],
        [0.2, 0.22],
      ],
    },
    { kind: 'arrow', color: 'cyan', from: [0.8, 0.8], to: [0.55, 0.5] },
    { kind: 'ellipse', color: 'green', center: [0.5, 0.5], rx: 0.1, ry: 0.15 },
    { kind: 'line', color: 'white', from: [0, 1], to: [1, 0] },
    { kind: 'text', color: 'yellow', at: [0.6, 0.3], text: 'Disséquer ici' },
  ],
});

/** The content streams of a PDF's pages, inflated (pdfkit compresses them, FlateDecode). */
function contentStreams(pdf: Buffer): string[] {
  const out: string[] = [];
  for (let from = pdf.indexOf('stream'); from >= 0; from = pdf.indexOf('stream', from + 1)) {
    if (pdf.subarray(from - 3, from).toString('latin1') === 'end') continue;
    const dict = pdf.subarray(pdf.lastIndexOf('<<', from), from).toString('latin1');
    let body = from + 'stream'.length;
    if (pdf[body] === 0x0d) body++;
    if (pdf[body] === 0x0a) body++;
    // Past the stream's bytes (a picture's may hold the word 'stream').
    const end = body + Number(/\/Length (\d+)/.exec(dict)![1]);
    if (dict.includes('/FlateDecode') && !dict.includes('/Subtype')) {
      const text = inflateSync(pdf.subarray(body, end)).toString('latin1');
      if (text.includes(' Tf')) out.push(text);
    }
    from = end;
  }
  return out;
}

/** A piece of text a content stream draws, with the graphics state it is drawn in. */
interface TextFragment {
  /** The text rendering mode: 0 fill, 1 stroke, 2 fill then stroke (PDF 32000-1, 9.3.6). */
  mode: number;
  size: number;
  /** Its position (Tm) and glyphs (TJ), to tell two drawings of the same text. */
  at: string;
  glyphs: string;
  lineWidth: number;
  stroke: number[];
  fill: number[];
}

/** Every text fragment of a content stream, in drawing order. */
function textFragments(stream: string): TextFragment[] {
  const state = { lineWidth: 1, stroke: [0, 0, 0], fill: [0, 0, 0] };
  const saved: (typeof state)[] = [];
  const out: TextFragment[] = [];
  let text: TextFragment | null = null;
  for (const line of stream.split('\n')) {
    const args = line.trim().split(/\s+/);
    const op = args.pop();
    const numbers = args.map(Number);
    if (op === 'q') saved.push({ ...state });
    else if (op === 'Q') Object.assign(state, saved.pop());
    else if (op === 'w') state.lineWidth = numbers[0]!;
    else if (op === 'SCN' || op === 'RG') state.stroke = numbers;
    else if (op === 'scn' || op === 'rg') state.fill = numbers;
    else if (op === 'BT') text = { mode: 0, size: 0, at: '', glyphs: '', ...state };
    else if (text && op === 'Tm') text.at = args.join(' ');
    else if (text && op === 'Tf') text.size = numbers[1]!;
    else if (text && op === 'Tr') text.mode = numbers[0]!;
    else if (text && op === 'TJ') text.glyphs += args.join(' ');
    else if (text && op === 'ET') {
      out.push(text);
      text = null;
    }
  }
  return out;
}

const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);

/** The JPEG pictures a PDF embeds (pdfkit stores them as they are, DCTDecode). */
function embeddedJpegs(pdf: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let from = 0;
  for (;;) {
    const filter = pdf.indexOf('/DCTDecode', from);
    if (filter < 0) return out;
    const dictEnd = pdf.indexOf('>>', filter);
    const length = /\/Length (\d+)/.exec(pdf.subarray(pdf.lastIndexOf('<<', filter), dictEnd).toString('latin1'));
    const start = pdf.indexOf('stream', dictEnd) + 'stream'.length;
    const body = start + (pdf[start] === 0x0d ? 2 : 1);
    out.push(pdf.subarray(body, body + Number(length![1])));
    from = body;
  }
}

describe('drawings on a comment', () => {
  it('stores the drawing of the holder with the comment, keeps it on an edit without one, and removes it with null', async () => {
    const video = await preparedVideo();
    const token = await claim(video.id);
    const res = await comment(video.id, { fencingToken: token, start: 1.4, text: 'Plan de dissection', drawing: drawing(1.48) });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().data.id as string;
    expect(res.json().data.drawing).toEqual(drawing(1.48));
    expect((await workspaceComments(video.id))[0]!.drawing).toEqual(drawing(1.48));

    const edit = (body: Record<string, unknown>) =>
      ctx.inject({ method: 'PUT', url: `/v1/expert/videos/${video.id}/comments/${id}`, token: expert.token, body });
    expect((await edit({ fencingToken: token, start: 1.4, text: 'Plan de dissection, à gauche' })).json().data.drawing).toEqual(
      drawing(1.48),
    );
    const moved = { ...drawing(2), shapes: drawing(2).shapes.slice(0, 2) };
    expect((await edit({ fencingToken: token, start: 2, text: 'Ici', drawing: moved })).json().data.drawing).toEqual(moved);
    expect((await edit({ fencingToken: token, start: 2, text: 'Ici', drawing: null })).json().data.drawing).toBeNull();
    const [row] = await db().select().from(analysisComments).where(eq(analysisComments.id, id));
    expect(row!.drawing).toBeNull();
  });

  it('refuses a drawing out of bounds with a catalogue error in the caller’s language, and stores nothing', async () => {
    const video = await preparedVideo();
    const token = await claim(video.id);
    const base = drawing(1);
    const many = (n: number) => Array.from({ length: n }, () => base.shapes[1]!);
    const stroke = (n: number) => ({
      kind: 'freehand',
      color: 'yellow',
      points: Array.from({ length: n }, (_, i) => [i / n, 0.5]),
    });
    const bad: unknown[] = [
      { ...base, shapes: [{ kind: 'line', color: 'white', from: [1.2, 0], to: [0, 0] }] },
      { ...base, shapes: [{ kind: 'line', color: 'white', from: [-0.1, 0], to: [0, 0] }] },
      { ...base, shapes: [{ kind: 'line', color: 'white', from: ['a', 0], to: [0, 0] }] },
      { ...base, shapes: [{ kind: 'line', color: 'white', from: [0.1], to: [0, 0] }] },
      { ...base, shapes: [{ kind: 'line', color: 'red', from: [0.1, 0.1], to: [0, 0] }] },
      { ...base, shapes: [{ kind: 'star', color: 'white', at: [0.1, 0.1] }] },
      { ...base, shapes: [{ kind: 'text', color: 'white', at: [0.1, 0.1], text: 'x'.repeat(DRAWING_LIMITS.textMax + 1) }] },
      { ...base, shapes: [{ kind: 'text', color: 'white', at: [0.1, 0.1], text: '   ' }] },
      { ...base, shapes: [{ kind: 'line', color: 'white', from: [0.1, 0.1], to: [0, 0], width: 9 }] },
      { ...base, shapes: [] },
      { ...base, shapes: many(DRAWING_LIMITS.shapesMax + 1) },
      { ...base, shapes: [stroke(DRAWING_LIMITS.strokePointsMax + 1)] },
      { ...base, shapes: Array.from({ length: 8 }, () => stroke(DRAWING_LIMITS.strokePointsMax)) },
      { ...base, time: -1 },
      { ...base, time: 60 },
      { shapes: base.shapes },
      'a drawing',
    ];
    for (const d of bad) {
      const res = await comment(video.id, { fencingToken: token, start: 1, text: 'Ici', drawing: d }, expert, 'fr');
      expect(res.statusCode, JSON.stringify(d).slice(0, 200)).toBe(400);
      const { code, message } = res.json().error as { code: ErrorCode; message: string };
      expect(isErrorCode(code), code).toBe(true);
      expect(message).toBe(errorMessage(code, 'fr'));
    }
    expect(await workspaceComments(video.id)).toEqual([]);
  });

  it('lets only the expert holding the claim draw: 401 without a session, 403 to other roles, 404 to anyone else', async () => {
    const video = await preparedVideo();
    const body = (token: number) => ({ fencingToken: token, start: 1, text: 'Ici', drawing: drawing(1) });
    expect((await comment(video.id, body(1), null)).statusCode).toBe(401);
    for (const who of [learner, editor, admin]) expect((await comment(video.id, body(1), who)).statusCode, who.email).toBe(403);
    // Nobody holds it yet.
    expect((await comment(video.id, body(1))).statusCode).toBe(404);
    const token = await claim(video.id);
    expect((await comment(video.id, body(token), otherExpert)).statusCode).toBe(404);
    expect((await comment(video.id, body(token + 7))).statusCode).toBe(404);
    expect((await comment(crypto.randomUUID(), body(token))).statusCode).toBe(404);
    expect(await workspaceComments(video.id)).toEqual([]);
    expect((await comment(video.id, body(token))).statusCode).toBe(201);
  });

  it('shows the drawings to the learner once the analysis is submitted, and to nobody else', async () => {
    const video = await preparedVideo();
    const token = await claim(video.id);
    expect((await comment(video.id, { fencingToken: token, start: 2, text: 'Ici', drawing: drawing(2.04) })).statusCode).toBe(201);
    const read = (who: Person | null) => ctx.inject({ method: 'GET', url: `/v1/videos/${video.id}/analysis`, token: who?.token });
    expect((await read(learner)).json().error.code).toBe('ANALYSIS_NOT_READY');
    await submit(video.id, token);
    const result = analysisResultSchema.parse((await read(learner)).json().data);
    expect(result.comments.map((c) => c.drawing)).toEqual([drawing(2.04)]);
    expect((await read(null)).statusCode).toBe(401);
    for (const who of [otherLearner, editor, otherExpert]) expect((await read(who)).statusCode, who.email).toBe(404);
    expect((await read(admin)).json().data.comments[0].drawing).toEqual(drawing(2.04));
    // Submitted: the claim is over, the expert draws no more.
    const late = await comment(video.id, { fencingToken: token, start: 1, text: 'Encore', drawing: drawing(1) });
    expect(late.statusCode).toBe(409);
    expect((await read(learner)).json().data.comments).toHaveLength(1);
  });
});

describe('the PDF report', () => {
  it('shows each annotated frame: the very frame the drawing was made on, extracted by the server', async () => {
    const video = await preparedVideo(true);
    const token = await claim(video.id);
    // Frame 37 starts at 1.48 s; 2.05 s falls within frame 51 (2.04–2.08), which the player shows there.
    for (const [start, time] of [
      [1.4, 37 / FRAME_RATE],
      [2, 2.05],
    ] as const) {
      const res = await comment(video.id, { fencingToken: token, start, text: `Frame at ${time}`, drawing: drawing(time) });
      expect(res.statusCode, res.body).toBe(201);
    }
    expect((await comment(video.id, { fencingToken: token, start: 3, text: 'Sans dessin' })).statusCode).toBe(201);
    await submit(video.id, token);

    const res = await ctx.inject({ method: 'GET', url: `/v1/videos/${video.id}/analysis/report?langCode=en`, token: learner.token });
    expect(res.statusCode, res.body).toBe(200);
    const jpegs = embeddedJpegs(res.rawPayload);
    expect(jpegs).toHaveLength(2);
    const numbers: number[] = [];
    for (const [i, jpeg] of jpegs.entries()) {
      const file = path.join(work, `frame-${i}.jpg`);
      await writeFile(file, jpeg);
      numbers.push(...(await readFrameNumbers(file)));
    }
    expect(numbers).toEqual([37, 51]);

    // The label of each drawing is drawn as the web draws it (paint-order: stroke): its dark outline
    // stroked first, then its letters filled yellow over it, so that only a thin rim of the outline
    // shows — never stroked over the letters (rendering mode 2), which swallowed them.
    const fragments = contentStreams(res.rawPayload).flatMap(textFragments);
    expect(fragments.filter((f) => f.mode === 2)).toEqual([]);
    const outlines = fragments.filter((f) => f.mode === 1);
    expect(outlines).toHaveLength(2);
    for (const outline of outlines) {
      const letters = fragments[fragments.indexOf(outline) + 1]!;
      expect(letters).toMatchObject({ mode: 0, at: outline.at, size: outline.size, glyphs: outline.glyphs });
      letters.fill.forEach((c, i) => expect(c).toBeCloseTo(rgb(DRAWING_COLOR_HEX.yellow)[i]!, 6));
      expect(outline.stroke).toEqual([0, 0, 0]);
      // Half the stroke shows outside the letters: a rim of at most a tenth of the letters' size.
      expect(outline.lineWidth).toBeGreaterThan(0);
      expect(outline.lineWidth / 2).toBeLessThanOrEqual(0.1 * outline.size);
    }
  }, 120_000);
});

describe('drawings on a best case', () => {
  async function bestCase(published: boolean) {
    const video = await preparedVideo();
    await db().update(videos).set({ purpose: 'best_case', status: 'analysed' }).where(eq(videos.id, video.id));
    const [row] = await db()
      .insert(bestCases)
      .values({
        videoId: video.id,
        origin: 'uploaded',
        titleFr: 'Cas de référence',
        titleEn: 'Reference case',
        descriptionFr: '',
        descriptionEn: '',
        consent: 'not_needed',
        published,
        publishedAt: published ? new Date() : null,
      })
      .returning();
    return row!;
  }
  const add = (id: string, body: unknown, who: Person | null = admin, lang = 'en') =>
    ctx.inject({ method: 'POST', url: `/v1/admin/best-cases/${id}/drawings?langCode=${lang}`, token: who?.token, body });
  const list = (id: string, who: Person | null) => ctx.inject({ method: 'GET', url: `/v1/best-cases/${id}/drawings`, token: who?.token });

  it('lets the administrator draw on frames of a best case, shown to whoever may watch it', async () => {
    const published = await bestCase(true);
    const draft = await bestCase(false);
    for (const bc of [published, draft]) {
      const res = await add(bc.id, { note: 'Exposer la veine', drawing: drawing(1.48) });
      expect(res.statusCode, res.body).toBe(201);
      expect(bestCaseDrawingSchema.parse(res.json().data)).toMatchObject({ note: 'Exposer la veine', drawing: drawing(1.48) });
    }
    expect((await add(published.id, { note: 'Avant', drawing: drawing(0.5) })).statusCode).toBe(201);
    for (const who of [learner, editor, expert, admin]) {
      const res = await list(published.id, who);
      expect(res.statusCode, who.email).toBe(200);
      expect(res.json().data.map((d: { drawing: Drawing }) => d.drawing.time)).toEqual([0.5, 1.48]);
    }
    // Unpublished: only the administrators see it exists.
    for (const who of [learner, editor, expert]) expect((await list(draft.id, who)).statusCode, who.email).toBe(404);
    expect((await list(draft.id, admin)).json().data).toHaveLength(1);
    expect((await list(published.id, null)).statusCode).toBe(401);
    expect((await list(crypto.randomUUID(), admin)).statusCode).toBe(404);

    const [first] = (await list(published.id, admin)).json().data as { id: string }[];
    const remove = (who: Person | null, id = first!.id) =>
      ctx.inject({ method: 'DELETE', url: `/v1/admin/best-cases/${published.id}/drawings/${id}`, token: who?.token });
    expect((await remove(null)).statusCode).toBe(401);
    for (const who of [learner, editor, expert]) expect((await remove(who)).statusCode, who.email).toBe(403);
    expect((await remove(admin, crypto.randomUUID())).statusCode).toBe(404);
    expect((await remove(admin)).statusCode).toBe(200);
    expect((await remove(admin)).statusCode).toBe(404);
    expect((await list(published.id, learner)).json().data).toHaveLength(1);
  });

  it('refuses a drawing from anyone but an administrator, and a bad one with a catalogue error', async () => {
    const bc = await bestCase(true);
    const good = { note: 'Ici', drawing: drawing(1) };
    expect((await add(bc.id, good, null)).statusCode).toBe(401);
    for (const who of [learner, editor, expert]) expect((await add(bc.id, good, who)).statusCode, who.email).toBe(403);
    expect((await add(crypto.randomUUID(), good)).statusCode).toBe(404);
    for (const body of [
      { note: '', drawing: drawing(1) },
      { note: 'Ici' },
      { note: 'Ici', drawing: { ...drawing(1), time: 60 } },
      { note: 'Ici', drawing: { ...drawing(1), shapes: [{ kind: 'arrow', color: 'white', from: [0, 0], to: [0, 3] }] } },
    ]) {
      const res = await add(bc.id, body, admin, 'fr');
      expect(res.statusCode, JSON.stringify(body).slice(0, 120)).toBe(400);
      const { code, message } = res.json().error as { code: ErrorCode; message: string };
      expect(message).toBe(errorMessage(code, 'fr'));
    }
    expect((await list(bc.id, admin)).json().data).toEqual([]);
  });
});
