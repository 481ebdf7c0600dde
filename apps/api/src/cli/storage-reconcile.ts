import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { EmbeddedDatabaseError } from '../db/embedded-server.ts';
import { reconcileStorage } from '../modules/retention/storage-report.ts';
import { createStorageFromConfig, createUploadStoreFor } from '../storage/select.ts';

/**
 * `npm run storage:reconcile`: compares the accounting of what the storage holds (storage_objects)
 * with the store itself, local files or S3, and lists every object no row knows (an orphan) and
 * every row whose object is missing. Changes nothing; exits 1 when it finds either.
 * `--json` prints the whole report as JSON.
 */
const json = process.argv.includes('--json');
const config = loadConfig();
const database = await openDatabase({ url: config.databaseUrl, dataDir: path.join(config.dataDir, 'db'), attach: true }).catch(
  (err: unknown) => {
    if (!(err instanceof EmbeddedDatabaseError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  },
);
try {
  const storage = await createStorageFromConfig(config);
  const uploads = createUploadStoreFor(storage, { db: database.db, log: pino({ level: 'silent' }) });
  const report = await reconcileStorage({ db: database.db, storage, uploads });
  if (json) {
    process.stdout.write(`${JSON.stringify({ store: storage.location, ...report }, null, 2)}\n`);
  } else {
    process.stdout.write(`Compared ${report.checked} objects of ${storage.location} with the accounting.\n`);
    process.stdout.write(`${report.orphans.length} orphans (objects no row knows):\n`);
    for (const o of report.orphans) process.stdout.write(`  ${o.key} (${o.size} bytes)\n`);
    process.stdout.write(`${report.missing.length} missing (rows whose object is not in the store):\n`);
    for (const m of report.missing) process.stdout.write(`  ${m.key} (${m.size} bytes)\n`);
  }
  if (report.orphans.length || report.missing.length) process.exitCode = 1;
} finally {
  await database.close();
}
