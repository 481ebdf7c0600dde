import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, chmodSync, constants, readFileSync, realpathSync, statSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * The ffmpeg adapter: every call to ffmpeg and ffprobe goes through here. Arguments are passed
 * as an array to the binary (never through a shell), and the child is killed on timeout, on
 * silence, on abort and when its caller gives up — and when the server process dies, even by
 * SIGKILL (see orphanGuard).
 */

export interface ProbeStream {
  index: number;
  codec_type?: string;
  codec_name?: string;
  profile?: string;
  width?: number;
  height?: number;
  pix_fmt?: string;
  field_order?: string;
  sample_aspect_ratio?: string;
  r_frame_rate?: string;
  avg_frame_rate?: string;
  start_time?: string;
  duration?: string;
  nb_frames?: string;
  bit_rate?: string;
  color_transfer?: string;
  color_primaries?: string;
  channels?: number;
  sample_rate?: string;
  disposition?: Record<string, number>;
  tags?: Record<string, string>;
  side_data_list?: { side_data_type?: string; rotation?: number }[];
}

export interface ProbeFormat {
  format_name: string;
  duration?: string;
  start_time?: string;
  bit_rate?: string;
  nb_streams?: number;
  tags?: Record<string, string>;
}

/** What `ffprobe -show_format -show_streams` says about a file. */
export interface ProbeData {
  format: ProbeFormat;
  streams: ProbeStream[];
  /** Only when asked for (`-show_entries packet=...`), over the intervals read. */
  packets?: ProbePacket[];
}

export interface ProbePacket {
  stream_index: number;
  pts_time?: string;
  flags?: string;
}

export interface ProcessOptions {
  /** The binary; defaults to FFMPEG_PATH / FFPROBE_PATH, then the one on PATH, then the npm-shipped one. */
  bin?: string | undefined;
  /** Kills the child after this long in total. */
  timeoutMs?: number;
  /** Kills the child when it has written nothing for this long (a stuck read, a hung decoder). */
  idleTimeoutMs?: number;
  signal?: AbortSignal | undefined;
}

export class FfmpegError extends Error {
  readonly exitCode: number | null;
  readonly stderr: string;
  readonly stdout: string;
  constructor(message: string, details: { exitCode?: number | null; stderr?: string; stdout?: string } = {}) {
    super(message);
    this.name = 'FfmpegError';
    this.exitCode = details.exitCode ?? null;
    this.stderr = details.stderr ?? '';
    this.stdout = details.stdout ?? '';
  }
}

/** Where a binary was found: FFMPEG_PATH / FFPROBE_PATH, the system's PATH, the npm package, or nowhere. */
export type ToolOrigin = 'env' | 'system' | 'npm' | 'missing';

export interface ToolLocation {
  path: string;
  origin: ToolOrigin;
}

const isExecutable = (file: string) => {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
};

function onPath(name: string, searchPath = process.env.PATH ?? ''): string | null {
  const extensions = process.platform === 'win32' ? ['.exe', ''] : [''];
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    for (const ext of extensions) {
      const file = path.join(dir, name + ext);
      if (isExecutable(file)) return file;
    }
  }
  return null;
}

/** The platform package of `@ffmpeg-installer` / `@ffprobe-installer` (optional dependencies). */
function npmShipped(name: 'ffmpeg' | 'ffprobe'): string | null {
  const pkg = `@${name}-installer/${process.platform}-${process.arch}`;
  let dir: string;
  try {
    dir = path.dirname(createRequire(import.meta.url).resolve(`${pkg}/package.json`));
  } catch {
    return null;
  }
  const file = path.join(dir, process.platform === 'win32' ? `${name}.exe` : name);
  if (isExecutable(file)) return file;
  try {
    // The package's postinstall only sets the execute bit; an install without scripts leaves it off.
    chmodSync(file, statSync(file).mode | 0o111);
    return isExecutable(file) ? file : null;
  } catch {
    return null;
  }
}

/**
 * Finds ffmpeg or ffprobe: the configured path when set, else the system's (on PATH), else the
 * binary shipped in the npm package. A binary found nowhere keeps its bare name, so that the
 * first run fails with "cannot run ffmpeg" and the health check says the pipeline is unusable.
 */
