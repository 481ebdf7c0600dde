import { copyFile, mkdir, readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../config.ts';
import { backupEmbeddedDatabase, backupMedia, dumpServerDatabase } from '../db/backup.ts';
import { startEmbeddedServer } from '../db/embedded-server.ts';
import { backupStoredMedia } from '../storage/backup.ts';
import { createS3Storage } from '../storage/s3.ts';

/**
 * `npm run backup [-- FOLDER]`: the database and the media files, consistent, into FOLDER
 * (default DATA_DIR/backups/sutura-<date>), while Sutura runs or not. docs/embedded-database.md says how to restore.
 */
const config = loadConfig();
const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
const target = path.resolve(process.argv[2] ?? path.join(config.dataDir, 'backups', `sutura-${stamp}`));
if (existsSync(target) && (await readdir(target)).length > 0) {
  process.stderr.write(`${target} is not empty: give a new folder.\n`);
  process.exit(2);
}
const started = Date.now();
try {
  await mkdir(target, { recursive: true });
  if (config.databaseUrl) {
    dumpServerDatabase(config.databaseUrl, path.join(target, 'database.dump'));
  } else {
    const dir = path.join(config.dataDir, 'db');
    // A running Sutura's server is backed up as it runs; otherwise one is started for the backup.
    const server = await startEmbeddedServer({ dir, log: pino({ level: 'silent' }), attach: true });
    try {
      await backupEmbeddedDatabase(server.connection, dir, path.join(target, 'db'));
    } finally {
      await server.stop();
    }
  }
  // After the database, so that every object a backed-up row names is there.
  if (config.s3) await backupStoredMedia(createS3Storage(config.s3), path.join(target, 'media'));
  else await backupMedia(path.join(config.dataDir, 'media'), path.join(target, 'media'));
  // Sessions and signed links stay valid after a restore.
  const secret = path.join(config.dataDir, 'jwt-secret');
  if (existsSync(secret)) await copyFile(secret, path.join(target, 'jwt-secret'));
} catch (err) {
  process.stderr.write(`The backup failed: ${(err as Error).message}\n`);
  process.exit(1);
}
process.stdout.write(`Backup written to ${target} in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`);
