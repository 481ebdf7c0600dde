/**
 * Runs the benchmarks one after the other and checks every figure against its budget in
 * bench/budgets.json (docs/benchmarks.md, *Budgets*).
 * Usage: npm run bench:check [-- stats api …]   (some benchmarks only; default every one of
 * BENCHES that takes less than ten minutes here, those without `long`)
 *
 * Each benchmark runs in a child process as its npm script runs it, at most ten minutes (then it
 * is stopped, and its figures count as missing); one named on the command line runs to its end.
 * For each, the check prints the benchmark's last
 * line, then one line per figure: its value, its budget and whether it holds. It ends with the
 * load average before and after, and exits with 1 if a figure is over its budget or missing.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const root = path.resolve(import.meta.dirname, '..');
const LIMIT_MS = 10 * 60_000;

/** A figure read from a benchmark's output: the first match of `pattern`, made a number by `value`. */
interface Figure {
  id: string;
  label: string;
  pattern: RegExp;
  value?: (m: RegExpMatchArray) => number;
}
interface Bench {
  name: string;
  args: string[];
  /** Why it is not run by default: it takes more than ten minutes on the development machine. */
  long?: string;
  env?: Record<string, string>;
  /** Why it cannot run on this machine, if it cannot. */
  missing?: () => string | null;
  figures: Figure[];
}

const num = (i: number) => (m: RegExpMatchArray) => Number(m[i]);
const ratioOf = (a: number, b: number) => (m: RegExpMatchArray) => Number(m[a]) / Number(m[b]);
const has = (command: string) => spawnSync('sh', ['-c', `command -v ${command} || test -x /usr/sbin/${command}`]).status === 0;
const postgresServer = () =>
  spawnSync('pg_isready', ['-h', '127.0.0.1', '-p', '5432']).status === 0 ? null : 'no PostgreSQL server at 127.0.0.1:5432';
/** A route's line of bench/api.ts: product req/s and p99, bare req/s and p99, ratio. */
const route = (name: string) =>
  new RegExp(`^${name}\\s+product\\s+\\d+ req/s p99\\s+(\\d+) ms.*\\| bare\\s+\\d+ req/s p99\\s+(\\d+) ms.*\\| ratio ([\\d.]+)`, 'm');

