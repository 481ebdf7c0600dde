import { spawn } from 'node:child_process';
import path from 'node:path';

/**
 * The ffmpeg adapter: every call to ffmpeg and ffprobe goes through here. Arguments are passed
 * as an array to the binary (never through a shell), and the child is killed on timeout, on
 * silence, on abort and when its caller gives up.
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
}

export interface ProcessOptions {
  /** The binary; defaults to FFMPEG_PATH / FFPROBE_PATH, then the one on PATH. */
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

export const defaultFfmpegPath = () => process.env.FFMPEG_PATH || 'ffmpeg';
export const defaultFfprobePath = () => process.env.FFPROBE_PATH || 'ffprobe';

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
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
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
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
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
  return { format: data.format, streams: data.streams ?? [] };
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
