/**
 * How fast a prepared video is rendered, against a plain keyframe stream copy of the same ranges,
 * and how exact its cuts are. Usage: node bench/render.ts
 *
 * Sources (generated once, cached under bench/tmp): one hour of 1080p at 25 fps whose every
 * frame carries its number (a block pattern, see apps/api/test/frame-pattern.ts), with a
 * keyframe every 2 s, and the same with a keyframe every 10 s (as a remuxed camera file keeps
 * it). To stay quick on a small machine, two minutes are encoded (ultrafast, a simple test
 * picture) and stream-copied thirty times over: frame numbers then repeat every 3000 frames,
 * which is far more than any cut could be off by.
 *
 * For each source, in the same run, three times over, alternately:
 *   (a) baseline: each of three kept ranges stream-copied from the keyframe before its start
 *       (`-ss` before `-i`, `-c copy`: fast, but cut only on keyframes), joined into an MP4
 *       with +faststart — what a tool that does not re-encode would take;
 *   (b) the render job's smart cut (apps/api/src/media-pipeline/render-ranges.ts) in a worker
 *       process of its own, whose RSS (node and its ffmpeg children) is sampled every 100 ms.
 * Both start from the same caches: before every timed run, what earlier runs wrote is flushed
 * (`sync`) and the whole source is read once, so each run finds it in the page cache (a first
 * run from disk and a second from memory once made the same commit print 1.87 and 4.00). The
 * clock stops once the output is on disk (fsync). The figures are the median of the three runs,
 * the ratio that of the medians; the load average is printed beside them (a loaded machine
 * slows the encoded pieces of the render more than the copy).
 * Then the first and last frame of every range are read back from (b): the frame error is the
 * largest distance, in frames, from the source frame that should be there.
 * The last line: `render: ratio R of stream copy, frame error E` — the worse of the two sources.
 */
import { execFile, spawn } from 'node:child_process';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, open, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { patternClipArgs, readFrameNumbers } from '../apps/api/test/frame-pattern.ts';

const exec = promisify(execFile);
const ROOT = path.join(import.meta.dirname, 'tmp', 'render');
const RATE = 25;
const CHUNK_SECONDS = 120;
const CHUNK_FRAMES = CHUNK_SECONDS * RATE;
const REPEAT = 30;
const RUNS = 3;

/** Three kept ranges of the hour, cut between keyframes (seconds). */
const TRIMS = [
  { start: 5 * 60 + 0.52, end: 17 * 60 + 13.28 },
  { start: 25 * 60 + 7.04, end: 31 * 60 + 45.6 },
  { start: 40 * 60 + 33.36, end: 52 * 60 + 1.88 },
];
const RANGES = TRIMS.map((t) => ({ startFrame: Math.round(t.start * RATE), endFrame: Math.round(t.end * RATE) }));