export function locateTool(name: 'ffmpeg' | 'ffprobe', configured?: string | undefined, searchPath = process.env.PATH ?? ''): ToolLocation {
  if (configured) return { path: configured, origin: 'env' };
  const system = onPath(name, searchPath);
  if (system) return { path: system, origin: 'system' };
  const shipped = npmShipped(name);
  return shipped ? { path: shipped, origin: 'npm' } : { path: name, origin: 'missing' };
}

const located = new Map<string, string>();
function locatedOnce(name: 'ffmpeg' | 'ffprobe', configured: string | undefined): string {
  const key = `${name}\0${configured ?? ''}`;
  let found = located.get(key);
  if (found === undefined) located.set(key, (found = locateTool(name, configured).path));
  return found;
}
export const defaultFfmpegPath = () => locatedOnce('ffmpeg', process.env.FFMPEG_PATH || undefined);
export const defaultFfprobePath = () => locatedOnce('ffprobe', process.env.FFPROBE_PATH || undefined);

/**
 * How a child is tied to the server's life. A child killed by the server on timeout or abort is
 * easy; one whose server died (SIGKILL, out of memory) is not, since ffmpeg ignores SIGPIPE and a
 * closed stdin. `setpriv --pdeathsig` (util-linux) asks the kernel to kill the child with its
 * parent; without it, a shell watches the server's pid and kills the child's process group.
 */
export type OrphanGuard = 'pdeathsig' | 'watchdog' | 'none';

let guard: OrphanGuard | undefined;
let setpriv = 'setpriv';

/** Forces a guard (the tests try the watchdog on a machine that has setpriv). */
export function chooseOrphanGuard(mode: OrphanGuard): void {
  guard = mode;
}

export function orphanGuard(): OrphanGuard {
  if (guard) return guard;
  if (process.platform === 'win32') guard = 'none';
  else {
    const found = process.platform === 'linux' ? onPath('setpriv') : null;
    if (found) setpriv = found;
    guard = found ? 'pdeathsig' : 'watchdog';
  }
  return guard;
}

/** Kills the child when the server's pid is gone; the child's own end ends the watch. */
const WATCHDOG = [
  'server=$1; shift',
  '"$@" & child=$!',
  '(while kill -0 "$server" 2>/dev/null; do sleep 1; done; kill -9 "$child" 2>/dev/null) & watch=$!',
  'wait "$child"; status=$?',
  'kill "$watch" 2>/dev/null',
  'exit "$status"',
].join('\n');

/** The command that starts `bin args` under the orphan guard, and whether it runs in its own process group. */
export function guardedCommand(bin: string, args: string[], mode = orphanGuard()): { command: string; args: string[]; group: boolean } {
  switch (mode) {
    case 'pdeathsig':
      return { command: setpriv, args: ['--pdeathsig', 'SIGKILL', '--', bin, ...args], group: false };
    case 'watchdog':
      return { command: '/bin/sh', args: ['-c', WATCHDOG, 'sutura-media', String(process.pid), bin, ...args], group: true };
    case 'none':
      return { command: bin, args, group: false };
  }
}

/** An input or output file for ffmpeg: `file:` keeps a name from being read as a protocol or option. */
export function fileArg(file: string): string {
  return `file:${path.resolve(file)}`;
}

const STDERR_KEPT = 64 * 1024;
const STDOUT_MAX = 256 * 1024 * 1024;

interface Spawned {
  stdout: string;
  stderr: string;
}

