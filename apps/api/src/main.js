// The server's process: `npm start`, `npm run dev:api`, the benchmarks and the end-to-end tests.
// JavaScript, not TypeScript, because it is the one file Node loads before the compile cache is
// on: a TypeScript entry would load Node's type stripper for itself (18 MB kept resident).
import { enableCompileCache } from 'node:module';

// What the server loads is compiled once and kept: the type stripping of our TypeScript and V8's
// bytecode, in the system's temporary folder unless NODE_COMPILE_CACHE names another.
enableCompileCache();
const { registerPackageFormatShortcut } = await import('./boot/package-format.ts');
registerPackageFormatShortcut();
await import('./server.ts');
