import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The test files a change is about, for the fast inner loop (docs/testing.md, "The fast inner
 * loop"). Vitest's own `--changed` follows every import, and the test harness builds the whole
 * app, so any change under apps/api/src would select nearly every API test: here the imports are
 * followed up to the modules that assemble the app (HUBS), not through them, and a module's
 * folder names its tests (modules/stats/… → stats*.test.ts).
 */
const root = path.resolve(import.meta.dirname, '..');
const SOURCES = ['packages/domain/src', 'apps/api/src', 'apps/api/test', 'apps/web/src', 'test'];
const TEST = /\.test\.tsx?$/;
/** The modules that import (nearly) every other one: a change there reaches everything, a change elsewhere does not pass through them. */
const HUBS = new Set(['apps/api/src/app.ts', 'apps/api/src/jobs/workers.ts', 'apps/api/src/server.ts', 'apps/api/test/harness.ts']);
/** Repository checks that read files rather than import them, and the folders they read. */
const READERS: [string, string[]][] = [
  ['test/i18n-parity.test.ts', ['apps/web/src/locales/']],
  ['test/feature-boundaries.test.ts', ['apps/web/src/features/', 'eslint/']],
  ['test/web-first-screens.test.ts', ['apps/web/']],
];

const rel = (file: string) => path.relative(root, file).split(path.sep).join('/');

function* sourceFiles(dir: string): Generator<string> {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') yield* sourceFiles(full);
    } else if (/\.(ts|tsx|js|json)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield full;
  }
}

/** The file an import names, for the repository's own modules (relative, `@/` in the web app, `@sutura/domain/…`). */
function resolve(from: string, specifier: string): string | undefined {
  let base: string;
  if (specifier.startsWith('.')) base = path.resolve(path.dirname(from), specifier);
  else if (specifier.startsWith('@/')) base = path.join(root, 'apps/web/src', specifier.slice(2));
  else if (specifier.startsWith('@sutura/domain/'))
    base = path.join(root, 'packages/domain/src', specifier.slice('@sutura/domain/'.length));
  else return undefined;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** Who imports each file at run time (type-only imports are erased, so they do not count). */
function importers(): Map<string, Set<string>> {
  const byTarget = new Map<string, Set<string>>();
  const pattern = /(?:^|[\s;])(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const dir of SOURCES) {
    for (const file of sourceFiles(path.join(root, dir))) {
      if (file.endsWith('.json')) continue;
      for (const match of readFileSync(file, 'utf8').matchAll(pattern)) {
        const target = resolve(file, match[1] ?? match[2]!);
        if (!target) continue;
        const key = rel(target);
        if (!byTarget.has(key)) byTarget.set(key, new Set());
        byTarget.get(key)!.add(rel(file));
      }
    }
  }
  return byTarget;
}

/**
 * The names that point to a file's tests: its folders under apps/api/src and the first part of its
 * own name (modules/stats/stats.service.ts: stats; storage/s3.ts: storage, s3; db/migrations/…: migrations).
 */
function namesOf(file: string): string[] {
  const parts = file.split('/');
  if (parts.slice(0, 3).join('/') !== 'apps/api/src' || HUBS.has(file)) return [];
  const folders = parts.slice(3, -1).filter((p) => p !== 'modules' && p !== 'db');
  return [...folders, parts.at(-1)!.split('.')[0]!];
}

export function relatedTests(changed: readonly string[]): string[] {
  const graph = importers();
  const apiTests = readdirSync(path.join(root, 'apps/api/test')).filter((f) => TEST.test(f));
  const selected = new Set<string>();
  const seen = new Set<string>();
  const queue = [...changed];
  while (queue.length) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (TEST.test(file)) selected.add(file);
    // A hub is followed when it is what changed, never on the way from another file.
    if (HUBS.has(file) && !changed.includes(file)) continue;
    for (const importer of graph.get(file) ?? []) queue.push(importer);
  }
  for (const file of changed) {
    for (const name of namesOf(file))
      for (const test of apiTests) if (test.startsWith(`${name}.`) || test.startsWith(`${name}-`)) selected.add(`apps/api/test/${test}`);
    for (const [test, folders] of READERS) if (folders.some((f) => file.startsWith(f))) selected.add(test);
  }
  return [...selected].filter((f) => existsSync(path.join(root, f))).sort();
}
