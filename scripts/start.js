import { buildApi } from './build-api.js';
import { buildWeb } from './build-web.js';

/**
 * `npm start`: builds the web app and bundles the server when they are missing or older than
 * their sources (scripts/build-web.js, scripts/build-api.js, safe when several start at once),
 * then runs the server in this process. JavaScript, like the
 * server's entry, so that Node's type stripper is not loaded before the compile cache can spare it
 * (apps/api/src/main.js).
 */
try {
  await buildWeb();
  await buildApi({ log: (line) => process.stdout.write(`${line}\n`) });
} catch (err) {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}

await import('../apps/api/src/main.js');
