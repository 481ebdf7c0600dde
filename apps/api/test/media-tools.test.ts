// @media: runs ffmpeg and ffprobe
import { spawn } from 'node:child_process';
import { chmod, copyFile, mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffmpegCapabilities, frameTiming, locateTool, orphanGuard, run } from '../src/media-pipeline/ffmpeg.ts';

/** Where ffmpeg comes from, what it can do, and that no ffmpeg outlives its job or its server. */

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'sutura-media-tools-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('finding ffmpeg', () => {
  it('takes FFMPEG_PATH first, then the one on PATH, then the one shipped as an npm package', async () => {
    expect(locateTool('ffmpeg', '/opt/ffmpeg/bin/ffmpeg', '/usr/bin')).toEqual({ path: '/opt/ffmpeg/bin/ffmpeg', origin: 'env' });
    const bin = path.join(scratch, 'bin');
    await mkdir(bin);
    await writeFile(path.join(bin, 'ffmpeg'), '#!/bin/sh\n');
    await chmod(path.join(bin, 'ffmpeg'), 0o755);
    expect(locateTool('ffmpeg', undefined, `/nonexistent${path.delimiter}${bin}`)).toEqual({
      path: path.join(bin, 'ffmpeg'),
      origin: 'system',
    });
    for (const name of ['ffmpeg', 'ffprobe'] as const) {
      const shipped = locateTool(name, undefined, '/nonexistent');
      expect(shipped.origin).toBe('npm');
      expect(shipped.path).toContain(path.join('node_modules', `@${name}-installer`));
    }
  });

  it('detects what the npm-shipped ffmpeg can do and adapts the arguments to it', async () => {
    const ffmpegPath = locateTool('ffmpeg', undefined, '').path;
    const ffprobePath = locateTool('ffprobe', undefined, '').path;
    const caps = await ffmpegCapabilities({ ffmpegPath, ffprobePath });
    expect(caps).toMatchObject({ usable: true, problems: [], ffmpeg: { origin: 'npm' }, ffprobe: { origin: 'npm' } });
    expect(caps.encoders.has('libx264')).toBe(true);
    expect(caps.filters.has('blackdetect')).toBe(true);
    // A 2018 build: -fps_mode came with ffmpeg 5.1, before it -vsync said the same.
    expect(caps.fpsMode).toBe(false);
    expect(frameTiming(caps, 'passthrough')).toEqual(['-vsync', 'passthrough']);
    expect(frameTiming({ fpsMode: true }, 'cfr')).toEqual(['-fps_mode', 'cfr']);
  });

  it('says what is missing when ffmpeg cannot be run', async () => {
    const caps = await ffmpegCapabilities({ ffmpegPath: path.join(scratch, 'no-ffmpeg'), ffprobePath: path.join(scratch, 'no-ffprobe') });
    expect(caps.usable).toBe(false);
    expect(caps.problems).toEqual([
      `cannot run ffmpeg (${path.join(scratch, 'no-ffmpeg')})`,
      `cannot run ffprobe (${path.join(scratch, 'no-ffprobe')})`,
    ]);
  });
});

/** Live ffmpeg processes whose command line holds the marker (zombies awaiting their reaper are dead). */
async function liveFfmpeg(marker: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const [cmdline, stat] = await Promise.all([readFile(`/proc/${entry}/cmdline`, 'utf8'), readFile(`/proc/${entry}/stat`, 'utf8')]);
      const argv = cmdline.split('\0');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (path.basename(argv[0] ?? '') === 'ffmpeg' && cmdline.includes(marker) && state !== 'Z') found.push(Number(entry));
    } catch {
      // The process ended while it was read.
    }
  }
  return found;
}

async function waitFor<T>(probe: () => Promise<T>, done: (value: T) => boolean, ms: number): Promise<T> {
  const until = Date.now() + ms;
  let value = await probe();
  while (!done(value) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
    value = await probe();
  }
  return value;
}

/** An endless encode through the adapter, as the pipeline runs it; the marker names it in /proc. */
const endless = (marker: string) => [
  '-f',
  'lavfi',
  '-i',
  'testsrc2=size=320x240:rate=25',
  '-c:v',
  'libx264',
  '-preset',
  'ultrafast',
  '-metadata',
  `comment=${marker}`,
  '-f',
  'null',
  '-',
];

