import { spawnSync } from 'node:child_process';
import { cp, mkdir, readdir, stat, writeFile, chmod } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import type { EmbeddedConnection } from './embedded-server.ts';

/** What a data folder holds that a copy must not carry: the running server's own state. */
const SKIPPED = new Set(['postmaster.pid', 'postmaster.opts', 'backup_label', 'tablespace_map']);
const EMPTIED = new Set(['pg_wal', 'pg_replslot', 'pg_dynshmem', 'pg_notify', 'pg_serial', 'pg_snapshots', 'pg_stat_tmp', 'pg_subtrans']);

/**
 * A consistent copy of the embedded server's data folder while it runs (PostgreSQL's base backup:
 * files copied between pg_backup_start and pg_backup_stop, plus the WAL written meanwhile, kept
 * by a temporary replication slot). The copy in `target` is a data folder that starts as is:
 * PostgreSQL replays that WAL and opens the database as it was when the backup ended.
 */
export async function backupEmbeddedDatabase(connection: EmbeddedConnection, dataDir: string, target: string): Promise<void> {
  const client = new pg.Client({ ...connection, database: 'postgres' });
  await client.connect();
  try {
    await client.query('SELECT pg_create_physical_replication_slot($1, true, true)', [`sutura_backup_${process.pid}`]);
    await client.query("SELECT pg_backup_start('sutura backup', true)");
    await copyDataFolder(dataDir, target);
    const { rows } = await client.query<{ labelfile: string; spcmapfile: string | null }>(
      'SELECT labelfile, spcmapfile FROM pg_backup_stop(false)',
    );
    await writeFile(path.join(target, 'backup_label'), rows[0]!.labelfile);
    if (rows[0]!.spcmapfile) await writeFile(path.join(target, 'tablespace_map'), rows[0]!.spcmapfile);
    // The WAL from the backup's start to its end, still there thanks to the slot.
    await cp(path.join(dataDir, 'pg_wal'), path.join(target, 'pg_wal'), {
      recursive: true,
      filter: (source) => !source.includes(`${path.sep}archive_status${path.sep}`),
    });
    await mkdir(path.join(target, 'pg_wal', 'archive_status'), { recursive: true });
    await chmod(target, 0o700);
  } finally {
    await client.end();
  }
}

async function copyDataFolder(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true, mode: 0o700 });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const dest = path.join(to, entry.name);
    if (SKIPPED.has(entry.name) || entry.name.startsWith('.s.PGSQL.')) continue;
    if (EMPTIED.has(entry.name)) {
      await mkdir(dest, { mode: 0o700 });
      continue;
    }
    // Files that the server removes while we copy (temporary files, dropped relations) are skipped.
    await cp(source, dest, { recursive: true, filter: (s) => !path.basename(s).startsWith('pgsql_tmp') }).catch((err: unknown) => {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    });
  }
}

/** With DATABASE_URL: pg_dump (custom format) of that server, with the PostgreSQL client tools of the machine. */
export function dumpServerDatabase(url: string, file: string): void {
  const run = spawnSync('pg_dump', ['--format=custom', '--no-owner', `--file=${file}`, `--dbname=${url}`], { encoding: 'utf8' });
  if (run.error)
    throw new Error(`pg_dump could not run (${run.error.message}): install the PostgreSQL client tools of your server's version.`);
  if (run.status !== 0) throw new Error(`pg_dump failed: ${run.stderr.trim()}`);
}

/** The media folder, copied after the database so that every file a backed-up row names is there. */
export async function backupMedia(mediaDir: string, target: string): Promise<void> {
  const exists = await stat(mediaDir).then(
    () => true,
    () => false,
  );
  if (exists) await cp(mediaDir, target, { recursive: true });
  else await mkdir(target, { recursive: true });
}