function execute(
  bin: string,
  args: string[],
  opts: ProcessOptions & { collectStdout: boolean; onStdout?: (chunk: string) => void },
): Promise<Spawned> {
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) {
      reject(new FfmpegError(`${path.basename(bin)} aborted before it started`));
      return;
    }
    // Behind a wrapper a missing binary is no spawn error: say so the same way.
    if (bin.includes(path.sep) && !isExecutable(bin)) {
      reject(new FfmpegError(`cannot run ${bin}: not an executable file`));
      return;
    }
    const guarded = guardedCommand(bin, args);
    const child = spawn(guarded.command, guarded.args, { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true, detached: guarded.group });
    const kill = () => {
      if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
      // The watchdog's shell, the binary and the watch share one process group.
      if (guarded.group) {
        try {
          process.kill(-child.pid, 'SIGKILL');
          return;
        } catch {
          // The group is gone already.
        }
      }
      child.kill('SIGKILL');
    };
    const out: string[] = [];
    let outLength = 0;
    let stderr = '';
    let settled = false;
    let totalTimer: NodeJS.Timeout | undefined;
    let idleTimer: NodeJS.Timeout | undefined;

    const cleanup = () => {
      clearTimeout(totalTimer);
      clearTimeout(idleTimer);
      opts.signal?.removeEventListener('abort', onAbort);
    };
    const fail = (message: string) => {
      if (settled) return;
      settled = true;
      cleanup();
      kill();
      reject(new FfmpegError(message, { stderr, stdout: out.join('') }));
    };
    const onAbort = () => fail(`${path.basename(bin)} aborted`);
    const armIdle = () => {
      if (!opts.idleTimeoutMs) return;
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => fail(`${path.basename(bin)} wrote nothing for ${opts.idleTimeoutMs} ms`), opts.idleTimeoutMs);
    };

    if (opts.timeoutMs) totalTimer = setTimeout(() => fail(`${path.basename(bin)} timed out after ${opts.timeoutMs} ms`), opts.timeoutMs);
    armIdle();
    opts.signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      armIdle();
      if (opts.collectStdout) {
        outLength += chunk.length;
        if (outLength > STDOUT_MAX) return fail(`${path.basename(bin)} wrote more than ${STDOUT_MAX} bytes`);
        out.push(chunk);
      }
      if (opts.onStdout) {
        try {
          opts.onStdout(chunk);
        } catch (err) {
          fail(`progress handler failed: ${(err as Error).message}`);
        }
      }
    });
    child.stderr.on('data', (chunk: string) => {
      armIdle();
      stderr = (stderr + chunk).slice(-STDERR_KEPT);
    });
    child.on('error', (err) => fail(`cannot run ${bin}: ${err.message}`));
    child.on('close', (code, signal) => {
      if (settled) return;
      settled = true;
      cleanup();
      const stdout = out.join('');
      if (code === 0) resolve({ stdout, stderr });
      else {
        const last = stderr.trim().split('\n').slice(-3).join(' | ');
        reject(new FfmpegError(`${path.basename(bin)} exited with ${code ?? signal}: ${last}`, { exitCode: code, stderr, stdout }));
      }
    });
  });
}

/** Format and streams of a file, as JSON. Local files only: no protocol but `file` is allowed. */
export async function ffprobe(file: string, opts: ProcessOptions & { args?: string[] } = {}): Promise<ProbeData> {
  const { stdout } = await execute(
    opts.bin ?? defaultFfprobePath(),
    [
      '-v',
      'error',
      '-protocol_whitelist',
      'file',
      '-print_format',
      'json',
      '-show_format',
      '-show_streams',
      ...(opts.args ?? []),
      fileArg(file),
    ],
    { timeoutMs: 60_000, ...opts, collectStdout: true },
  );
  const data = JSON.parse(stdout) as Partial<ProbeData>;
  if (!data.format) throw new FfmpegError('ffprobe found no format', { stdout });
  return { format: data.format, streams: data.streams ?? [], ...(data.packets ? { packets: data.packets } : {}) };
}

/** ffprobe with any arguments, answering its standard output (CSV of packets or frames). */
export async function ffprobeText(args: string[], opts: ProcessOptions = {}): Promise<string> {
  const { stdout } = await execute(opts.bin ?? defaultFfprobePath(), args, { timeoutMs: 10 * 60_000, ...opts, collectStdout: true });
  return stdout;
}

export interface RunResult {
  /** The last progress block ffmpeg wrote (frame, fps, out_time_us, speed, progress=end...). */
  progress: Record<string, string>;
  stderr: string;
}

/**
 * Runs ffmpeg with `-progress pipe:1 -nostats`, reporting the output position in seconds as it
 * goes. Rejects with an FfmpegError (the end of stderr in the message) unless ffmpeg exits with 0.
 */