describe('no ffmpeg outlives', () => {
  it('its job: an aborted run kills its ffmpeg', async () => {
    const marker = `sutura-abort-${randomUUID()}`;
    const controller = new AbortController();
    const running = run(endless(marker), { signal: controller.signal, onProgress: () => controller.abort() });
    await expect(running).rejects.toThrow(/aborted/);
    expect(
      await waitFor(
        () => liveFfmpeg(marker),
        (p) => p.length === 0,
        3000,
      ),
    ).toEqual([]);
  });

  for (const guard of ['pdeathsig', 'watchdog'] as const) {
    it(`its server killed with SIGKILL (${guard})`, async () => {
      // setpriv (util-linux) is on every Linux this runs on; elsewhere only the watchdog applies.
      if (guard === 'pdeathsig' && orphanGuard() !== 'pdeathsig') return;
      const marker = `sutura-orphan-${randomUUID()}`;
      const adapter = path.resolve(import.meta.dirname, '../src/media-pipeline/ffmpeg.ts');
      const script = [
        `import { chooseOrphanGuard, run } from ${JSON.stringify(adapter)};`,
        `chooseOrphanGuard(${JSON.stringify(guard)});`,
        `let told = false;`,
        `await run(${JSON.stringify(endless(marker))}, { onProgress: () => { if (!told) { told = true; process.stdout.write('encoding\\n'); } } });`,
      ].join('\n');
      const server = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
      try {
        await new Promise<void>((resolve, reject) => {
          server.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('encoding') && resolve());
          server.on('exit', (code) => reject(new Error(`the server process ended first (${code})`)));
        });
        expect(await liveFfmpeg(marker)).toHaveLength(1);
        server.kill('SIGKILL');
        expect(
          await waitFor(
            () => liveFfmpeg(marker),
            (p) => p.length === 0,
            4000,
          ),
        ).toEqual([]);
      } finally {
        server.kill('SIGKILL');
        for (const pid of await liveFfmpeg(marker)) process.kill(pid, 'SIGKILL');
      }
    });
  }
});

describe('ffmpeg capabilities kept for the next start', () => {
  /** What a new process finds, asked as the server asks at start: whether it has the marker filter. */
  async function detectInNewProcess(tools: { ffmpegPath: string; ffprobePath: string; rememberIn: string }): Promise<boolean> {
    const module = pathToFileURL(path.join(import.meta.dirname, '../src/media-pipeline/ffmpeg.ts')).href;
    const child = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { ffmpegCapabilities } = await import(${JSON.stringify(module)});
const caps = await ffmpegCapabilities(${JSON.stringify(tools)});
process.stdout.write(JSON.stringify({ usable: caps.usable, marker: caps.filters.has('sutura-marker') }));`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    await new Promise((resolve) => child.on('exit', resolve));
    const answer = JSON.parse(out) as { usable: boolean; marker: boolean };
    expect(answer.usable).toBe(true);
    return answer.marker;
  }

  it('reads what the last start found for the same binaries, and detects again for changed ones', async () => {
    const dir = path.join(scratch, 'kept');
    await mkdir(dir);
    const ffmpegPath = path.join(dir, 'ffmpeg');
    const ffprobePath = path.join(dir, 'ffprobe');
    await copyFile(locateTool('ffmpeg').path, ffmpegPath);
    await copyFile(locateTool('ffprobe').path, ffprobePath);
    await chmod(ffmpegPath, 0o755);
    await chmod(ffprobePath, 0o755);
    const rememberIn = path.join(dir, 'ffmpeg-capabilities.json');
    const tools = { ffmpegPath, ffprobePath, rememberIn };
    expect(await detectInNewProcess(tools)).toBe(false);
    // A mark in the kept result shows which of the two the next process used.
    const kept = JSON.parse(await readFile(rememberIn, 'utf8')) as { key: string; caps: { filters: string[] } };
    kept.caps.filters.push('sutura-marker');
    await writeFile(rememberIn, JSON.stringify(kept));
    expect(await detectInNewProcess(tools)).toBe(true);
    // The same binary replaced (here, only dated anew): detected again, and kept again.
    await utimes(ffmpegPath, new Date(), new Date('2020-01-01'));
    expect(await detectInNewProcess(tools)).toBe(false);
    expect(await detectInNewProcess(tools)).toBe(false);
  }, 60_000);
});
