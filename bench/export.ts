/**
 * The memory of a person's copy of their data as it grows: the export job (modules/data-export)
 * run on a person whose cases hold GB of video, at two sizes, printing the peak resident memory of
 * this process during each run. The ZIP is streamed from the store into the store, so the peak
 * must stay flat whatever the size.
 * Usage: node bench/export.ts [small GiB] [large GiB]   (default 1 and 5: the large one crosses
 * 4 GiB, so the archive and one of its files are ZIP64).
 *
 * The videos are synthetic (one random MiB repeated), written through Storage like any upload, on
 * local disk (or the S3 test server with TEST_STORAGE=s3, as the tests run). The database is the tests'
 * (TEST_DATABASE_URL, else an embedded one of its own). Needs free disk of about twice the two
 * sizes together (the objects and the ZIPs); everything is removed at the end.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import pino from 'pino';
import { eq } from 'drizzle-orm';
import { createTestContext } from '../apps/api/test/harness.ts';
import { dataExports, media, videos } from '../apps/api/src/db/schema.ts';
import { embeddedUrl, startEmbeddedServer } from '../apps/api/src/db/embedded-server.ts';

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;
const sizes = [Number(process.argv[2] ?? 1), Number(process.argv[3] ?? 5)];
const say = (line: string) => process.stdout.write(`${line}\n`);
const mb = (bytes: number) => `${(bytes / MiB).toFixed(0)} MB`;

/** `bytes` of synthetic video: one random MiB over and over (random, so no layer below may compress it). */
function synthetic(bytes: number): Readable {
  const block = randomBytes(MiB);
  let left = bytes;
  return new Readable({
    read() {
      if (left <= 0) return void this.push(null);
      const n = Math.min(left, block.length);
      left -= n;
      this.push(n === block.length ? block : block.subarray(0, n));
    },
  });
}

const dbFolder = process.env.TEST_DATABASE_URL ? undefined : await mkdtemp(path.join(tmpdir(), 'sutura-bench-export-db-'));
let embedded: Awaited<ReturnType<typeof startEmbeddedServer>> | undefined;
if (dbFolder) {
  // As root, the embedded PostgreSQL runs as its own system user, which must pass through here.
  await chmod(dbFolder, 0o711);
  embedded = await startEmbeddedServer({ dir: path.join(dbFolder, 'db'), log: pino({ level: 'silent' }), ephemeral: true });
  process.env.TEST_DATABASE_URL = embeddedUrl(embedded.connection);
}

const ctx = await createTestContext({ workers: false });
const db = ctx.database.db;
const results: { gib: number; bytes: number; seconds: number; baseline: number; peak: number }[] = [];
try {
  say(`storage: ${ctx.storage.kind} (${ctx.storage.location}); sizes ${sizes.join(' and ')} GiB`);
  if (process.env.TEST_STORAGE === 's3') say('(the S3 test server, s3rver, runs in this process: its memory is counted in the peaks)');
  // A first small run loads what any export loads once (the statistics, the stores' clients): not measured.
  for (const gib of [1 / 64, ...sizes]) {
    const warmUp = gib < sizes[0]!;
    const person = await ctx.createUser('learner');
    const [row] = await db.insert(videos).values({ authorId: person.id, status: 'analysed', mediaStatus: 'ready' }).returning();
    const caseId = row!.id;
    // Files of at most 4.5 GiB each (a long full HD recording), so that the large size has one past 4 GiB.
    let left = gib * GiB;
    let n = 0;
    const writeStart = Date.now();
    while (left > 0) {
      const size = Math.min(left, 4.5 * GiB);
      const key = `videos/${caseId}/bench-${n}.mp4`;
      const { size: written } = await ctx.storage.put(key, synthetic(size));
      await db
        .insert(media)
        .values({ ownerId: person.id, videoId: caseId, kind: 'video', storageKey: key, contentType: 'video/mp4', size: written });
      left -= size;
      n += 1;
    }
    say(`${gib} GiB: ${n} file(s) written through Storage in ${((Date.now() - writeStart) / 1000).toFixed(1)} s`);

    const [exportRow] = await db.insert(dataExports).values({ userId: person.id, lang: 'en' }).returning();
    global.gc?.();
    await new Promise((r) => setTimeout(r, 500));
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    const start = Date.now();
    await ctx.services.dataExport.build(exportRow!.id);
    const seconds = (Date.now() - start) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    const [done] = await db.select().from(dataExports).where(eq(dataExports.id, exportRow!.id));
    if (done?.status !== 'ready' || !done.mediaId) throw new Error(`export ${done?.status}`);
    const [zip] = await db.select().from(media).where(eq(media.id, done.mediaId));
    if (!warmUp) results.push({ gib, bytes: done.size!, seconds, baseline, peak });
    say(
      warmUp
        ? `warm-up: ZIP of ${mb(done.size!)}, RSS peak ${mb(peak)}`
        : `${gib} GiB: ZIP of ${mb(done.size!)} in ${seconds.toFixed(1)} s (${mb(done.size! / seconds)}/s); RSS before ${mb(baseline)}, peak ${mb(peak)} (+${mb(peak - baseline)})`,
    );
    // The archive checked by another reader than ours, where the store is a local folder.
    if (ctx.storage.kind === 'local') {
      const file = path.join(ctx.storage.location, zip!.storageKey);
      const check = spawnSync('unzip', ['-tq', file], { encoding: 'utf8' });
      if (check.error) say('  (unzip not found: archive not checked)');
      else if (check.status !== 0) throw new Error(`unzip -t: ${check.stdout}${check.stderr}`);
      else say(`  unzip -t: ${check.stdout.trim()}`);
    }
    await ctx.storage.deletePrefix(`videos/${caseId}`);
    await ctx.services.mediaService.remove(zip!.id);
  }
  const [a, b] = results as [(typeof results)[number], (typeof results)[number]];
  const growth = b.peak - b.baseline - (a.peak - a.baseline);
  const rate = b.bytes / b.seconds;
  say(
    `peak RSS: ${mb(a.peak)} at ${a.gib} GiB, ${mb(b.peak)} at ${b.gib} GiB (${growth >= 0 ? '+' : ''}${mb(growth)} over baseline for ${b.gib - a.gib} GiB more)`,
  );
  say(
    `50 GB: memory is one chunk in flight, the JSON files and ~100 bytes of central directory per file, whatever the bytes: the same peak as above; at ${mb(rate)}/s on this disk, about ${(50e9 / rate / 60).toFixed(0)} min`,
  );
} finally {
  await ctx.close();
  await embedded?.stop();
  if (dbFolder) await rm(dbFolder, { recursive: true, force: true });
}
