import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { fromPglite } from 'pg-boss';
import * as schema from './schema.ts';

export type Db = NodePgDatabase<typeof schema>;

/** What pg-boss needs to run its SQL on our connection. */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
}

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** For pg-boss on the embedded database (it shares our single connection). */
  bossDb: SqlExecutor | undefined;
  /** The connection string for processes that need their own connections (pg-boss, socket adapter). */
  url: string | undefined;
  pool: pg.Pool | undefined;
  close(): Promise<void>;
}

const migrationsFolder = path.join(import.meta.dirname, 'migrations');

/**
 * PostgreSQL server when a URL is given, otherwise PGlite in `dataDir` (or in memory for
 * `memory://`). The same schema and migrations run on both.
 */
export async function openDatabase(opts: { url?: string | undefined; dataDir?: string }): Promise<Database> {
  if (opts.url) {
    const pool = new pg.Pool({ connectionString: opts.url, max: 10 });
    const db = drizzlePg(pool, { schema });
    await migratePg(db, { migrationsFolder });
    return { kind: 'postgres', db, bossDb: undefined, url: opts.url, pool, close: () => pool.end() };
  }
  const dataDir = opts.dataDir ?? 'memory://';
  const unlock = dataDir === 'memory://' ? () => {} : lockDataDir(dataDir);
  const client = await PGlite.create(dataDir === 'memory://' ? undefined : dataDir, {
    // PostgreSQL's default of 128 MB of shared buffers lives in the WebAssembly memory, which
    // never shrinks; the embedded database is small and its files are in the OS page cache anyway.
    startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'],
  }).catch((err: unknown) => {
    unlock();
    throw err;
  });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  await migratePglite(db as never, { migrationsFolder });
  return {
    kind: 'pglite',
    db,
    bossDb: fromPglite(client),
    url: undefined,
    pool: undefined,
    close: async () => {
      await client.close();
      unlock();
    },
  };
}

export class DatabaseLockedError extends Error {}

/**
 * PGlite is one connection in one process: a second process on the same folder would corrupt
 * it, so the folder is locked with the owner's pid (a lock whose process is gone is taken over).
 */
function lockDataDir(dataDir: string): () => void {
  mkdirSync(path.dirname(path.resolve(dataDir)), { recursive: true });
  const lockFile = `${path.resolve(dataDir)}.lock`;
  for (;;) {
    try {
      writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      return () => rmSync(lockFile, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number(readFileSync(lockFile, 'utf8'));
      if (owner && owner !== process.pid && isAlive(owner))
        throw new DatabaseLockedError(
          `Another Sutura process (pid ${owner}) is using the embedded database in ${dataDir}. Stop it, or set DATABASE_URL to run several processes.`,
        );
      rmSync(lockFile, { force: true });
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
