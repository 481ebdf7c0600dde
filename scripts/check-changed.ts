import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { relatedTests } from './related-tests.ts';

/**
 * The fast inner loop (docs/testing.md): lint and formatting of the files changed since a branch
 * (main unless named), the type check of every project (incremental: only what changed is checked
 * again), and the test files the changes are about (related-tests.ts), on the embedded PostgreSQL.
 *
 *   npm run check:changed                    changes since main, committed or not, new files included
 *   npm run check:changed -- origin/main     since another branch or commit
 *   npm run check:changed -- --wide          the tests Vitest's --changed picks: every test file a change reaches through any import
 *
 * Every step runs even when one before failed, so that one pass shows everything to fix.
 */
const root = path.resolve(import.meta.dirname, '..');
const wide = process.argv.includes('--wide');
const base = process.argv.slice(2).find((a) => !a.startsWith('-')) ?? 'main';

const git = (args: string[]) => {
  const result = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) {
    process.stderr.write(`git ${args.join(' ')}: ${result.stderr}`);
    process.exit(2);
  }
  return result.stdout.split('\n').filter(Boolean);
};
// As Vitest's --changed reads them: the branch's commits since it left `base`, staged and
// unstaged changes, and new files git does not ignore.
const changed = [
  ...new Set([
    ...git(['diff', '--name-only', `${base}...HEAD`]),
    ...git(['diff', '--name-only', 'HEAD']),
    ...git(['ls-files', '--others', '--exclude-standard']),
  ]),
]
  .filter((f) => existsSync(path.join(root, f)))
  .sort();

/** What every test file runs with: a change there is not about some tests but all. */
const EVERY_TEST = [
  'vitest.config.ts',
  'scripts/vitest/',
  'apps/api/test/global-setup.ts',
  'apps/api/test/harness.ts',
  'package-lock.json',
];

const steps: { name: string; seconds: number; ok: boolean }[] = [];
const step = (name: string, commands: [string, string[]][], env: NodeJS.ProcessEnv = process.env) => {
  process.stdout.write(`\n== ${name} ==\n`);
  const started = performance.now();
  let ok = true;
  for (const [script, args] of commands) {
    const result = spawnSync(process.execPath, [path.join(root, script), ...args], { cwd: root, stdio: 'inherit', env });
    ok &&= result.status === 0;
  }
  steps.push({ name, seconds: (performance.now() - started) / 1000, ok });
};

process.stdout.write(`${changed.length} files changed since ${base}${changed.length ? `:\n  ${changed.join('\n  ')}` : ''}\n`);
const linted = changed.filter((f) => /\.(ts|tsx|js|mjs|cjs)$/.test(f));
step('lint (ESLint and Prettier, changed files)', [
  ...(linted.length ? [['node_modules/eslint/bin/eslint.js', ['--no-warn-ignored', ...linted]] as [string, string[]]] : []),
  ...(changed.length
    ? [['node_modules/prettier/bin/prettier.cjs', ['--check', '--ignore-unknown', ...changed]] as [string, string[]]]
    : []),
]);
// The projects a change can reach: the root one (scripts, benchmarks, end-to-end tests) imports
// from the API and the web app, and those two from the domain. Each project's last answer is kept
// in node_modules/.cache/tsc, so a project checks again only what the change reaches.
const cache = path.join(root, 'node_modules/.cache/tsc');
const settings = changed.some((f) => /(^|\/)(tsconfig[^/]*\.json|package\.json)$|^package-lock\.json$/.test(f));
const code = changed.filter((f) => /\.(ts|tsx|js|mjs|cjs|json)$/.test(f));
const under = (...folders: string[]) => settings || code.some((f) => folders.some((d) => f.startsWith(d)));
const projects = (
  [
    ['.', 'root', settings || code.length > 0],
    ['packages/domain', 'domain', under('packages/domain/')],
    ['apps/api', 'api', under('apps/api/', 'packages/domain/')],
    ['apps/web', 'web', under('apps/web/', 'packages/domain/')],
  ] as const
).filter(([, , touched]) => touched);
step(
  `types (${projects.map(([, name]) => name).join(', ') || 'no project touched'}, incremental)`,
  projects.map(([project, name]) => [
    'node_modules/typescript/bin/tsc',
    ['-p', project, '--incremental', '--tsBuildInfoFile', path.join(cache, `${name}.tsbuildinfo`)],
  ]),
);
const { TEST_DATABASE_URL: _server, ...embeddedEnv } = process.env;
if (wide) {
  step('tests (Vitest --changed)', [['node_modules/vitest/vitest.mjs', ['run', '--changed', base, '--passWithNoTests']]], embeddedEnv);
} else {
  const everywhere = changed.filter((f) => EVERY_TEST.some((e) => f === e || f.startsWith(e)));
  if (everywhere.length)
    process.stdout.write(`\n${everywhere.join(', ')} changed: every test file may be affected (npm run test:unit runs them).\n`);
  const tests = relatedTests(changed);
  process.stdout.write(
    `\n${tests.length ? `Test files about these changes:\n  ${tests.join('\n  ')}` : 'No test file is about these changes.'}\n`,
  );
  step(
    'tests (Vitest, the files about the changes)',
    tests.length ? [['node_modules/vitest/vitest.mjs', ['run', ...tests]]] : [],
    embeddedEnv,
  );
}

const width = Math.max(...steps.map((s) => s.name.length));
process.stdout.write('\n');
for (const s of steps) process.stdout.write(`${s.name.padEnd(width)}  ${s.seconds.toFixed(1).padStart(6)} s  ${s.ok ? 'ok' : 'FAILED'}\n`);
process.stdout.write(`total ${steps.reduce((t, s) => t + s.seconds, 0).toFixed(1)} s\n`);
process.exit(steps.every((s) => s.ok) ? 0 : 1);
