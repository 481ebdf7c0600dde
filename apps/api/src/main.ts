import { enableCompileCache } from 'node:module';
import { registerPackageFormatShortcut } from './boot/package-format.ts';

/**
 * The server's process: `npm start`, `npm run dev:api`, the benchmarks. What it loads is compiled
 * once and kept (Node's compile cache, in the system's temporary folder unless NODE_COMPILE_CACHE
 * names one: the type stripping of our TypeScript and V8's bytecode), and the format of the files
 * of ES module packages is answered without Node's costly lookup; then the server starts.
 */
enableCompileCache();
registerPackageFormatShortcut();
await import('./server.ts');
