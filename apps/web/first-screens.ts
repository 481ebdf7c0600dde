import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The grouping of the first screens' modules (see vite.config.ts) is measured by a build of its
 * own; it is kept in `first-screens.json` with a hash of everything it depends on, so a build
 * whose sources have not changed since runs once. A build whose sources changed measures again
 * and rewrites the file, which is committed with the change (a test fails while it is stale).
 */
export type FirstScreenChunk = 'app' | 'ui' | 'guest' | 'shell' | 'dashboard';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = path.resolve(webRoot, '../..');
export const FIRST_SCREENS_FILE = path.join(webRoot, 'first-screens.json');

/** What the grouping depends on: the app's and the domain's sources, the build's configuration, the installed versions. */
const INPUTS = [
  'apps/web/src',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/first-screens.ts',
  'apps/web/package.json',
  'packages/domain/src',
  'packages/domain/package.json',
  'package-lock.json',
];

function filesOf(relative: string): string[] {
  const full = path.join(repoRoot, relative);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [relative];
  return readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !/\.test\.tsx?$/.test(e.name))
    .map((e) => path.relative(repoRoot, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
}

/** A hash of the inputs' paths and contents (line endings made alike, so a Windows checkout agrees). */
export function firstScreenInputsHash(): string {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap(filesOf).sort()) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(path.join(repoRoot, file), 'utf8').replaceAll('\r\n', '\n'));
    hash.update('\0');
  }
  return hash.digest('hex').slice(0, 32);
}

interface Kept {
  inputs: string;
  chunks: Record<FirstScreenChunk, string[]>;
}

export function readFirstScreensFile(): Kept | null {
  if (!existsSync(FIRST_SCREENS_FILE)) return null;
  return JSON.parse(readFileSync(FIRST_SCREENS_FILE, 'utf8')) as Kept;
}

/** The kept grouping (module id → chunk, ids absolute as the bundler gives them) when it is current, else null. */
export function keptFirstScreens(): Map<string, FirstScreenChunk> | null {
  const kept = readFirstScreensFile();
  if (!kept || kept.inputs !== firstScreenInputsHash()) return null;
  const sets = new Map<string, FirstScreenChunk>();
  for (const [chunk, ids] of Object.entries(kept.chunks) as [FirstScreenChunk, string[]][]) {
    for (const id of ids) sets.set(path.join(repoRoot, id), chunk);
  }
  return sets;
}

/** Keeps a measured grouping, ids relative to the repository so that every checkout shares it. */
export function keepFirstScreens(sets: Map<string, FirstScreenChunk>): void {
  const chunks: Record<FirstScreenChunk, string[]> = { app: [], ui: [], guest: [], shell: [], dashboard: [] };
  for (const [id, chunk] of sets) chunks[chunk].push(path.relative(repoRoot, id).split(path.sep).join('/'));
  for (const ids of Object.values(chunks)) ids.sort();
  writeFileSync(FIRST_SCREENS_FILE, `${JSON.stringify({ inputs: firstScreenInputsHash(), chunks } satisfies Kept, null, 2)}\n`);
}
