import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { defineConfig, type Plugin, type Rolldown } from 'vite';
import react from '@vitejs/plugin-react';
import { ERRORS } from '@sutura/domain/errors';
import { isLanguage } from '@sutura/domain/i18n';
import { keepFirstScreens, keptFirstScreens, type FirstScreenChunk } from './first-screens.ts';

// The API the dev and preview servers forward to; `API_URL` points them at another one.
const api = process.env.API_URL ?? 'http://localhost:3000';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const muiRoot = path.dirname(createRequire(import.meta.url).resolve('@mui/material/package.json'));

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt)$/;
/** Smaller files gain nothing once the headers of a compressed answer are counted. */
const MIN_COMPRESS_BYTES = 512;
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/**
 * Writes `.br` and `.gz` beside every text file of the build, at the highest levels (the build
 * pays once; the server sends them as they are, with no compression per request).
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'sutura:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await filesUnder(outDir)).filter((file) => COMPRESSIBLE.test(file));
      await Promise.all(
        files.map(async (file) => {
          if ((await stat(file)).size < MIN_COMPRESS_BYTES) return;
          const body = await readFile(file);
          const [br, gz] = await Promise.all([
            brotli(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }),
            gzipAsync(body, { level: zlib.Z_BEST_COMPRESSION }),
          ]);
          if (br.length < body.length) await writeFile(`${file}.br`, br);
          if (gz.length < body.length) await writeFile(`${file}.gz`, gz);
        }),
      );
    },
  };
}

/**
 * Preloads the two Open Sans files every page draws its first text with (Latin, regular and
 * bold), so the text does not jump when the font arrives. A `<link>` only: no script.
 */