/** The benchmarks, in the order they run (the quick ones first). */
const BENCHES: Bench[] = [
  {
    name: 'stats',
    args: ['bench/stats.ts'],
    figures: [
      {
        id: 'whole',
        label: 'a learner’s whole statistics, × a key lookup',
        pattern: /^stats: \d+ ms for a learner among \d+ analyses \(ratio ([\d.]+) of a key lookup\)/m,
      },
      {
        id: 'afterWrite',
        label: 'the same, first request after a write, × a key lookup',
        pattern: /^the first request after a write that changes every average: \d+ ms \(ratio ([\d.]+) of a key lookup\)/m,
      },
    ],
  },
  {
    name: 'stats-1m',
    args: ['bench/stats.ts', '--analyses', '1000000'],
    long: 'seeding a million analyses',
    figures: [
      {
        id: 'whole',
        label: 'a learner’s whole statistics among 1 000 000 analyses, × a key lookup',
        pattern: /^stats: \d+ ms for a learner among \d+ analyses \(ratio ([\d.]+) of a key lookup\)/m,
      },
    ],
  },
  {
    name: 'cohort',
    args: ['bench/cohort.ts'],
    figures: [
      {
        id: 'read',
        label: 'a programme’s cohort (60 learners × 40 cases), × a key lookup',
        pattern: /^cohort: [\d.]+ ms for \d+ learners × \d+ cases \(ratio ([\d.]+) of a key lookup/m,
      },
      {
        id: 'afterWrite',
        label: 'the same, first read after a case was rated, × a key lookup',
        pattern: /^the first read after a case of one learner was rated again: [\d.]+ ms \(ratio ([\d.]+) of a key lookup\)/m,
      },
    ],
  },
  {
    name: 'rpps-import',
    args: ['bench/rpps-import.ts'],
    figures: [{ id: 'peakRssMb', label: 'peak RSS of the import of 2 000 000 rows, MB', pattern: /^rpps import: .* peak RSS (\d+) MB/m }],
  },
  {
    name: 'start',
    args: ['bench/start.ts', '3'],
    figures: [
      {
        id: 'existing',
        label: 'start on an existing folder, × hello world',
        pattern: /start: existing folder [\d.]+ s \(([\d.]+)× hello world\)/,
      },
      {
        id: 'processor',
        label: 'processor on an existing folder, × hello world',
        pattern: /processor on an existing folder [\d.]+ s \(([\d.]+)× hello world\)/,
      },
      { id: 'idleRssMb', label: 'idle RSS of npm start, MB', pattern: /idle RSS (\d+) MB \(/ },
      { id: 'apiIdleRssMb', label: 'idle RSS of an API process, MB', pattern: /idle RSS \d+ MB \((\d+) MB for an API process/ },
    ],
  },
  {
    name: 'api',
    args: ['bench/api.ts'],
    figures: [
      ...['list', 'detail', 'notifications'].flatMap((name) => [
        { id: name, label: `${name}: product req/s, × bare`, pattern: route(name), value: num(3) },
        { id: `${name}P99`, label: `${name}: product p99, × bare p99`, pattern: route(name), value: ratioOf(1, 2) },
      ]),
    ],
  },
  {
    name: 'cluster',
    args: ['bench/cluster.ts'],
    missing: () => (has('nginx') ? postgresServer() : 'no nginx'),
    figures: [
      { id: 'throughput', label: 'two API processes, req/s × one', pattern: /two processes ([\d.]+) of one/ },
      {
        id: 'p99',
        label: 'two API processes, p99 × one',
        pattern: /two processes [\d.]+ of one \(p99 (\d+) ms against (\d+) ms\)/,
        value: ratioOf(1, 2),
      },
    ],
  },
  {
    name: 'upload',
    // 1 GiB instead of 4: the same ratios in a quarter of the time and disk.
    args: ['bench/upload.ts', '1'],
    figures: [
      { id: 'put', label: 'tus upload, throughput × a plain HTTP PUT', pattern: /^upload: ratio ([\d.]+) of plain PUT/m },
      { id: 'peakRssMb', label: 'server peak RSS during the upload, MB', pattern: /^upload: .* (\d+) MB peak/m },
    ],
  },
  {
    name: 'media',
    args: ['bench/media.ts'],
    figures: [
      { id: 'remux', label: 'remux, time × a stream copy', pattern: /^media: remux ([\d.]+) of stream copy/m },
      {
        id: 'remuxProcessor',
        label: 'remux, processor × a stream copy',
        pattern: /^media: remux [\d.]+ of stream copy \(processor ([\d.]+)/m,
      },
      { id: 'ready', label: 'remuxed video ready, time × a stream copy', pattern: /^media: .*ready at ([\d.]+);/m },
      { id: 'transcode', label: 'transcode, time × a plain encode', pattern: /transcode ([\d.]+) of plain ffmpeg encode/ },
      {
        id: 'transcodeProcessor',
        label: 'transcode, processor × a plain encode',
        pattern: /transcode [\d.]+ of plain ffmpeg encode \(processor ([\d.]+)/,
      },
    ],
  },
  {
    name: 'render',
    args: ['bench/render.ts'],
    long: 'six renders of half an hour of 1080p and their stream copies',
    missing: () => (has('ffmpeg') ? null : 'no ffmpeg'),
    figures: [
      { id: 'ratio', label: 'render, time × a stream copy (worse source)', pattern: /^render: ratio ([\d.]+) of stream copy/m },
      { id: 'frameError', label: 'render, frames off at the cuts', pattern: /^render: .*frame error (\d+)/m },
    ],
  },
  {
    name: 'web',
    args: ['bench/web.ts'],
    missing: () =>
      existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium') ? null : 'no Chromium at CHROMIUM_PATH or /usr/bin/chromium',
    figures: [
      { id: 'loginKib', label: 'sign-in page, gzipped JS before first render, KiB', pattern: /^web: login (\d+)(?:\/\d+)? KiB/m },
      { id: 'dashboardKib', label: 'dashboard, gzipped JS before first render, KiB', pattern: /^web: .*dashboard (\d+)(?:\/\d+)? KiB/m },
      {
        id: 'loginIdleKib',
        label: 'sign-in page, gzipped JS until the network is idle, KiB',
        pattern: /^web: login \d+\/(\d+) KiB/m,
      },
      {
        id: 'dashboardIdleKib',
        label: 'dashboard, gzipped JS until the network is idle, KiB',
        pattern: /^web: .*dashboard \d+\/(\d+) KiB/m,
      },
      { id: 'loginDesktop', label: 'Lighthouse, sign-in page, desktop', pattern: /^web: .*lighthouse login (\d+)\/(\d+)/m, value: num(1) },
      { id: 'loginMobile', label: 'Lighthouse, sign-in page, mobile', pattern: /^web: .*lighthouse login (\d+)\/(\d+)/m, value: num(2) },
      { id: 'dashboardDesktop', label: 'Lighthouse, dashboard, desktop', pattern: /^web: .*dashboard (\d+)\/(\d+)$/m, value: num(1) },
      { id: 'dashboardMobile', label: 'Lighthouse, dashboard, mobile', pattern: /^web: .*dashboard (\d+)\/(\d+)$/m, value: num(2) },
    ],
  },
  {
    name: 'streaming',
    args: ['bench/streaming.ts'],
    long: 'a ladder made of two minutes of 1080p, then three two-minute playbacks',
    missing: () => (has('ffmpeg') && existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium') ? null : 'no ffmpeg or no Chromium'),
    figures: [
      {
        id: 'firstFrameMs3',
        label: 'first picture on 3 Mbit/s, 40 ms, ms',
        pattern: /^streaming: 3 Mbit\/s (\d+) ms\/(\d+) stalls/m,
        value: num(1),
      },
      {
        id: 'stalls3',
        label: 'stalls in two minutes on 3 Mbit/s',
        pattern: /^streaming: 3 Mbit\/s (\d+) ms\/(\d+) stalls/m,
        value: num(2),
      },
      { id: 'stalls1', label: 'stalls in two minutes on 1 Mbit/s', pattern: /^streaming: .*; 1 Mbit\/s \d+ ms\/(\d+) stalls/m },
      { id: 'topRungS', label: 'top rung reached unthrottled, s', pattern: /^streaming: .*unthrottled top ([\d.]+)s/m },
      { id: 'storageRatio', label: 'ladder storage × the MP4', pattern: /^streaming: .*storage ×([\d.]+)/m },
    ],
  },
  {
    name: 'export',
    args: ['bench/export.ts'],
    long: 'copies of one and five GiB of a person’s data written and checked',
    figures: [
      {
        id: 'peakGrowthMb',
        label: 'a person’s copy, peak memory growth from 1 to 5 GiB, MB',
        pattern: /^peak RSS: .*\(([+-]?\d+) MB over baseline/m,
      },
    ],
  },
  {
    name: 'results-page',
    args: ['bench/results-page.ts'],
    long: 'the demo data made first, videos included, then a wait for a quiet server',
    missing: () =>
      existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium') ? null : 'no Chromium at CHROMIUM_PATH or /usr/bin/chromium',
    figures: [
      { id: 'ratio', label: 'results page, time × a baseline page', pattern: /^results-page: \d+ ms \(baseline \d+ ms, ratio ([\d.]+)\)/m },
      { id: 'desktopMs', label: 'results page on the desktop, ms', pattern: /^results-page: (\d+) ms/m },
      {
        id: 'phoneMs',
        label: 'results page on a mid-range phone (4× CPU, 9 Mbit/s, 40 ms), ms',
        pattern: /^results-page: .*; phone (\d+) ms/m,
      },
    ],
  },
];

/** A budget: the figure must stay at or under `max`, or at or over `min`. */
type Budget = { max: number } | { min: number };
const budgets = JSON.parse(readFileSync(path.join(root, 'bench', 'budgets.json'), 'utf8')) as Record<string, Record<string, Budget>>;

// Every figure has its budget and every budget its figure, so that neither is forgotten.
for (const bench of BENCHES) {
  const ids = bench.figures.map((f) => f.id);
  const budgeted = Object.keys(budgets[bench.name] ?? {});
  const strays = [...ids.filter((id) => !budgeted.includes(id)), ...budgeted.filter((id) => !ids.includes(id))];
  if (strays.length) throw new Error(`bench/budgets.json and bench/check.ts disagree on ${bench.name}: ${strays.join(', ')}`);
}

/**
 * Runs one benchmark in its own process group (stopped whole at the limit): what it printed, its
 * errors and warnings apart, and its time.
 */
function run(bench: Bench, limitMs: number): Promise<{ out: string; err: string; ms: number; code: number | null; stopped: boolean }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, bench.args, { cwd: root, env: { ...process.env, ...bench.env }, detached: true });
    let out = '';
    let err = '';
    let stopped = false;
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const stop = (signal: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // The whole group has ended.
      }
    };
    const timer = setTimeout(() => {
      stopped = true;
      stop('SIGTERM');
      // What did not stop by then (a server, a browser the benchmark started) is killed.
      setTimeout(() => stop('SIGKILL'), 10_000).unref();
    }, limitMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ out, err, ms: performance.now() - started, code, stopped });
    });
  });
}

