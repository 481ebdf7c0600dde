import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import pino, { type Logger } from 'pino';
import * as schema from './schema.ts';
import { embeddedUrl, startEmbeddedServer, type EmbeddedServer } from './embedded-server.ts';

export type Db = NodePgDatabase<typeof schema>;

export interface Database {
  /** `embedded`: the PostgreSQL server Sutura runs in DATA_DIR/db; `postgres`: the server of DATABASE_URL. */
  kind: 'embedded' | 'postgres';
  db: Db;
  pool: pg.Pool;
  /** The connection string for what needs its own connections (pg-boss, pg_dump). */
  url: string;
  /** The embedded server's data folder. */
  dataDir: string | undefined;
  close(): Promise<void>;
}

const migrationsFolder = path.join(import.meta.dirname, 'migrations');

/**
 * Whether the database already has every migration of this version: drizzle applies a migration
 * when the last one recorded (`drizzle.__drizzle_migrations`) is older than it, so with the last
 * one as recent as the journal's last, it would read and hash every file and apply none. One
 * query then, and nothing read but the journal; on any doubt (a new database, no such table),
 * drizzle's own check.
 */
async function migrated(pool: pg.Pool): Promise<boolean> {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { when: number }[];
  };
  const latest = Math.max(...journal.entries.map((e) => e.when));
  const { rows } = await pool
    .query<{ created_at: string }>(`SELECT created_at FROM drizzle.__drizzle_migrations ORDER BY created_at DESC LIMIT 1`)
    .catch(() => ({ rows: [] }));
  return rows.length > 0 && Number(rows[0]!.created_at) >= latest;
}

/**
 * The server of `url` when given, otherwise the embedded PostgreSQL server in `dataDir`: one
 * driver (a pg pool), one schema and one set of migrations, applied here, in both modes.
 */
export async function openDatabase(opts: {
  url?: string | undefined;
  dataDir?: string;
  log?: Logger;
  /** Connect to the embedded server another Sutura process runs, rather than being refused. */
  attach?: boolean;
  /** The embedded server died and could not be brought back. */
  onFatal?: (err: Error) => void;
  /** The embedded server of `dataDir`, already starting (the server starts it while its modules load). */
  server?: Promise<EmbeddedServer>;
}): Promise<Database> {
  if (opts.url) return openPool(opts.url, 'postgres', undefined, async () => {});
  if (!opts.dataDir) throw new Error('openDatabase needs a url or a data folder');
  const server = await (opts.server ??
    startEmbeddedServer({
      dir: opts.dataDir,
      log: opts.log ?? pino({ level: 'silent' }),
      ...(opts.attach ? { attach: true } : {}),
      ...(opts.onFatal ? { onFatal: opts.onFatal } : {}),
    }));
  return openPool(embeddedUrl(server.connection), 'embedded', opts.dataDir, () => server.stop()).catch(async (err: unknown) => {
    await server.stop();
    throw err;
  });
}

const PREPARED = /^\s*(select|insert|update|delete|with)\b/i;
const statementNames = new Map<string, string>();

/**
 * Every query the product sends through drizzle (a config object with its SQL text) becomes a
 * named statement: PostgreSQL parses and plans each distinct text once per connection instead of
 * at every request. The texts are few (values travel as parameters), so the cache stays small.
 */
function prepareStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (config: unknown, ...rest: unknown[]) => {
    if (config && typeof config === 'object' && !(config as pg.QueryConfig).name) {
      const text = (config as pg.QueryConfig).text;
      if (typeof text === 'string' && PREPARED.test(text) && !text.includes(';')) {
        let name = statementNames.get(text);
        if (!name) {
          name = `s${createHash('sha1').update(text).digest('base64url').slice(0, 20)}`;
          if (statementNames.size < 5000) statementNames.set(text, name);
        }
        return query({ ...config, name }, ...rest);
      }
    }
    return query(config, ...rest);
  };
}

async function openPool(
  url: string,
  kind: Database['kind'],
  dataDir: string | undefined,
  stopServer: () => Promise<void>,
): Promise<Database> {
  const database = databaseAt(url, kind, dataDir, stopServer);
  try {
    await migrateDatabase(database);
  } catch (err) {
    await database.pool.end();
    throw err;
  }
  return database;
}

/**
 * The database of `url` as the product uses it (its pool, drizzle on it), before anything is sent:
 * no connection is made until the first query, so the server builds what needs it while the
 * database server is still starting. `migrateDatabase` before the first request.
 */
export function databaseAt(url: string, kind: Database['kind'], dataDir: string | undefined, stopServer: () => Promise<void>): Database {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // A connection that the server drops (a restart of the embedded server, a failover) is replaced
  // at the next query; its error event, with nobody listening (an idle client, the socket
  // adapter's LISTEN client), would otherwise stop the process.
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    client.on('error', () => {});
    prepareStatements(client);
  });
  const db = drizzle(pool, { schema });
  return {
    kind,
    db,
    pool,
    url,
    dataDir,
    async close() {
      await pool.end();
      await stopServer();
    },
  };
}

/** Applies the migrations of this version that the database does not have yet. */
export async function migrateDatabase(database: Database): Promise<void> {
  if (!(await migrated(database.pool))) await migrate(database.db, { migrationsFolder });
}
