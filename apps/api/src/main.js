// The server's process: `npm start`, `npm run dev:api`, the benchmarks and the end-to-end tests.
// JavaScript, not TypeScript, because it is the one file Node loads before the compile cache is
// on: a TypeScript entry would load Node's type stripper for itself (18 MB kept resident).
import { enableCompileCache } from 'node:module';
import { pathToFileURL } from 'node:url';

// What the server loads is compiled once and kept: the type stripping of our TypeScript and V8's
// bytecode, in the system's temporary folder unless NODE_COMPILE_CACHE names another.
enableCompileCache();
const [{ registerPackageFormatShortcut }, { freshApiBundle }] = await Promise.all([
  import('./boot/package-format.ts'),
  import('./boot/bundle.js'),
]);
registerPackageFormatShortcut();
// The bundle of the server (scripts/build-api.js, made by `npm start` and `npm run build`) when it
// is as recent as the sources: the same code in one file, loaded in a quarter less time. From the
// sources otherwise, or when told `--from-sources` (`npm run dev:api`, whose watch follows them).
const bundle = process.argv.includes('--from-sources') ? null : freshApiBundle();
await import(bundle ? pathToFileURL(bundle).href : './server.ts');
