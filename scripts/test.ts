import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The whole test suite, phase by phase, stopping at the first phase that fails (docs/testing.md):
 *
 *   node scripts/test.ts                  every phase (npm test)
 *   node scripts/test.ts unit pg media    some phases, in the suite's order
 *   node scripts/test.ts unit claims      the test files whose path contains "claims", in the Vitest phases named
 *   node scripts/test.ts unit -t lease    from the first option on, everything goes to Vitest
 *   node scripts/test.ts --timings        the summary of the last run (test-results/timings.json)
 *
 * Each phase's command may write { passed, failed, skipped, assertions } to the file named by
 * SUTURA_PHASE_REPORT; the Vitest phases do (scripts/vitest/phase-report.ts).
 */
const root = path.resolve(import.meta.dirname, '..');
const TIMINGS_FILE = path.join(root, 'test-results', 'timings.json');
const API_TESTS = 'apps/api/test';

interface Command {
  cmd: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
}
interface Phase {
  name: string;
  title: string;
  /** The commands to run one after the other, or why the phase does not run here. */
  plan(filters: string[], vitestOptions: string[]): Command[] | { skip: string } | Promise<Command[] | { skip: string }>;
  vitest?: boolean;
  /**
   * Runs at the same time as the phase before it (each on one core, the machine has two): its
   * output is then printed once it has ended, and its wall time is its own.
   */
  beside?: boolean;
  /**
   * Runs inside the command of the phase named when both are chosen, and is counted and timed
   * apart from its report (`parts`); chosen alone, it runs its own command.
   */
  within?: string;
}
interface Counts {
  passed?: number;
  failed?: number;
  skipped?: number;
  assertions?: number;
}
/** What a phase's command reports: its counts, and those of the phases run within it, with their wall time. */
interface Report extends Counts {
  parts?: Record<string, Counts & { seconds: number }>;
}
interface PhaseResult extends Counts {
  name: string;
  title: string;
  outcome: 'passed' | 'failed' | 'skipped' | 'not run';
  seconds: number;
  note?: string;
}
interface Timings {
  startedAt: string;
  finishedAt: string;
  /** The machine's load average (1, 5, 15 minutes) at the start and at the end of the run. */
  load: { start: number[]; end: number[] };
  argv: string[];
  phases: PhaseResult[];
}

const node = (script: string, args: string[], env?: NodeJS.ProcessEnv): Command => ({
  cmd: process.execPath,
  args: [path.join(root, script), ...args],
  ...(env ? { env } : {}),
});
const vitest = (args: string[], env: NodeJS.ProcessEnv) => node('node_modules/vitest/vitest.mjs', ['run', ...args], env);
const { TEST_DATABASE_URL, ...embeddedEnv } = process.env;

/** The test files of apps/api/test whose first lines carry the marker (`// @database-server: why`, `// @media`). */
function markedFiles(marker: string): string[] {
  const dir = path.join(root, API_TESTS);
  const pattern = new RegExp(`^// ${marker}(:|$)`, 'm');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.test.ts'))
    .filter((f) => pattern.test(readFileSync(path.join(dir, f), 'utf8').split('\n').slice(0, 10).join('\n')))
    .map((f) => `${API_TESTS}/${f}`)
    .sort();
}
const matching = (files: string[], filters: string[]) => (filters.length ? files.filter((f) => filters.some((s) => f.includes(s))) : files);

/** The TypeScript projects: the root one (scripts, benchmarks, end-to-end tests), the domain, the API, the web app. */
const TS_PROJECTS: [string, string][] = [
  ['.', 'root'],
  ['packages/domain', 'domain'],
  ['apps/api', 'api'],
  ['apps/web', 'web'],
];

