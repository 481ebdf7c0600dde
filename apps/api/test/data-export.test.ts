// Runs on local disk and, with TEST_STORAGE=s3, on the S3 test server (harness.ts).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KPIS } from '@sutura/domain/analysis';
import type { DataExport, ErasureReceipt } from '@sutura/domain/data-export';
import { auditLog, dataExports, media, storageObjects, videos } from '../src/db/schema.ts';
import { createTestContext, type TestContext } from './harness.ts';
import { readableMail } from './mail-text.ts';
import { videoForm } from './video-fixtures.ts';

/** The first mail to `to` whose subject says `subject`, decoded (waits for the mail job). */
async function mailAbout(to: string, subject: string): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const dir = path.join(ctx.dataDir, 'outbox');
    for (const file of (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith(`-${to}.eml`))) {
      const mail = readableMail(await readFile(path.join(dir, file), 'utf8'));
      if (mail.includes(`Subject: ${subject}`)) return mail;
    }
    if (Date.now() > deadline) throw new Error(`no mail "${subject}" to ${to}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

type Person = Awaited<ReturnType<TestContext['createUser']>>;
let ctx: TestContext;
let base: string;
let work: string;
let expert: Person;
const db = () => ctx.database.db;

/** The files of a ZIP read from its central directory (ZIP64 fields), as a reader of the archive would. */
function readZip(zip: Buffer): Map<string, Buffer> {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  expect(eocd).toBeGreaterThan(0);
  const locator = eocd - 20;
  expect(zip.readUInt32LE(locator)).toBe(0x07064b50);
  const zip64End = Number(zip.readBigUInt64LE(locator + 8));
  expect(zip.readUInt32LE(zip64End)).toBe(0x06064b50);
  const entries = Number(zip.readBigUInt64LE(zip64End + 32));
  let at = Number(zip.readBigUInt64LE(zip64End + 48));
  const out = new Map<string, Buffer>();
  for (let i = 0; i < entries; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const extra = at + 46 + nameLength;
    expect(zip.readUInt16LE(extra)).toBe(0x0001);
    const size = Number(zip.readBigUInt64LE(extra + 4));
    const local = Number(zip.readBigUInt64LE(extra + 20));
    expect(zip.readUInt32LE(local)).toBe(0x04034b50);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    out.set(name, zip.subarray(start, start + size));
    at = extra + extraLength + commentLength;
  }
  return out;
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function picture(person: Person, body: Record<string, string>, colour: string): Promise<void> {
  const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: colour } })
    .png()
    .toBuffer();
  const form = new FormData();
  for (const [k, v] of Object.entries(body)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'p.png');
  const res = await fetch(`${base}/v1/common/medias/create/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${person.token}` },
    body: form,
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

const levels = (level: number) => Object.fromEntries(KPIS.map((k) => [k, level]));

/** A learner with a pictures case (one picture), an avatar, and an analysed case whose result is released to them. */
async function learnerWithData(name: string, colour: string) {
  const person = await ctx.createUser('learner', {
    firstName: name,
    lastName: `${name}-Lastname`,
    email: `${name.toLowerCase()}@example.org`,
  });
  const created = await ctx.inject({ method: 'POST', url: '/v1/videos', token: person.token, body: await videoForm(ctx, 'pictures') });
  expect(created.statusCode, created.body).toBe(201);
  const picturesCase = created.json().data.id as string;
  await picture(person, { purpose: 'picture', videoId: picturesCase }, colour);
  await picture(person, { purpose: 'avatar' }, colour);

  const [row] = await db()
    .insert(videos)
    .values({ authorId: person.id, status: 'pending_analysis', mediaStatus: 'ready', duration: 60, sentAt: new Date() })
    .returning();
  const analysed = row!.id;
  const rated = await ctx.inject({
    method: 'PUT',
    url: `/v1/videos/${analysed}/self-assessment`,
    token: person.token,
    body: { kpiRatings: levels(4), globalRating: 4 },
  });
  expect(rated.statusCode, rated.body).toBe(200);
  const claimed = await ctx.inject({ method: 'POST', url: `/v1/expert/videos/${analysed}/claim`, token: expert.token, body: {} });
  expect(claimed.statusCode, claimed.body).toBe(200);
  const fencingToken = claimed.json().data.fencingToken as number;
  const saved = await ctx.inject({
    method: 'PUT',
    url: `/v1/expert/videos/${analysed}/analysis`,
    token: expert.token,
    body: { fencingToken, kpiRatings: levels(3), globalRating: 3, assessment: `Assessment for ${name}`, advice: `Advice for ${name}` },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  const done = await ctx.inject({
    method: 'POST',
    url: `/v1/expert/videos/${analysed}/finalize`,
    token: expert.token,
    body: { fencingToken, confirmAnyway: true },
  });
  expect(done.statusCode, done.body).toBe(200);
  return { ...person, name, cases: [picturesCase, analysed] };
}

async function exportOf(person: Person): Promise<{ view: DataExport; zip: Buffer }> {
  const asked = await ctx.inject({ method: 'POST', url: '/v1/users/me/export', token: person.token, body: {} });
  expect(asked.statusCode).toBe(200);
  const deadline = Date.now() + 90_000;
  for (;;) {
    const res = await ctx.inject({ method: 'GET', url: '/v1/users/me/export', token: person.token });
    const view = res.json().data as DataExport;
    if (view.status === 'ready') {
      const download = await ctx.inject({ method: 'GET', url: view.downloadUrl! });
      expect(download.statusCode).toBe(200);
      expect(download.headers['content-type']).toBe('application/zip');
      expect(download.headers['content-disposition']).toMatch(/^attachment/);
      return { view, zip: download.rawPayload };
    }
    expect(view.status).not.toBe('failed');
    if (Date.now() > deadline) throw new Error(`export still ${view.status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** What the API answers the person, with each signed media URL replaced as the export does: by the file's path in the ZIP (found by its media id), or null. */
function asExported(value: unknown, names: string[]): unknown {
  if (typeof value === 'string') {
    const match = /^\/v1\/media\/([0-9a-f-]{36})\?/.exec(value);
    return match ? (names.find((n) => n.includes(match[1]!)) ?? null) : value;
  }
  if (Array.isArray(value)) return value.map((v) => asExported(v, names));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asExported(v, names)]));
  return value;
}