const format = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));
const asked = process.argv.slice(2);
const unknown = asked.filter((n) => !BENCHES.some((b) => b.name === n));
if (unknown.length) throw new Error(`unknown benchmark: ${unknown.join(', ')} (known: ${BENCHES.map((b) => b.name).join(', ')})`);
const loadBefore = loadavg()[0]!.toFixed(1);
let over = 0;
for (const bench of BENCHES.filter((b) => !asked.length || asked.includes(b.name))) {
  const why =
    bench.missing?.() ?? (asked.length ? null : bench.long && `more than ten minutes: ${bench.long}; npm run bench:check -- ${bench.name}`);
  if (why) {
    console.log(`${bench.name}: not run (${why})`);
    continue;
  }
  const { out, err, ms, code, stopped } = await run(bench, asked.length ? 3 * 3_600_000 : LIMIT_MS);
  const took = `${(ms / 1000).toFixed(0)} s`;
  console.log(
    `${bench.name} (${took}${stopped ? ', stopped at its time limit' : code ? `, exit code ${code}` : ''}): ${out.trimEnd().split('\n').at(-1) ?? ''}`,
  );
  // A benchmark that failed says why on its standard error.
  if (stopped || code) console.log(`  ${err.trimEnd().split('\n').slice(-5).join('\n  ')}`);
  for (const figure of bench.figures) {
    const budget = budgets[bench.name]![figure.id]!;
    const m = out.match(figure.pattern);
    const value = m ? (figure.value ?? num(1))(m) : Number.NaN;
    const ok = 'max' in budget ? value <= budget.max : value >= budget.min;
    const limit = 'max' in budget ? `≤ ${budget.max}` : `≥ ${budget.min}`;
    if (!ok) over++;
    console.log(
      `  ${ok ? 'ok  ' : 'OVER'} ${bench.name}.${figure.id}: ${Number.isNaN(value) ? 'missing' : format(value)} (budget ${limit}) ${figure.label}`,
    );
  }
}
console.log(
  `bench:check: ${over ? `${over} figure(s) over budget or missing` : 'every figure within budget'}; load average ${loadBefore} before, ${loadavg()[0]!.toFixed(1)} after, ${availableParallelism()} cores`,
);
process.exitCode = over ? 1 : 0;
