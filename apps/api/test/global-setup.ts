import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client.ts';
import { embeddedUrl, startEmbeddedServer } from '../src/db/embedded-server.ts';
import { createQueue } from '../src/jobs/queue.ts';

declare module 'vitest' {
  interface ProvidedContext {
    /** The embedded PostgreSQL server of this run, when TEST_DATABASE_URL does not name one. */
    embeddedDatabaseUrl: string;
    /**
     * A database of the run's server with every migration and the job queue's schema applied:
     * each test file's database is a copy of it (CREATE DATABASE … TEMPLATE), made in a fraction
     * of the time the migrations take. The migrations themselves are tested from an empty
     * database by migrations.test.ts.
     */
    templateDatabase: string;
  }
}

/** Makes the template database on the server of `url`; returns its name and how to drop it. */
async function makeTemplate(url: string): Promise<{ name: string; drop: () => Promise<void> }> {
  const name = `sutura_template_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const admin = async <T>(work: (client: pg.Client) => Promise<T>) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = await openDatabase({ url: target.href });
  const queue = await createQueue(database, pino({ level: 'silent' }), undefined, { maintain: false });
  await queue.stop();
  await database.close();
  // Nobody may be connected to a template while it is copied.
  await admin((c) =>
    c.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [name]),
  );
  return { name, drop: () => admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => {}) };
}

/**
 * One embedded PostgreSQL server for the whole run (the harness creates a fresh database on it
 * per test file). Durability is traded for speed: a test database does not outlive the run.
 */
export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE_URL) {
    project.provide('embeddedDatabaseUrl', '');
    const template = await makeTemplate(process.env.TEST_DATABASE_URL);
    project.provide('templateDatabase', template.name);
    return template.drop;
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'sutura-test-db-'));
  const server = await startEmbeddedServer({
    dir: path.join(dir, 'db'),
    log: pino({ level: 'silent' }),
    ephemeral: true,
  });
  project.provide('embeddedDatabaseUrl', embeddedUrl(server.connection));
  project.provide('templateDatabase', (await makeTemplate(embeddedUrl(server.connection))).name);
  return async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  };
}
