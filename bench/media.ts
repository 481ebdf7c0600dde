/**
 * What the media pipeline costs against what ffmpeg alone does with the same file, in one run.
 * Usage: node bench/media.ts [height]   (default 360; 1080 for full HD, slower to generate)
 *
 * Sources, generated once into $TMPDIR/sutura-bench-media and reused: one hour of H.264 + AAC in
 * MP4 as a recorder writes it (index at the end, a keyframe every 2 s, 25 fps, 16:9 at the given
 * height), made by joining copies of one generated minute; and that minute in Matroska, which
 * the pipeline re-encodes. The small default size keeps generation quick on a small machine; the
 * remux path's cost grows with the bytes, as a stream copy's does.
 *
 *   remux:     (a) `ffmpeg -i source -c copy out.mp4`, a plain stream copy (the floor of any
 *              remux); (b) processVideo() on a copy of the same file: probe, one ffmpeg run
 *              writing the MP4 with its index first and, beside it, the poster and the
 *              storyboard from the keyframes they show, checks, files moved into storage, rows
 *              written. The ratio is b / a.
 *   transcode: (a) `ffmpeg -i source -c:v libx264 -preset veryfast -crf 23 -c:a aac out.mp4`;
 *              (b) processVideo() on the Matroska minute. The ratio is b / a.
 * Each run starts once the writes of the one before are on the disk. Each figure is the faster
 * of two runs, in wall time and in processor time (this process and the ffmpeg/ffprobe it ran):
 * on a machine shared with other work the wall time mostly measures the wait for a processor. The database is the tests' (TEST_DATABASE_URL, else the embedded one).
 * The last line sums it up, with the load the machine was under.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, copyFile, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { eq } from 'drizzle-orm';
import { createTestContext } from '../apps/api/test/harness.ts';
import { videos } from '../apps/api/src/db/schema.ts';
import { embeddedUrl, startEmbeddedServer } from '../apps/api/src/db/embedded-server.ts';
import { ffmpegCapabilities, fileArg, run } from '../apps/api/src/media-pipeline/ffmpeg.ts';
import { processVideo } from '../apps/api/src/media-pipeline/process-video.ts';

const height = Number(process.argv[2] ?? 360);
const width = Math.round((height * 16) / 9 / 2) * 2;
const bitrate = height >= 1080 ? '8M' : height >= 720 ? '4M' : '1500k';
const cache = path.join(tmpdir(), 'sutura-bench-media', `${width}x${height}`);
const say = (line: string) => process.stdout.write(`${line}\n`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function exists(file: string) {
  return stat(file).then(
    () => true,
    () => false,
  );
}

/**
 * Processor time of this process and of its children that ended (ffmpeg, ffprobe), in ms. On a
 * machine shared with other work, the wall time mostly measures the wait for a processor; the
 * processor time is what the work itself costs.
 */
function cpuMs(): number {
  const own = process.cpuUsage();
  let children = 0;
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // cutime and cstime, the 16th and 17th fields, in clock ticks (100 a second on Linux).
    children = ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
  } catch {
    // Not Linux: the children's time is not counted.
  }
  return (own.user + own.system) / 1000 + children;
}

interface Cost {
  ms: number;
  cpu: number;
}

/**
 * Writes still pending go to the disk before the clock starts (`sync`, not timed): else a run
 * waits behind the flush of the gigabytes the run before it, or the copy of the source, left in
 * memory, and which side pays for it depends on the order.
 */
function settle() {
  spawnSync('sync', { stdio: 'ignore' });
}

async function timed(work: () => Promise<void>): Promise<Cost> {
  settle();
  const [start, startCpu] = [performance.now(), cpuMs()];
  await work();
  return { ms: performance.now() - start, cpu: cpuMs() - startCpu };
}