export async function run(args: string[], opts: ProcessOptions & { onProgress?: (seconds: number) => void } = {}): Promise<RunResult> {
  let buffer = '';
  let block: Record<string, string> = {};
  let last: Record<string, string> = {};
  const onStdout = (chunk: string) => {
    buffer += chunk;
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      const eq = line.indexOf('=');
      if (eq <= 0) continue;
      const key = line.slice(0, eq);
      const value = line.slice(eq + 1);
      block[key] = value;
      if (key !== 'progress') continue;
      last = block;
      block = {};
      // out_time_us (and the misnamed out_time_ms) are microseconds; N/A before the first frame.
      const micros = Number(last.out_time_us ?? last.out_time_ms);
      if (opts.onProgress && Number.isFinite(micros) && micros >= 0) opts.onProgress(micros / 1e6);
    }
  };
  const { stderr } = await execute(
    opts.bin ?? defaultFfmpegPath(),
    ['-hide_banner', '-nostdin', '-loglevel', 'error', '-nostats', '-progress', 'pipe:1', '-y', ...args],
    { idleTimeoutMs: 5 * 60_000, ...opts, collectStdout: false, onStdout },
  );
  return { progress: last, stderr };
}

/**
 * What the ffmpeg in use can do, detected once per binary. The pipeline adapts its arguments to
 * it (a 2018 build knows `-vsync` but not `-fps_mode`); other users of ffmpeg (render, analysis)
 * read `filters` before relying on one.
 */
export interface FfmpegCapabilities {
  ffmpeg: ToolLocation & { version: string | null };
  ffprobe: ToolLocation & { version: string | null };
  /** Both binaries run and have every encoder and filter the media pipeline needs. */
  usable: boolean;
  /** What is missing when not usable (for the operator's log, never for a client). */
  problems: string[];
  /** `-fps_mode` exists (ffmpeg 5.1 and later); before it, `-vsync` said the same. */
  fpsMode: boolean;
  /**
   * The `noise` bitstream filter takes a `drop` expression (ffmpeg 5.1 and later): packets can be
   * chosen by their time in a stream copy, before anything decodes them.
   */
  packetSelection: boolean;
  filters: ReadonlySet<string>;
  encoders: ReadonlySet<string>;
}

/** What the pipeline cannot do without (tone mapping, zscale + tonemap, is skipped when absent). */
const REQUIRED_ENCODERS = ['libx264', 'aac', 'mjpeg'];
const REQUIRED_FILTERS = ['scale', 'setsar', 'format', 'fps', 'tpad', 'tile', 'trim', 'pad', 'anullsrc', 'yadif'];

/** Names in the first column after the flags of `-filters` / `-encoders` listings. */
function listed(text: string, pattern: RegExp): Set<string> {
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const match = pattern.exec(line);
    if (match) names.add(match[1]!);
  }
  return names;
}

const versionOf = (text: string) => /version (\S+)/.exec(text)?.[1] ?? null;

async function detect(ffmpeg: ToolLocation, ffprobe: ToolLocation): Promise<FfmpegCapabilities> {
  const ask = (bin: string, args: string[]) =>
    execute(bin, ['-hide_banner', ...args], { timeoutMs: 20_000, collectStdout: true }).then(
      (r) => r.stdout,
      () => null,
    );
  const [version, filters, encoders, help, noise, probeVersion] = await Promise.all([
    ask(ffmpeg.path, ['-version']),
    ask(ffmpeg.path, ['-filters']),
    ask(ffmpeg.path, ['-encoders']),
    ask(ffmpeg.path, ['-h', 'long']),
    ask(ffmpeg.path, ['-h', 'bsf=noise']),
    ask(ffprobe.path, ['-version']),
  ]);
  const filterSet = listed(filters ?? '', /^\s*[TSC.|]{2,3}\s+(\w+)\s/);
  const encoderSet = listed(encoders ?? '', /^\s*[VASFXBD.]{6}\s+(\w+)\s/);
  const problems: string[] = [];
  if (version === null) problems.push(`cannot run ffmpeg (${ffmpeg.path})`);
  if (probeVersion === null) problems.push(`cannot run ffprobe (${ffprobe.path})`);
  if (version !== null) {
    const missingEncoders = REQUIRED_ENCODERS.filter((e) => !encoderSet.has(e));
    const missingFilters = REQUIRED_FILTERS.filter((f) => !filterSet.has(f));
    if (missingEncoders.length) problems.push(`ffmpeg lacks the encoders ${missingEncoders.join(', ')}`);
    if (missingFilters.length) problems.push(`ffmpeg lacks the filters ${missingFilters.join(', ')}`);
  }
  return {
    ffmpeg: { ...ffmpeg, version: version === null ? null : versionOf(version) },
    ffprobe: { ...ffprobe, version: probeVersion === null ? null : versionOf(probeVersion) },
    usable: problems.length === 0,
    problems,
    fpsMode: /^-fps_mode\b/m.test(help ?? ''),
    packetSelection: /^\s*-drop\s/m.test(noise ?? ''),
    filters: filterSet,
    encoders: encoderSet,
  };
}