const PHASES: Phase[] = [
  {
    name: 'lint',
    title: 'ESLint and Prettier',
    plan: () => [node('node_modules/eslint/bin/eslint.js', ['.']), node('node_modules/prettier/bin/prettier.cjs', ['--check', '.'])],
  },
  {
    name: 'types',
    title: 'TypeScript, every project',
    beside: true,
    // Incremental, with npm run check:changed: a project whose files did not change since the last
    // check is read back from node_modules/.cache/tsc (a clean clone checks everything).
    plan: () =>
      TS_PROJECTS.map(([project, name]) =>
        node('node_modules/typescript/bin/tsc', [
          '-p',
          project,
          '--incremental',
          '--tsBuildInfoFile',
          `node_modules/.cache/tsc/${name}.tsbuildinfo`,
        ]),
      ),
  },
  {
    name: 'unit',
    title: 'Unit and API tests on the embedded PostgreSQL',
    vitest: true,
    plan: (filters, options) => [vitest([...filters, ...options], embeddedEnv)],
  },
  {
    name: 'pg',
    title: 'Database tests on the PostgreSQL server',
    vitest: true,
    plan: (filters, options) => {
      if (!TEST_DATABASE_URL) return { skip: 'TEST_DATABASE_URL is not set' };
      const files = matching(markedFiles('@database-server'), filters);
      if (!files.length) return { skip: 'no file of this phase matches' };
      return [vitest([...files, ...options], process.env)];
    },
  },
  {
    name: 'media',
    title: 'Media tests on the npm-shipped ffmpeg',
    vitest: true,
    // Beside the server's phase, which spends much of its time waiting (processes restarted, a
    // cluster behind nginx): the media files keep the other core busy meanwhile.
    beside: true,
    plan: async (filters, options) => {
      const files = matching(markedFiles('@media'), filters);
      if (!files.length) return { skip: 'no file of this phase matches' };
      // The ffmpeg and ffprobe shipped as npm packages (older than most systems' ffmpeg), as a
      // machine without a system ffmpeg runs them.
      const env = { ...process.env, FFMPEG_PATH: await npmShipped('ffmpeg'), FFPROBE_PATH: await npmShipped('ffprobe') };
      return [vitest([...files, ...options], env)];
    },
  },
  {
    name: 'e2e',
    title: 'End-to-end tests (Playwright)',
    // With the walk when it is chosen too: one run, its long tests first, the specs around them.
    plan: () => [node('e2e/run.ts', joined.has('a11y') ? [] : ['--phase', 'e2e'])],
  },
  {
    name: 'a11y',
    title: 'Accessibility walk of every screen',
    within: 'e2e',
    plan: () => [node('e2e/run.ts', ['--phase', 'a11y'])],
  },
];

/** The ffmpeg or ffprobe of the npm package of this platform (optional dependencies of apps/api), as the server finds it. */
async function npmShipped(tool: 'ffmpeg' | 'ffprobe'): Promise<string> {
  const { locateTool } = await import('../apps/api/src/media-pipeline/ffmpeg.ts');
  const found = locateTool(tool, undefined, '');
  if (found.origin !== 'npm') throw new Error(`the npm-shipped ${tool} is not installed (an optional dependency of apps/api): run npm ci`);
  return found.path;
}

const duration = (seconds: number) => {
  const s = Math.round(seconds);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
};
const count = (n: number | undefined) => (n === undefined ? '—' : String(n));