/** The faster of two runs (wall time and processor time each), each followed by its cleanup. */
async function best(work: () => Promise<void>, cleanup: () => Promise<void>): Promise<Cost> {
  const fastest = { ms: Infinity, cpu: Infinity };
  for (let i = 0; i < 2; i++) {
    const cost = await timed(work);
    fastest.ms = Math.min(fastest.ms, cost.ms);
    fastest.cpu = Math.min(fastest.cpu, cost.cpu);
    await cleanup();
  }
  return fastest;
}

const figures = (cost: Cost) => `${seconds(cost.ms)} (processor ${seconds(cost.cpu)})`;

async function sources(): Promise<{ hour: string; minute: string }> {
  await mkdir(cache, { recursive: true });
  const minuteMp4 = path.join(cache, 'minute.mp4');
  const minute = path.join(cache, 'minute.mkv');
  const hour = path.join(cache, 'hour.mp4');
  if (!(await exists(minuteMp4))) {
    say(`Generating one minute at ${width}×${height}…`);
    await run([
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=${width}x${height}:rate=25:duration=60`,
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=48000:duration=60',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-b:v',
      bitrate,
      '-pix_fmt',
      'yuv420p',
      '-g',
      '50',
      '-keyint_min',
      '50',
      '-sc_threshold',
      '0',
      '-c:a',
      'aac',
      '-b:a',
      '128k',
      '-f',
      'mp4',
      fileArg(minuteMp4),
    ]);
  }
  if (!(await exists(minute))) await run(['-i', fileArg(minuteMp4), '-c', 'copy', '-f', 'matroska', fileArg(minute)]);
  if (!(await exists(hour))) {
    say('Joining sixty copies into one hour…');
    const list = path.join(cache, 'list.txt');
    await writeFile(list, Array.from({ length: 60 }, () => `file '${minuteMp4}'\n`).join(''));
    await run(['-f', 'concat', '-safe', '0', '-i', fileArg(list), '-c', 'copy', '-f', 'mp4', fileArg(`${hour}.partial`)]);
    await copyFile(`${hour}.partial`, hour);
    await rm(`${hour}.partial`);
  }
  return { hour, minute };
}

const { hour, minute } = await sources();
const caps = await ffmpegCapabilities();
say(
  `ffmpeg ${caps.ffmpeg.version} (${caps.ffmpeg.origin}); sources in ${cache}; ${((await stat(hour)).size / 1024 ** 2).toFixed(0)} MB for the hour`,
);

// Outside Vitest there is no run-wide embedded server to borrow: without TEST_DATABASE_URL, one of
// its own (the harness creates its database on it).
const dbFolder = process.env.TEST_DATABASE_URL ? undefined : await mkdtemp(path.join(tmpdir(), 'sutura-bench-media-db-'));
let database: Awaited<ReturnType<typeof startEmbeddedServer>> | undefined;
if (dbFolder) {
  // As root, the embedded PostgreSQL runs as its own system user, which must pass through here.
  await chmod(dbFolder, 0o711);
  database = await startEmbeddedServer({ dir: path.join(dbFolder, 'db'), log: pino({ level: 'silent' }), ephemeral: true });
  process.env.TEST_DATABASE_URL = embeddedUrl(database.connection);
}

const ctx = await createTestContext({ workers: false });
const out = path.join(ctx.dataDir, 'bench-out.mp4');
try {
  const author = await ctx.createUser('learner');
  const steps: string[] = [];
  let readyAt = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const entry = JSON.parse(chunk.toString()) as { step?: string; ms?: number };
      if (entry.step && entry.ms !== undefined) steps.push(`${entry.step} ${seconds(entry.ms)}`);
      done();
    },
  });
  const deps = {
    db: ctx.database.db,
    storage: ctx.storage,
    uploads: ctx.services.uploads,
    scratch: ctx.services.scratch,
    mediaService: ctx.services.mediaService,
    notifications: ctx.services.notifications,
    hub: {
      // When the author is told the video is ready (the job then deletes the upload).
      emitToUser: (_user: string, _event: string, payload: unknown) => {
        if ((payload as { mediaStatus?: string } | null)?.mediaStatus === 'ready') readyAt = performance.now();
      },
      emitToRole: () => {},
      disconnectSessions: () => {},
    },
    config: ctx.config,
    log: pino({ level: 'debug' }, sink),
  };

  /** processVideo on a copy of the file, as the upload route leaves it (the copy is not timed). */
  async function pipeline(file: string): Promise<Cost & { ready: number; remuxed: boolean; steps: string }> {
    const fastest = { ms: Infinity, cpu: Infinity, ready: Infinity };
    let remuxed = false;
    let fastestSteps = '';
    for (let i = 0; i < 2; i++) {
      const key = `uploads/${randomUUID()}`;
      await mkdir(path.join(ctx.dataDir, 'uploads'), { recursive: true });
      await copyFile(file, path.join(ctx.dataDir, key));
      const [row] = await ctx.database.db
        .insert(videos)
        .values({ authorId: author.id, kind: 'video', mediaStatus: 'processing', sourceKey: key, sourceSize: (await stat(file)).size })
        .returning();
      steps.length = 0;
      let startedAt = 0;
      const cost = await timed(() => {
        startedAt = performance.now();
        return processVideo(deps, row!.id);
      });
      fastest.ready = Math.min(fastest.ready, readyAt - startedAt);
      if (cost.ms < fastest.ms) [fastest.ms, fastestSteps] = [cost.ms, steps.join(', ')];
      fastest.cpu = Math.min(fastest.cpu, cost.cpu);
      const [done] = await ctx.database.db.select().from(videos).where(eq(videos.id, row!.id));
      if (done?.mediaStatus !== 'ready') throw new Error(`the pipeline did not finish: ${done?.mediaStatus} ${done?.failureReason}`);
      remuxed = done.remuxed ?? false;
      await ctx.storage.deletePrefix(`videos/${row!.id}`);
      await ctx.database.db.delete(videos).where(eq(videos.id, row!.id));
    }
    return { ...fastest, remuxed, steps: fastestSteps };
  }

  const copy = await best(
    () => run(['-i', fileArg(hour), '-map', '0', '-c', 'copy', '-f', 'mp4', fileArg(out)]).then(() => {}),
    () => rm(out, { force: true }),
  );
  say(`(a) plain stream copy of the hour:     ${figures(copy)}`);
  const remux = await pipeline(hour);
  if (!remux.remuxed) throw new Error('the hour was not remuxed');
  say(`(b) the pipeline on the hour (remux):  ${figures(remux)}, ready after ${seconds(remux.ready)}; ${remux.steps}`);

  const encode = await best(
    () =>
      run([
        '-i',
        fileArg(minute),
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-crf',
        '23',
        '-c:a',
        'aac',
        '-b:a',
        '128k',
        '-f',
        'mp4',
        fileArg(out),
      ]).then(() => {}),
    () => rm(out, { force: true }),
  );
  say(`(c) plain ffmpeg encode of the minute: ${figures(encode)}`);
  const transcode = await pipeline(minute);
  if (transcode.remuxed) throw new Error('the minute was not transcoded');
  say(`(d) the pipeline on the minute (transcode): ${figures(transcode)}; ${transcode.steps}`);

  const ratio = (a: number, b: number) => (a / b).toFixed(2);
  say(
    `media: remux ${ratio(remux.ms, copy.ms)} of stream copy (processor ${ratio(remux.cpu, copy.cpu)}, ready at ${ratio(remux.ready, copy.ms)}; 1 h source, ${width}×${height}), ` +
      `transcode ${ratio(transcode.ms, encode.ms)} of plain ffmpeg encode (processor ${ratio(transcode.cpu, encode.cpu)}; 1 min source); ` +
      `ffmpeg ${caps.ffmpeg.version}, load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`,
  );
} finally {
  await ctx.close();
  await database?.stop();
  if (dbFolder) await rm(dbFolder, { recursive: true, force: true });
}