async function source(gop: number): Promise<string> {
  const file = path.join(ROOT, `hour-1080p-gop${gop}.mp4`);
  if (existsSync(file)) return file;
  const chunk = path.join(ROOT, `chunk-1080p-gop${gop}.mp4`);
  process.stdout.write(`generating ${path.basename(file)} (once, cached)...\n`);
  const started = Date.now();
  await exec(
    'ffmpeg',
    patternClipArgs({ seconds: CHUNK_SECONDS, frameRate: RATE, gop, width: 1920, height: 1080, preset: 'ultrafast' }, chunk),
  );
  const list = path.join(ROOT, `chunk-gop${gop}.txt`);
  await writeFile(list, `${Array.from({ length: REPEAT }, () => `file '${chunk}'`).join('\n')}\n`);
  await exec('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'concat',
    '-safe',
    '0',
    '-i',
    list,
    '-c',
    'copy',
    '-movflags',
    '+faststart',
    `${file}.partial.mp4`,
  ]);
  await exec('mv', [`${file}.partial.mp4`, file]);
  await rm(chunk, { force: true });
  process.stdout.write(`  generated in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  return file;
}

async function streamCopy(file: string, work: string): Promise<number> {
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  const started = performance.now();
  const pieces: string[] = [];
  for (const [i, t] of TRIMS.entries()) {
    const piece = path.join(work, `copy-${i}.m2ts`);
    await exec('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y', '-ss', t.start.toFixed(3), '-i', file, '-t', (t.end - t.start).toFixed(3)],
      ...['-map', '0:v:0', '-map', '0:a:0', '-c', 'copy', '-f', 'mpegts', piece],
    ]);
    pieces.push(piece);
  }
  const list = path.join(work, 'copy.txt');
  await writeFile(list, pieces.map((p) => `file '${p}'`).join('\n') + '\n');
  const output = path.join(work, 'copy.mp4');
  await exec('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'concat', '-safe', '0', '-i', list],
    ...['-c', 'copy', '-movflags', '+faststart', output],
  ]);
  await fsync(output);
  return (performance.now() - started) / 1000;
}

/** Waits until a file's data is on disk. */
async function fsync(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * The same starting point for every timed run: nothing left to write back from earlier runs, and
 * the whole source read once, so that it is in the page cache for the baseline and the render alike.
 */
async function settle(file: string): Promise<void> {
  await exec('sync');
  await new Promise<void>((resolve, reject) => {
    const stream = createReadStream(file, { highWaterMark: 4 * 1024 * 1024 });
    stream.on('data', () => {});
    stream.on('end', resolve);
    stream.on('error', reject);
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** Resident memory of a process and all its descendants, in bytes, from /proc. */
async function treeRss(pid: number): Promise<{ own: number; tree: number }> {
  const rss = async (p: number) => {
    const status = await readFile(`/proc/${p}/status`, 'utf8').catch(() => '');
    const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : 0;
  };
  const children = async (p: number): Promise<number[]> => {
    const text = await readFile(`/proc/${p}/task/${p}/children`, 'utf8').catch(() => '');
    const direct = text.split(/\s+/).filter(Boolean).map(Number);
    return [...direct, ...(await Promise.all(direct.map(children))).flat()];
  };
  const own = await rss(pid);
  let tree = own;
  for (const child of await children(pid)) tree += await rss(child);
  return { own, tree };
}

async function smartCut(file: string, work: string): Promise<{ seconds: number; own: number; tree: number; summary: string }> {
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  const output = path.join(work, 'render.mp4');
  const script = `
    import { renderRanges } from ${JSON.stringify(path.resolve(import.meta.dirname, '../apps/api/src/media-pipeline/render-ranges.ts'))};
    const r = await renderRanges(${JSON.stringify(file)}, ${JSON.stringify(RANGES)}, ${JSON.stringify(output)}, ${JSON.stringify(work)});
    process.stdout.write(JSON.stringify({ plan: r.plan, copied: r.copiedFrames, encoded: r.encodedFrames, pieces: r.pieces.length }));
  `;
  const started = performance.now();
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let peak = { own: 0, tree: 0 };
  const timer = setInterval(() => {
    void treeRss(child.pid!).then((m) => {
      peak = { own: Math.max(peak.own, m.own), tree: Math.max(peak.tree, m.tree) };
    });
  }, 100);
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearInterval(timer);
  if (code !== 0) throw new Error(`render worker exited with ${code}`);
  await fsync(output);
  return { seconds: (performance.now() - started) / 1000, ...peak, summary: out };
}

/** Largest distance in frames between what the output shows at each cut and what it should. */
async function frameError(output: string): Promise<number> {
  let worst = 0;
  let offset = 0;
  const distance = (got: number | undefined, want: number) => {
    if (got === undefined) return Infinity;
    const d = Math.abs(got - (want % CHUNK_FRAMES));
    return Math.min(d, CHUNK_FRAMES - d);
  };
  for (const r of RANGES) {
    const length = r.endFrame - r.startFrame;
    // Half a frame before: a seek keeps the frames at or after the time.
    const [first] = await readFrameNumbers(output, { at: Math.max(0, offset - 0.5) / RATE, frames: 1 });
    const [last] = await readFrameNumbers(output, { at: (offset + length - 1.5) / RATE, frames: 1 });
    const off = Math.max(distance(first, r.startFrame), distance(last, r.endFrame - 1));
    if (off > 0) {
      process.stdout.write(
        `  range ${r.startFrame}..${r.endFrame}: first ${first} (want ${r.startFrame % CHUNK_FRAMES}), last ${last} (want ${(r.endFrame - 1) % CHUNK_FRAMES})\n`,
      );
    }
    worst = Math.max(worst, off);
    offset += length;
  }
  const { stdout } = await exec('ffprobe', [
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-count_packets',
    '-show_entries',
    'stream=nb_read_packets',
    '-of',
    'csv=p=0',
    output,
  ]);
  const counted = Number(stdout.trim());
  if (counted !== offset) process.stdout.write(`  ${counted} frames in the output, ${offset} kept\n`);
  return Math.max(worst, Math.abs(counted - offset));
}

await mkdir(ROOT, { recursive: true });
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
const kept = TRIMS.reduce((s, t) => s + t.end - t.start, 0);
process.stdout.write(`three kept ranges, ${(kept / 60).toFixed(1)} min of a 60 min 1080p source at ${RATE} fps, median of ${RUNS} runs\n`);
let worstRatio = 0;
let worstError = 0;
for (const gop of [2, 10]) {
  const file = await source(gop);
  const work = path.join(ROOT, `work-gop${gop}`);
  const loadBefore = load();
  const copies: number[] = [];
  const renders: number[] = [];
  let peak = { own: 0, tree: 0 };
  let summary = '';
  for (let run = 1; run <= RUNS; run++) {
    await settle(file);
    copies.push(await streamCopy(file, path.join(work, 'copy')));
    await settle(file);
    const render = await smartCut(file, path.join(work, 'render'));
    renders.push(render.seconds);
    peak = { own: Math.max(peak.own, render.own), tree: Math.max(peak.tree, render.tree) };
    summary = render.summary;
    process.stdout.write(
      `  keyframe every ${gop} s, run ${run}: stream copy ${copies.at(-1)!.toFixed(1)} s, render ${render.seconds.toFixed(1)} s, load ${load()}\n`,
    );
  }
  const error = await frameError(path.join(work, 'render', 'render.mp4'));
  const ratio = median(renders) / median(copies);
  worstRatio = Math.max(worstRatio, ratio);
  worstError = Math.max(worstError, error);
  process.stdout.write(
    `keyframe every ${gop} s: stream copy ${median(copies).toFixed(1)} s, render ${median(renders).toFixed(1)} s (${summary}), ` +
      `ratio ${ratio.toFixed(2)}, frame error ${error}, peak RSS worker ${mb(peak.own)} (with ffmpeg ${mb(peak.tree)}), ` +
      `load average ${loadBefore} before, ${load()} after\n`,
  );
  await rm(work, { recursive: true, force: true });
}
process.stdout.write(`render: ratio ${worstRatio.toFixed(2)} of stream copy, frame error ${worstError}\n`);
