import path from 'node:path';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { EmbeddedDatabaseError } from '../db/embedded-server.ts';
import { importRppsFile } from '../modules/rpps/rpps-extract.ts';
import { createRppsService } from '../modules/rpps/rpps.service.ts';

/** `npm run rpps:import -- FILE`: loads the public RPPS extract (PS_LibreAcces_Personne_activite). */
const file = process.argv[2];
if (!file) {
  process.stderr.write('Usage: npm run rpps:import -- PS_LibreAcces_Personne_activite_<date>.txt\n');
  process.exit(2);
}
const config = loadConfig();
// On the embedded database, a running Sutura's server is used; otherwise one is started for the command.
const database = await openDatabase({ url: config.databaseUrl, dataDir: path.join(config.dataDir, 'db'), attach: true }).catch(
  (err: unknown) => {
    if (!(err instanceof EmbeddedDatabaseError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  },
);
try {
  const rpps = createRppsService(database.db);
  const started = Date.now();
  const result = await importRppsFile(path.resolve(file), (rows) => rpps.upsertBatch(rows));
  process.stdout.write(
    `RPPS directory: ${result.rows} rows read, ${result.people} people imported in ${((Date.now() - started) / 1000).toFixed(1)} s (${await rpps.count()} in the directory).\n`,
  );
} finally {
  await database.close();
}
