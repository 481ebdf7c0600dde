import { readFileSync } from 'node:fs';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

// The API the dev and preview servers forward to; `API_URL` points them at another one.
const api = process.env.API_URL ?? 'http://localhost:3000';

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

/**
 * The modules the first screens need before they draw, read from the module graph once it is
 * built: the entry's static imports (`app`), then those of the sign-in page with its layout
 * (`guest`), of the signed-in shell (`shell`) and of the dashboard (`dashboard`); what both the
 * signed-out and the signed-in screens use is `ui`. Each set becomes one chunk (see
 * `codeSplitting` below), so a first visit fetches a handful of files instead of dozens of small
 * shared ones: over a slow mobile connection each file costs a round trip, and a browser opens
 * few at a time. A later page that uses a module of a set loads that set's chunk, which the first
 * screen has usually cached already.
 */
const FIRST_SCREENS = {
  app: ['src/main.tsx'],
  guest: ['src/app/layouts/public-layout.tsx', 'src/features/auth/login-page.tsx'],
  shell: ['src/app/layouts/signed-in-layout.tsx'],
  dashboard: ['src/features/dashboard/dashboard-page.tsx'],
} as const;
const FIRST_SCREEN_CHUNKS = ['app', 'ui', 'guest', 'shell', 'dashboard'] as const;
type FirstScreenChunk = (typeof FIRST_SCREEN_CHUNKS)[number];

function firstScreens(): Plugin & { chunkOf: (id: string) => FirstScreenChunk | undefined } {
  const chunks = new Map<string, FirstScreenChunk>();
  const webRoot = fileURLToPath(new URL('.', import.meta.url));
  return {
    name: 'sutura:first-screens',
    apply: 'build',
    chunkOf: (id) => chunks.get(id),
    buildEnd() {
      const reachedBy = new Map<string, Set<keyof typeof FIRST_SCREENS>>();
      for (const [screen, roots] of Object.entries(FIRST_SCREENS) as [keyof typeof FIRST_SCREENS, readonly string[]][]) {
        const pending = roots.map((root) => path.join(webRoot, root));
        for (const root of pending) if (!this.getModuleInfo(root)) this.error(`first screen ${screen}: no module ${root}`);
        const seen = new Set<string>();
        while (pending.length > 0) {
          const id = pending.pop()!;
          if (seen.has(id)) continue;
          seen.add(id);
          reachedBy.set(id, (reachedBy.get(id) ?? new Set()).add(screen));
          pending.push(...(this.getModuleInfo(id)?.importedIds ?? []));
        }
      }
      chunks.clear();
      for (const [id, screens] of reachedBy) {
        const signedIn = screens.has('shell') || screens.has('dashboard');
        if (screens.has('app')) chunks.set(id, 'app');
        else if (screens.has('guest')) chunks.set(id, signedIn ? 'ui' : 'guest');
        else chunks.set(id, screens.has('shell') ? 'shell' : 'dashboard');
      }
    },
  };
}

const screens = firstScreens();

const domainSource = fileURLToPath(new URL('../../packages/domain/src/', import.meta.url));

/** zod itself, and every module of the domain that builds schemas with it. */
function isSchemaModule(id: string): boolean {
  if (/node_modules[\\/]zod[\\/]/.test(id)) return true;
  if (!id.startsWith(domainSource) || !id.endsWith('.ts')) return false;
  return /^import (?!type )[^;]*from 'zod'/m.test(readFileSync(id, 'utf8'));
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), screens, preloadFonts(), precompress()],
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
    emptyOutDir: true,
    // Which chunk holds which module: the delivery test checks the sign-in page against it.
    manifest: true,
    rolldownOptions: {
      // The shared schemas are built at the top of the domain's modules; declared pure, those a
      // page does not use are dropped, and zod with them when the page uses none. (So the web app
      // must not configure zod globally with a bare `z.config(...)` call: it would be dropped.)
      treeshake: { manualPureFunctions: ['z'] },
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
              test: (id: string) => screens.chunkOf(id) === name,
              includeDependenciesRecursively: false,
            })),
          ],
        },
      },
    },
  },
});