function preloadFonts(): Plugin {
  const wanted = /open-sans-latin-(?:400|700)-normal-[\w-]+\.woff2$/;
  return {
    name: 'sutura:preload-fonts',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const fonts = Object.keys(ctx.bundle ?? {}).filter((file) => wanted.test(file));
        return fonts.map((file) => ({
          tag: 'link',
          attrs: { rel: 'preload', href: `/${file}`, as: 'font', type: 'font/woff2', crossorigin: '' },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}

const ERROR_CATALOGUE = 'virtual:error-catalogue/';

/**
 * The domain's error catalogue holds every text in both languages (the API answers in either).
 * The web app gets it cut in pieces: `virtual:error-catalogue/codes`, the list of the codes, and
 * `virtual:error-catalogue/<language>`, the texts of one language as an i18next namespace (its
 * placeholders written {{name}}), so a screen loads the texts of its language only.
 */
function errorCatalogue(): Plugin {
  return {
    name: 'sutura:error-catalogue',
    resolveId(id) {
      return id.startsWith(ERROR_CATALOGUE) ? `\0${id}` : undefined;
    },
    load(id) {
      if (!id.startsWith(`\0${ERROR_CATALOGUE}`)) return undefined;
      const part = id.slice(ERROR_CATALOGUE.length + 1);
      if (part === 'codes') return `export default ${JSON.stringify(Object.keys(ERRORS))};`;
      if (!isLanguage(part)) throw new Error(`No error catalogue ${part}`);
      const texts = Object.fromEntries(Object.entries(ERRORS).map(([code, text]) => [code, text[part].replace(/\{(\w+)\}/g, '{{$1}}')]));
      return `export default ${JSON.stringify(texts)};`;
    },
  };
}

/**
 * The modules the first screens run before they draw: the entry's (`app`), the sign-in page's with
 * its layout (`guest`), the signed-in shell's (`shell`) and the dashboard's (`dashboard`); what
 * both the signed-out and the signed-in screens run is `ui`. Each set becomes one chunk (see
 * `codeSplitting` below), so a first visit fetches a handful of files instead of dozens of small
 * shared ones: over a slow mobile connection each file costs a round trip, and a browser opens
 * few at a time. A later page that uses a module of a set loads that set's chunk, which the first
 * screen has usually cached already.
 *
 * Every screen fetches MUI's Tooltip soon after it draws (at the first move of the mouse), and
 * its drawers Modal (at the first press): a module they share with the sign-in page or the shell
 * alone goes to `ui` instead, else a tooltip on the dashboard would fetch the sign-in form with
 * it (`later` names them).
 *
 * The sets come from a first build with the default splitting, in memory: the modules left in the
 * chunks each screen loads once unused exports are dropped (the import graph alone would put, for
 * instance, every input component that a barrel file of MUI's styles names into the entry). That
 * measure is kept in first-screens.json with a hash of its inputs: a build runs it again only when
 * they changed (see first-screens.ts).
 */
const FIRST_SCREENS = {
  app: ['src/main.tsx'],
  guest: ['src/app/layouts/public-layout.tsx', 'src/features/auth/login-page.tsx'],
  shell: ['src/app/layouts/signed-in-layout.tsx'],
  dashboard: ['src/features/dashboard/dashboard-page.tsx'],
  later: ['Tooltip', 'Modal'].map((name) => path.relative(webRoot, path.join(muiRoot, name, `${name}.mjs`))),
} as const;
type FirstScreen = keyof typeof FIRST_SCREENS;
const FIRST_SCREEN_CHUNKS = ['app', 'ui', 'guest', 'shell', 'dashboard'] as const satisfies readonly FirstScreenChunk[];
const MEASURING = 'SUTURA_MEASURING_FIRST_SCREENS';
type OutputChunk = Rolldown.OutputChunk;

/** Which first-screen chunk each module goes to, from the chunks of the measuring build. */
function firstScreenSets(chunks: OutputChunk[]): Record<string, FirstScreenChunk> {
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const reachedBy = new Map<string, Set<FirstScreen>>();
  for (const [screen, roots] of Object.entries(FIRST_SCREENS) as [FirstScreen, readonly string[]][]) {
    const pending = roots.map((root) => {
      const id = path.join(webRoot, root);
      const chunk = chunks.find((c) => c.moduleIds.includes(id));
      if (!chunk) throw new Error(`first screen ${screen}: no chunk holds ${root}`);
      return chunk.fileName;
    });
    const seen = new Set<string>();
    while (pending.length > 0) {
      const file = pending.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      const chunk = byFile.get(file)!;
      for (const [id, module] of Object.entries(chunk.modules))
        if (module.renderedLength > 0) reachedBy.set(id, (reachedBy.get(id) ?? new Set()).add(screen));
      pending.push(...chunk.imports);
    }
  }
  const sets: Record<string, FirstScreenChunk> = {};
  for (const [id, screens] of reachedBy) {
    // The bundler's own modules (its runtime, Vite's preload helpers) stay where it puts them.
    if (id.startsWith('\0')) continue;
    const signedIn = screens.has('shell') || screens.has('dashboard');
    const later = screens.has('later');
    if (screens.has('app')) sets[id] = 'app';
    else if (screens.has('guest')) sets[id] = signedIn || later ? 'ui' : 'guest';
    else if (signedIn) sets[id] = later ? 'ui' : screens.has('shell') ? 'shell' : 'dashboard';
  }
  return sets;
}

/** In the measuring build: writes the sets to the file its environment names, and nothing else. */
function writeFirstScreenSets(file: string): Plugin {
  return {
    name: 'sutura:first-screen-sets',
    apply: 'build',
    async generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === 'chunk');
      await writeFile(file, JSON.stringify(firstScreenSets(chunks)));
    },
  };
}

/** Runs the measuring build (a separate process: two builds in one share state) and reads its sets. */
async function measureFirstScreens(): Promise<Map<string, FirstScreenChunk>> {
  const folder = await mkdtemp(path.join(tmpdir(), 'sutura-first-screens-'));
  const file = path.join(folder, 'sets.json');
  try {
    const vite = path.join(path.dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin/vite.js');
    const run = spawnSync(process.execPath, [vite, 'build', '--config', fileURLToPath(import.meta.url), '--logLevel', 'error'], {
      cwd: webRoot,
      env: { ...process.env, [MEASURING]: file },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (run.status !== 0) throw new Error('the measuring build of the first screens failed');
    return new Map(Object.entries(JSON.parse(await readFile(file, 'utf8')) as Record<string, FirstScreenChunk>));
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

const domainSource = fileURLToPath(new URL('../../packages/domain/src/', import.meta.url));

/** zod itself, and every module of the domain that builds schemas with it. */
function isSchemaModule(id: string): boolean {
  if (/node_modules[\\/]zod[\\/]/.test(id)) return true;
  if (!id.startsWith(domainSource) || !id.endsWith('.ts')) return false;
  return /^import (?!type )[^;]*from 'zod'/m.test(readFileSync(id, 'utf8'));
}

/** The kept grouping when its inputs have not changed; else measured again, and kept. */
async function firstScreenGrouping(): Promise<Map<string, FirstScreenChunk>> {
  const kept = keptFirstScreens();
  if (kept) return kept;
  const measured = await measureFirstScreens();
  keepFirstScreens(measured);
  process.stdout.write('The first screens were measured again (their sources changed): commit apps/web/first-screens.json.\n');
  return measured;
}

export default defineConfig(async ({ command }) => {
  const measuring = process.env[MEASURING];
  const firstScreens = command === 'build' && !measuring ? await firstScreenGrouping() : new Map<string, FirstScreenChunk>();
  return {
    root: webRoot,
    plugins: [react(), errorCatalogue(), ...(measuring ? [writeFirstScreenSets(measuring)] : [preloadFonts(), precompress()])],
    resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
    server: {
      proxy: {
        '/v1': { target: api, changeOrigin: true },
        '/socket.io': { target: api, ws: true, changeOrigin: true },
      },
    },
    preview: {
      proxy: {
        '/v1': { target: api, changeOrigin: true },
        '/socket.io': { target: api, ws: true, changeOrigin: true },
      },
    },
    build: {
      outDir: 'dist',
      // The measuring build only reads its chunks, in memory.
      write: !measuring,
      emptyOutDir: true,
      // Which chunk holds which module: the delivery test checks the sign-in page against it.
      manifest: true,
      rolldownOptions: {
        // The shared schemas are built at the top of the domain's modules; declared pure, those a
        // page does not use are dropped, and zod with them when the page uses none. (So the web app
        // must not configure zod globally with a bare `z.config(...)` call: it would be dropped.)
        // hoist-non-react-statics (and the older react-is it brings) serves only emotion's withTheme,
        // which the app does not use: a CommonJS package, it would stay for fear of side effects.
        treeshake: {
          manualPureFunctions: ['z'],
          moduleSideEffects: (id: string) => (/node_modules[\\/]hoist-non-react-statics[\\/]/.test(id) ? false : undefined),
        },
        output: {
          // React changes less often than the app and every page needs it: its own chunk stays cached
          // across deployments. Everything else is split by route, so a page loads only what it shows.
          codeSplitting: {
            groups: [
              { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ },
              // zod and the shared schemas together, so that no page fetches them with some shared
              // helper: only the pages that validate or parse with a schema do.
              // Their zod-free imports (limits, languages) stay where they are: the first screen needs them.
              { name: 'schemas', test: isSchemaModule, includeDependenciesRecursively: false },
              ...FIRST_SCREEN_CHUNKS.map((name) => ({
                name,
                // The list of the error codes, a module of the plugin (not measured), is the entry's too.
                test: (id: string) => firstScreens.get(id) === name || (name === 'app' && id === `\0${ERROR_CATALOGUE}codes`),
                includeDependenciesRecursively: false,
              })),
            ],
          },
        },
      },
    },
  };
});