/** The table of a run, then its totals alone on the last line. */
function summary(timings: Timings): string {
  const rows = [['phase', 'wall time', 'passed', 'failed', 'skipped', 'assertions', 'result']];
  for (const p of timings.phases) {
    const result = p.note ? `${p.outcome}: ${p.note}` : p.outcome;
    const time = p.outcome === 'passed' || p.outcome === 'failed' ? duration(p.seconds) : '';
    rows.push([p.name, time, count(p.passed), count(p.failed), count(p.skipped), count(p.assertions), result]);
  }
  // The run's own wall time: phases that ran side by side count once.
  const wall = (Date.parse(timings.finishedAt) - Date.parse(timings.startedAt)) / 1000;
  rows.push(['total', duration(Number.isFinite(wall) ? wall : timings.phases.reduce((s, p) => s + p.seconds, 0)), '', '', '', '', '']);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const lines = rows.map((r) =>
    r
      .map((cell, i) => (i === 0 || i === r.length - 1 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
  const total = (key: keyof Counts) => timings.phases.reduce((s, p) => s + (p[key] ?? 0), 0);
  const skipped = total('skipped');
  return [
    '',
    `Test run of ${timings.startedAt}, load average ${load(timings.load.start)} at the start and ${load(timings.load.end)} at the end:`,
    ...lines,
    `${total('passed')} passed, ${total('failed')} failed${skipped ? `, ${skipped} skipped` : ''}`,
  ].join('\n');
}

if (process.argv[2] === '--timings') {
  if (!existsSync(TIMINGS_FILE)) {
    process.stderr.write(`No test run recorded yet (${path.relative(root, TIMINGS_FILE)}): run npm test or node scripts/test.ts first.\n`);
    process.exit(1);
  }
  process.stdout.write(`${summary(JSON.parse(readFileSync(TIMINGS_FILE, 'utf8')) as Timings)}\n`);
  process.exit(0);
}

const argv = process.argv.slice(2);
const firstOption = argv.findIndex((a) => a.startsWith('-'));
const words = firstOption === -1 ? argv : argv.slice(0, firstOption);
const vitestOptions = firstOption === -1 ? [] : argv.slice(firstOption);
const names = new Set(PHASES.map((p) => p.name));
const chosen = words.filter((w) => names.has(w));
const filters = words.filter((w) => !names.has(w));
const phases = PHASES.filter((p) => (chosen.length ? chosen.includes(p.name) : true));
if (filters.length || vitestOptions.length) {
  const others = phases.filter((p) => !p.vitest).map((p) => p.name);
  if (!chosen.length) phases.splice(0, phases.length, ...phases.filter((p) => p.vitest));
  else if (others.length) {
    process.stderr.write(`File filters and Vitest options apply to the Vitest phases only, not to: ${others.join(', ')}.\n`);
    process.exit(2);
  }
}

/** The phases that run inside another chosen phase's command. */
const joined = new Set(phases.filter((p) => p.within && phases.some((q) => q.name === p.within)).map((p) => p.name));

const timings: Timings = {
  startedAt: new Date().toISOString(),
  finishedAt: '',
  load: { start: loadavg(), end: [] },
  argv,
  phases: [],
};
const reportDir = mkdtempSync(path.join(tmpdir(), 'sutura-test-phases-'));
const record = () => {
  timings.finishedAt = new Date().toISOString();
  timings.load.end = loadavg();
  mkdirSync(path.dirname(TIMINGS_FILE), { recursive: true });
  writeFileSync(TIMINGS_FILE, `${JSON.stringify(timings, null, 2)}\n`);
};

/** Runs a phase's commands one after the other; `quiet`: their output is kept and returned instead of shown. */
async function runPhase(phase: Phase, quiet: boolean): Promise<{ result: PhaseResult; within: PhaseResult[]; output: string }> {
  let plan: Awaited<ReturnType<Phase['plan']>>;
  try {
    plan = await phase.plan(filters, vitestOptions);
  } catch (error) {
    const note = (error as Error).message;
    return {
      result: { name: phase.name, title: phase.title, outcome: 'failed', seconds: 0, note },
      within: [],
      output: `\n== ${phase.name}: ${note} ==\n`,
    };
  }
  if (!Array.isArray(plan)) {
    return {
      result: { name: phase.name, title: phase.title, outcome: 'skipped', seconds: 0, note: plan.skip },
      within: [],
      output: `\n== ${phase.name}: ${phase.title} — skipped (${plan.skip}) ==\n`,
    };
  }
  let output = `\n== ${phase.name}: ${phase.title} ==\n`;
  if (!quiet) process.stdout.write(output);
  const reportFile = path.join(reportDir, `${phase.name}.json`);
  const started = performance.now();
  let status = 0;
  for (const step of plan) {
    status = await new Promise<number>((resolve) => {
      const child = spawn(step.cmd, step.args, {
        cwd: root,
        stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
        env: { ...(step.env ?? process.env), SUTURA_PHASE_REPORT: reportFile },
      });
      child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.once('error', (error) => {
        output += `${error.message}\n`;
        resolve(1);
      });
      child.once('close', (code) => resolve(code ?? 1));
    });
    if (status !== 0) break;
  }
  const seconds = (performance.now() - started) / 1000;
  let report: Report = {};
  if (existsSync(reportFile)) {
    try {
      report = JSON.parse(readFileSync(reportFile, 'utf8')) as Report;
    } catch {
      output += `The report of the phase ${phase.name} is not JSON: ${reportFile}\n`;
    }
  }
  const { parts = {}, ...counts } = report;
  const outcome = status === 0 ? 'passed' : 'failed';
  const tests =
    counts.passed === undefined ? '' : `, ${counts.passed} passed, ${counts.failed ?? 0} failed, ${counts.skipped ?? 0} skipped`;
  const ending = `\n== ${phase.name} ${outcome} in ${duration(seconds)}${tests} ==\n`;
  if (!quiet) process.stdout.write(ending);
  // The phases run within this one: their counts and wall time, or that they did not get to run.
  const within = PHASES.filter((p) => p.within === phase.name && joined.has(p.name)).map((p): PhaseResult => {
    const part = parts[p.name];
    if (!part)
      return { name: p.name, title: p.title, outcome: 'not run', seconds: 0, note: `none of its tests ran in the ${phase.name} phase` };
    const { seconds: partSeconds, ...partCounts } = part;
    const failed = (part.failed ?? 0) > 0 || (outcome === 'failed' && (part.passed ?? 0) === 0);
    return {
      name: p.name,
      title: p.title,
      outcome: failed ? 'failed' : 'passed',
      seconds: Math.round(partSeconds * 10) / 10,
      ...partCounts,
      note: `within the ${phase.name} phase, beside its tests`,
    };
  });
  return {
    result: { name: phase.name, title: phase.title, outcome, seconds: Math.round(seconds * 10) / 10, ...counts },
    within,
    output: quiet ? output + ending : '',
  };
}

// The phases in groups: a phase `beside` the one before it runs at the same time.
const groups: Phase[][] = [];
for (const phase of phases) {
  if (joined.has(phase.name)) continue;
  if (phase.beside && groups.length) groups.at(-1)!.push(phase);
  else groups.push([phase]);
}
let exitCode = 0;
for (const group of groups) {
  const ran = await Promise.all(group.map((phase) => runPhase(phase, group.length > 1)));
  for (const { result, within, output } of ran) {
    if (output) process.stdout.write(output);
    timings.phases.push(result, ...within);
  }
  record();
  const failed = ran.find(({ result }) => result.outcome === 'failed');
  if (failed) {
    exitCode = 1;
    break;
  }
}
for (const phase of phases.slice(timings.phases.length)) {
  timings.phases.push({ name: phase.name, title: phase.title, outcome: 'not run', seconds: 0, note: 'an earlier phase failed' });
}
record();
rmSync(reportDir, { recursive: true, force: true });
process.stdout.write(`${summary(timings)}\n`);
process.exit(exitCode);
