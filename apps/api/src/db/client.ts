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
  const client = await PGlite.create(dataDir === 'memory://' ? undefined : dataDir);
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  await migratePglite(db as never, { migrationsFolder });
  return {
    kind: 'pglite',
    db,
    bossDb: fromPglite(client),
    url: undefined,
    pool: undefined,
    close: () => client.close(),
  };
}
