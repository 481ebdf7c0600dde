import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The server's bundle (scripts/build-api.js): where it is, what it is made from, and whether it
 * is at least as recent as all of that. Read by apps/api/src/main.js at every start (a few
 * hundred `stat`s, about a millisecond) and by the build. JavaScript, like main.js and
 * scripts/start.js, which load it before the compile cache is on.
 */
const api = path.resolve(import.meta.dirname, '../..');
export const API_DIST = path.join(api, 'dist');
/** Written last, dated when the build began: a source changed during the build is newer. */
export const API_STAMP = 'server.js';
export const API_SOURCES = [
  path.join(api, 'src'),
  path.resolve(api, '../../packages/domain/src'),
  path.join(api, 'package.json'),
  path.resolve(api, '../../package-lock.json'),
];

/** @param {string} target @returns {number} */
function newestMtime(target) {
  const stat = statSync(target, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    newest = Math.max(newest, statSync(full, { throwIfNoEntry: false })?.mtimeMs ?? 0);
  }
  return newest;
}

/** The bundle's entry when it is there and no source is newer; else null. */
/** @returns {string | null} */
export function freshApiBundle(dist = API_DIST) {
  const stamp = path.join(dist, API_STAMP);
  if (!existsSync(stamp)) return null;
  const built = statSync(stamp).mtimeMs;
  return API_SOURCES.every((source) => newestMtime(source) <= built) ? stamp : null;
}