/** Where a path in use came from: what the search would find, or a configured path. */
function describeTool(name: 'ffmpeg' | 'ffprobe', file: string): ToolLocation {
  if (file === onPath(name)) return { path: file, origin: 'system' };
  if (file === npmShipped(name)) return { path: file, origin: 'npm' };
  return { path: file, origin: file === name ? 'missing' : 'env' };
}

const detected = new Map<string, Promise<FfmpegCapabilities>>();

/**
 * The capabilities of the ffmpeg and ffprobe given (the configured ones by default), detected at
 * the first call and remembered. With `rememberIn`, a usable result is also kept in that file for
 * the next process (see `rememberedOrDetected`).
 */
export function ffmpegCapabilities(
  opts: { ffmpegPath?: string | undefined; ffprobePath?: string | undefined; rememberIn?: string } = {},
): Promise<FfmpegCapabilities> {
  const ffmpegPath = opts.ffmpegPath ?? defaultFfmpegPath();
  const ffprobePath = opts.ffprobePath ?? defaultFfprobePath();
  const key = `${ffmpegPath}\0${ffprobePath}`;
  let found = detected.get(key);
  if (!found) {
    const tools = [describeTool('ffmpeg', ffmpegPath), describeTool('ffprobe', ffprobePath)] as const;
    found = opts.rememberIn ? rememberedOrDetected(opts.rememberIn, ...tools) : detect(...tools);
    detected.set(key, found);
  }
  return found;
}

/** The binary itself (symbolic links followed): a replaced or upgraded one reads differently. */
function binaryIdentity(file: string): string | null {
  try {
    const real = realpathSync(file);
    const stat = statSync(real);
    return `${real} ${stat.size} ${stat.mtimeMs} ${stat.ctimeMs} ${stat.ino}`;
  } catch {
    return null;
  }
}

/**
 * The detection runs ffmpeg six times, a third of a second of processor that a start-up shares
 * with PostgreSQL's: a restart with the same binaries and the same detection reads the result the
 * last one kept instead. Anything else (another binary, an upgrade of it or of Sutura, a result
 * that was not usable) is detected again.
 */
function rememberedOrDetected(file: string, ffmpeg: ToolLocation, ffprobe: ToolLocation): Promise<FfmpegCapabilities> {
  const ffmpegId = binaryIdentity(ffmpeg.path);
  const ffprobeId = binaryIdentity(ffprobe.path);
  if (!ffmpegId || !ffprobeId) return detect(ffmpeg, ffprobe);
  const key = createHash('sha256')
    .update(
      JSON.stringify([ffmpeg, ffprobe, ffmpegId, ffprobeId, REQUIRED_ENCODERS, REQUIRED_FILTERS, detect.toString(), listed.toString()]),
    )
    .digest('base64url');
  try {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { key: string; caps: KeptCapabilities };
    if (kept.key === key && kept.caps.usable) {
      return Promise.resolve({ ...kept.caps, filters: new Set(kept.caps.filters), encoders: new Set(kept.caps.encoders) });
    }
  } catch {
    // Not kept yet, or unreadable: detected below.
  }
  return detect(ffmpeg, ffprobe).then(async (caps) => {
    if (!caps.usable) return caps;
    const kept: KeptCapabilities = { ...caps, filters: [...caps.filters], encoders: [...caps.encoders] };
    const partial = `${file}.${process.pid}`;
    await writeFile(partial, JSON.stringify({ key, caps: kept }))
      .then(() => rename(partial, file))
      .catch(() => {});
    return caps;
  });
}

type KeptCapabilities = Omit<FfmpegCapabilities, 'filters' | 'encoders'> & { filters: string[]; encoders: string[] };

/** The output option that sets how frames are timed: `-fps_mode`, or `-vsync` before ffmpeg 5.1. */
export function frameTiming(caps: Pick<FfmpegCapabilities, 'fpsMode'>, mode: 'cfr' | 'vfr' | 'passthrough'): string[] {
  return [caps.fpsMode ? '-fps_mode' : '-vsync', mode];
}
