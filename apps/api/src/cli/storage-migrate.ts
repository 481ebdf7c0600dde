import path from 'node:path';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { EmbeddedDatabaseError } from '../db/embedded-server.ts';
import { migrateToS3 } from '../storage/migrate.ts';
import { createS3Storage } from '../storage/s3.ts';
import { createLocalStorage } from '../storage/storage.ts';

/**
 * `npm run storage:migrate` with the S3_* settings set: copies the media of DATA_DIR into the
 * bucket, checks every copy, and can be run again (it resumes, and does nothing the second time).
 */
const config = loadConfig();
if (!config.s3) {
  process.stderr.write(
    'Set S3_BUCKET (and S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY as needed) to the bucket to copy the media into.\n',
  );
  process.exit(2);
}
const database = await openDatabase({ url: config.databaseUrl, dataDir: path.join(config.dataDir, 'db'), attach: true }).catch(
  (err: unknown) => {
    if (!(err instanceof EmbeddedDatabaseError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  },
);
try {
  const from = createLocalStorage(path.join(config.dataDir, 'media'), { uploadsRoot: path.join(config.dataDir, 'uploads') });
  const to = createS3Storage(config.s3);
  const progressFile = path.join(config.dataDir, 'storage-migrate.jsonl');
  process.stdout.write(`Copying ${from.location} and ${from.uploadsRoot} to ${to.location} (progress in ${progressFile})\n`);
  const report = await migrateToS3({ db: database.db, from, to, progressFile, onProgress: (line) => process.stdout.write(`  ${line}\n`) });
  process.stdout.write(
    `${report.copied} objects copied and checked (${report.bytes} bytes), ${report.skipped} already there, ${report.uploads} unfinished uploads moved, ${report.failed.length} failed\n`,
  );
  for (const f of report.failed) process.stderr.write(`  ${f.key}: ${f.reason}\n`);
  if (report.failed.length) {
    process.stderr.write('Run the command again to retry what failed; start Sutura with the S3_* settings once it reports no failure.\n');
    process.exitCode = 1;
  } else {
    process.stdout.write(
      'Done: start Sutura with the same S3_* settings. The local media folders are left as they were; remove them once you are satisfied.\n',
    );
  }
} finally {
  await database.close();
}
