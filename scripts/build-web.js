import { spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';

/**
 * Builds the web app into apps/web/dist when it is missing or older than its sources, so that
 * several builders at once (two `npm start` in one checkout, a start during `npm run build`) all
 * succeed:
 * - one builds at a time, under a lock file beside dist holding its pid (created with O_EXCL); the
 *   lock of a builder that died is taken over; the others wait, then find the build fresh and skip;
 * - vite writes into a folder of its own beside dist, which replaces dist by renames once complete:
 *   a server serving dist reads the old build or the new one, never a half-written one.
 * JavaScript, like scripts/start.js, which calls it before the server loads.
 *
 * As a command: `node scripts/build-web.js [--force] [--dist <folder>]`.
 */
const root = path.resolve(import.meta.dirname, '..');
const web = path.join(root, 'apps/web');
const DEFAULT_DIST = path.join(web, 'dist');
/** How often a waiting builder looks at the lock again. */
const WAIT_STEP_MS = 250;
/** A build never takes this long: a lock this old is stale even if its pid is alive (reused). */
const LOCK_MAX_AGE_MS = 60 * 60_000;

/** @param {string} target */
function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

/**
 * The build in `dist` is at least as recent as every source of the web app (and of the domain it uses).
 * @param {string} dist
 */
function isFresh(dist) {
  const builtIndex = path.join(dist, 'index.html');
  if (!existsSync(builtIndex)) return false;
  const sources = ['src', 'public', 'index.html', 'vite.config.ts', 'package.json'].map((p) => path.join(web, p));
  sources.push(path.join(root, 'packages/domain/src'));
  return Math.max(...sources.map(newestMtime)) <= statSync(builtIndex).mtimeMs;
}

/**
 * When the build now in `dist` began: its folder is made just before vite runs (0 when unknown).
 * @param {string} dist
 */
function buildStartedAt(dist) {
  if (!existsSync(path.join(dist, 'index.html'))) return 0;
  return statSync(dist).birthtimeMs || 0;
}

/** @param {number} pid */
function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists, it belongs to another user.
    return /** @type {NodeJS.ErrnoException} */ (err).code === 'EPERM';
  }
}

/**
 * Holds the lock file `file` (created exclusively, with this process's pid), waiting while
 * another live process holds it; a lock left by a process that died is taken over.
 * Answers the function that releases it.
 * @param {string} file
 * @param {(holder: number) => void} [onWait] told once, with the holder's pid, when it must wait
 * @returns {Promise<() => void>}
 */
export async function holdLock(file, onWait) {
  let told = false;
  for (;;) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (err) {
      if (/** @type {NodeJS.ErrnoException} */ (err).code !== 'EEXIST') throw err;
    }
    let content, age;
    try {
      content = readFileSync(file, 'utf8');
      age = Date.now() - statSync(file).mtimeMs;
    } catch {
      continue; // released meanwhile
    }
    const holder = Number.parseInt(content, 10);
    // An empty lock is one being written, unless it stays empty (its writer died in between).
    const stale = Number.isInteger(holder) ? !isAlive(holder) || age > LOCK_MAX_AGE_MS : age > 10_000;
    if (stale) {
      // Removed only if it still holds what was read: a builder that took it over meanwhile keeps it.
      try {
        if (readFileSync(file, 'utf8') === content) unlinkSync(file);
      } catch {
        // gone already
      }
      continue;
    }
    if (!told && onWait) onWait(holder);
    told = true;
    await sleep(WAIT_STEP_MS);
  }
}

/**
 * Runs vite's build of apps/web into `outDir`.
 * @param {string} outDir
 * @returns {Promise<void>}
 */
function viteBuild(outDir) {
  const vite = path.join(path.dirname(createRequire(path.join(web, 'package.json')).resolve('vite/package.json')), 'bin/vite.js');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [vite, 'build', '--outDir', outDir, '--emptyOutDir'], { cwd: web, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`the build of the web app failed (${signal ?? `exit code ${code}`})`)),
    );
  });
}

/**
 * Makes `dist` anew, whole: `make` writes into a folder of its own beside it, which then replaces
 * `dist` by two renames, so a reader finds the old one or the new one, never half of either. Runs
 * under the builders' lock: what builders that died left beside `dist` is removed first.
 * @param {string} dist
 * @param {(folder: string) => Promise<void>} make
 */
export async function replaceWhole(dist, make) {
  const next = `${dist}.next-${process.pid}`;
  const old = `${dist}.old-${process.pid}`;
  const base = path.basename(dist);
  for (const entry of readdirSync(path.dirname(dist))) {
    if (entry.startsWith(`${base}.next-`) || entry.startsWith(`${base}.old-`))
      rmSync(path.join(path.dirname(dist), entry), { recursive: true, force: true });
  }
  try {
    mkdirSync(next, { recursive: true });
    await make(next);
    // Two renames: dist is absent only between them, never half-written.
    const hadOld = existsSync(dist);
    if (hadOld) renameSync(dist, old);
    try {
      renameSync(next, dist);
    } catch (err) {
      if (hadOld) renameSync(old, dist);
      throw err;
    }
    if (hadOld) rmSync(old, { recursive: true, force: true });
  } finally {
    rmSync(next, { recursive: true, force: true });
  }
}

/**
 * Builds the web app when `dist` is missing or older than its sources, or when `force` is set
 * (then a build that began after this call, by another builder, counts as done).
 * Answers whether this call built it.
 * @param {{ force?: boolean, dist?: string, log?: (line: string) => void }} [options]
 * @returns {Promise<{ built: boolean }>}
 */
export async function buildWeb({ force = false, dist = DEFAULT_DIST, log = (line) => process.stdout.write(`${line}\n`) } = {}) {
  const asked = Date.now();
  const done = () => (force ? buildStartedAt(dist) >= asked : isFresh(dist));
  if (done()) return { built: false };
  mkdirSync(path.dirname(dist), { recursive: true });
  const release = await holdLock(`${dist}.lock`, (holder) => log(`Waiting for the build of the web app under way (process ${holder})…`));
  try {
    if (done()) {
      log('The web app was built meanwhile.');
      return { built: false };
    }
    log('Building the web app…');
    await replaceWhole(dist, viteBuild);
    return { built: true };
  } finally {
    release();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  const distAt = args.indexOf('--dist');
  const unknown = args.filter((a, i) => a !== '--force' && !(distAt >= 0 && (i === distAt || i === distAt + 1)));
  if (unknown.length > 0 || (distAt >= 0 && !args[distAt + 1])) {
    process.stderr.write('Usage: node scripts/build-web.js [--force] [--dist <folder>]\n');
    process.exit(2);
  }
  try {
    await buildWeb({ force: args.includes('--force'), dist: distAt >= 0 ? path.resolve(args[distAt + 1]) : undefined });
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