const withoutAt = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(withoutAt)
    : value && typeof value === 'object'
      ? Object.fromEntries(Object.entries(value).flatMap(([k, v]) => (k === 'at' ? [] : [[k, withoutAt(v)]])))
      : value;

const api = async (person: Person, url: string) => {
  const res = await ctx.inject({ method: 'GET', url, token: person.token });
  expect(res.statusCode, `${url} ${res.body}`).toBe(200);
  return res.json().data as unknown;
};
const parse = (files: Map<string, Buffer>, name: string) => {
  const file = files.get(name);
  expect(file, `${name} in the export`).toBeDefined();
  return JSON.parse(file!.toString('utf8')) as unknown;
};

let alice: Awaited<ReturnType<typeof learnerWithData>>;
let bruno: Awaited<ReturnType<typeof learnerWithData>>;

beforeAll(async () => {
  ctx = await createTestContext({ listen: true });
  base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  work = await mkdtemp(path.join(tmpdir(), 'sutura-export-'));
  expert = await ctx.createUser('expert', { firstName: 'Eva', lastName: 'Expert-Lastname' });
  alice = await learnerWithData('Alice', '#17C7A4');
  bruno = await learnerWithData('Bruno', '#C71744');
}, 120_000);

afterAll(async () => {
  await ctx?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('a person’s copy of their data', () => {
  it('is one job: two requests at once answer the same export, which the person alone reads', async () => {
    const [one, two] = await Promise.all(
      [0, 1].map(() => ctx.inject({ method: 'POST', url: '/v1/users/me/export', token: alice.token, body: {} })),
    );
    expect([one!.statusCode, two!.statusCode]).toEqual([200, 200]);
    expect(one!.json().data.id).toBe(two!.json().data.id);
    const rows = await db().select().from(dataExports).where(eq(dataExports.userId, alice.id));
    expect(rows).toHaveLength(1);
    // Another person sees none of it.
    expect((await ctx.inject({ method: 'GET', url: '/v1/users/me/export', token: bruno.token })).json().data).toBeNull();
    expect((await ctx.inject({ method: 'GET', url: '/v1/users/me/export' })).statusCode).toBe(401);
    const { view } = await exportOf(alice);
    expect(view).toMatchObject({ id: one!.json().data.id, status: 'ready' });
    expect(view.filesDone).toBe(view.filesTotal);
    expect(view.bytesDone).toBe(view.bytesTotal);
    // The ZIP counts in the storage's figures as a copy of personal data, at its size.
    const [zipRow] = await db().select().from(dataExports).where(eq(dataExports.userId, alice.id));
    const [zipMedia] = await db().select().from(media).where(eq(media.id, zipRow!.mediaId!));
    const [accounted] = await db().select().from(storageObjects).where(eq(storageObjects.key, zipMedia!.storageKey));
    expect(accounted).toMatchObject({ kind: 'exports', size: zipRow!.size });
    // The download URL names its person: Bruno cannot turn it into his.
    const forged = view.downloadUrl!.replace(`u=${alice.id}`, `u=${bruno.id}`);
    expect((await ctx.inject({ method: 'GET', url: forged })).statusCode).toBe(404);
    // The mail points to the page, not to the file.
    const mail = await mailAbout(alice.email, 'Sutura : la copie de vos données est prête');
    expect(mail).toContain('/my-account?tab=data');
  });

  it('holds, field by field, what the API answers the person, and their files byte for byte', async () => {
    const { zip } = await exportOf(alice);
    const archive = path.join(work, 'alice.zip');
    await writeFile(archive, zip);
    const unzip = spawnSync('unzip', ['-t', archive], { encoding: 'utf8' });
    if (!unzip.error) expect(unzip.status, unzip.stdout).toBe(0);
    const files = readZip(zip);
    const names = [...files.keys()];
    expect(names).toEqual(
      expect.arrayContaining([
        'LISEZ-MOI.txt',
        'profile.json',
        'cases.json',
        'analyses-received.json',
        'self-assessments.json',
        'nasa-tlx.json',
        'statistics.json',
        'notifications.json',
        'consents.json',
        'sign-in-history.json',
        'linked-identities.json',
      ]),
    );
    expect(files.get('LISEZ-MOI.txt')!.toString()).toContain('cases.json');

    expect(parse(files, 'profile.json')).toEqual(asExported(await api(alice, '/v1/users/profile/me'), names));
    const cases = [];
    for (const id of alice.cases) cases.push(asExported(await api(alice, `/v1/videos/${id}`), names));
    expect(parse(files, 'cases.json')).toEqual(cases);
    const result = await api(alice, `/v1/videos/${alice.cases[1]}/analysis?ifReady=true`);
    expect(result).not.toBeNull();
    expect(parse(files, 'analyses-received.json')).toEqual([{ caseId: alice.cases[1], result: asExported(result, names) }]);
    const assessments = [];
    for (const id of alice.cases) assessments.push({ caseId: id, selfAssessment: await api(alice, `/v1/videos/${id}/self-assessment`) });
    expect(parse(files, 'self-assessments.json')).toEqual(assessments);
    expect(parse(files, 'nasa-tlx.json')).toEqual(await api(alice, '/v1/stats/me/nasa-tlx'));
    // The statistics say when they were computed (`at`): that moment alone differs.
    expect(withoutAt(parse(files, 'statistics.json'))).toEqual(
      withoutAt({
        ratings: await api(alice, '/v1/stats/me'),
        stepTimes: await api(alice, '/v1/stats/me/steps'),
        selfAssessment: await api(alice, '/v1/stats/me/self-assessment'),
      }),
    );
    const notifications = (await api(alice, '/v1/notification/list?limit=100')) as { data: unknown[] };
    expect(notifications.data.length).toBeGreaterThan(0);
    expect((parse(files, 'notifications.json') as unknown[]).length).toBe(notifications.data.length);
    expect(parse(files, 'notifications.json')).toEqual(notifications.data);
    expect(parse(files, 'linked-identities.json')).toEqual(await api(alice, '/v1/users/profile/me/identities'));
    expect((parse(files, 'sign-in-history.json') as { sessions: unknown[] }).sessions.length).toBeGreaterThan(0);

    // Every file of hers, byte for byte as the store holds it: the picture, the avatar; and the PDF report.
    const mine = await db().select().from(media).where(eq(media.ownerId, alice.id));
    const stored = mine.filter((m) => m.kind === 'picture' || m.kind === 'avatar');
    expect(stored).toHaveLength(2);
    for (const row of stored) {
      const name = names.find((n) => n.includes(row.id));
      expect(name, row.kind).toBeDefined();
      const chunks: Buffer[] = [];
      for await (const c of await ctx.storage.read(row.storageKey)) chunks.push(c as Buffer);
      expect(sha(files.get(name!)!)).toBe(sha(Buffer.concat(chunks)));
    }
    const report = files.get(`files/cases/${alice.cases[1]}/report.pdf`);
    expect(report?.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('never holds another person’s data; an expert’s holds the analyses they wrote without the learners’ identities', async () => {
    const { zip } = await exportOf(alice);
    const all = zip.toString('latin1');
    const [brunoPicture] = await db()
      .select()
      .from(media)
      .where(and(eq(media.ownerId, bruno.id), eq(media.kind, 'picture')));
    for (const mark of [bruno.id, bruno.email, 'Bruno', ...bruno.cases, brunoPicture!.id, 'Advice for Bruno']) {
      expect(all, mark).not.toContain(mark);
    }

    const { zip: expertZip } = await exportOf(expert);
    const files = readZip(expertZip);
    const written = parse(files, 'analyses-written.json') as { caseId: string; advice: string }[];
    expect(written.map((w) => w.advice).sort()).toEqual(['Advice for Alice', 'Advice for Bruno']);
    const text = expertZip.toString('utf8');
    for (const mark of [alice.id, bruno.id, alice.email, bruno.email, 'Alice-Lastname', 'Bruno-Lastname'])
      expect(text, mark).not.toContain(mark);
    // A learner's files are not in an expert's copy.
    expect([...files.keys()].filter((n) => n.startsWith('files/cases/'))).toEqual([]);
  });

  it('expires after seven days: the ZIP is removed, the page says so', async () => {
    const before = (await ctx.inject({ method: 'GET', url: '/v1/users/me/export', token: alice.token })).json().data as DataExport;
    const [row] = await db().select().from(dataExports).where(eq(dataExports.id, before.id));
    const [zipRow] = await db().select().from(media).where(eq(media.id, row!.mediaId!));
    expect(await ctx.storage.size(zipRow!.storageKey)).toBeGreaterThan(0);
    // Seven days on: the expiry is moved back rather than the clock (sessions would end too).
    await db()
      .update(dataExports)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(dataExports.id, row!.id));
    const after = (await ctx.inject({ method: 'GET', url: '/v1/users/me/export', token: alice.token })).json().data as DataExport;
    expect(after).toMatchObject({ status: 'expired', downloadUrl: null });
    expect(await ctx.services.dataExport.expire()).toEqual({ expired: 1 });
    expect(await ctx.storage.size(zipRow!.storageKey)).toBeUndefined();
    expect(await db().select().from(media).where(eq(media.id, zipRow!.id))).toEqual([]);
    // Asked again, a new one is made.
    const again = await ctx.inject({ method: 'POST', url: '/v1/users/me/export', token: alice.token, body: {} });
    expect(again.json().data.id).not.toBe(before.id);
  });
});

describe('a file the store lost', () => {
  it('is listed in missing-files.json; the rest of the copy is made', async () => {
    const person = await ctx.createUser('learner');
    await picture(person, { purpose: 'avatar' }, '#336699');
    const [avatar] = await db().select().from(media).where(eq(media.ownerId, person.id));
    await ctx.storage.delete(avatar!.storageKey);
    const { view, zip } = await exportOf(person);
    expect(view.filesDone).toBe(view.filesTotal);
    const files = readZip(zip);
    expect(parse(files, 'missing-files.json')).toEqual([`files/avatar-${avatar!.id}.webp`]);
    expect(files.has('profile.json')).toBe(true);
    expect(files.get('LISEZ-MOI.txt')!.toString()).toContain('missing-files.json');
  });
});

describe('erasure with a receipt', () => {
  it('deleting an account answers and mails a receipt of what was erased and what is kept and why', async () => {
    // A copy of his data made before: it goes with the account.
    await exportOf(bruno);
    const [copy] = await db()
      .select()
      .from(media)
      .where(and(eq(media.ownerId, bruno.id), eq(media.kind, 'data-export')));
    expect(await ctx.storage.size(copy!.storageKey)).toBeGreaterThan(0);
    const res = await ctx.inject({
      method: 'POST',
      url: '/v1/users/me/delete',
      token: bruno.token,
      body: { password: bruno.password, confirmation: 'SUPPRIMER' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const receipt = res.json().data as ErasureReceipt;
    const erased = Object.fromEntries(receipt.erased.map((e) => [e.item, e.count]));
    expect(erased).toMatchObject({ profile: 1, cases: 2, analysesReceived: 1, selfAssessments: 1, dataExports: 1 });
    // The picture, the avatar and the copy of his data.
    expect(erased.files).toBe(3);
    expect(await ctx.storage.size(copy!.storageKey)).toBeUndefined();
    expect(erased.notifications).toBeGreaterThan(0);
    expect(erased.sessions).toBeGreaterThan(0);
    const kept = Object.fromEntries(receipt.kept.map((k) => [k.item, k.count]));
    expect(kept.auditRows).toBeGreaterThan(0);
    expect(kept.bestCases).toBe(0);
    // The audit rows kept say nothing of him, and the deletion's row names the receipt.
    const rows = await db().select().from(auditLog).where(eq(auditLog.actorId, bruno.id));
    expect(rows.length).toBe(kept.auditRows);
    for (const row of rows) expect(row.ip).toBeNull();
    const deletion = rows.find((r) => r.action === 'user.deleted');
    expect(deletion?.details).toMatchObject({ receiptId: receipt.receiptId });
    const mail = await mailAbout(bruno.email, 'Sutura : reçu de la suppression de votre compte');
    expect(mail).toContain(receipt.receiptId);
    expect(mail).toContain('Conservé, et pourquoi');
  });
});
