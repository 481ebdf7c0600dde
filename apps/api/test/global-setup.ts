import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { TestProject } from 'vitest/node';
import { embeddedUrl, startEmbeddedServer } from '../src/db/embedded-server.ts';

declare module 'vitest' {
  interface ProvidedContext {
    /** The embedded PostgreSQL server of this run, when TEST_DATABASE_URL does not name one. */
    embeddedDatabaseUrl: string;
  }
}

/**
 * One embedded PostgreSQL server for the whole run (the harness creates a fresh database on it
 * per test file). Durability is traded for speed: a test database does not outlive the run.
 */
export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE_URL) {
    project.provide('embeddedDatabaseUrl', '');
    return;
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'sutura-test-db-'));
  const server = await startEmbeddedServer({
    dir: path.join(dir, 'db'),
    log: pino({ level: 'silent' }),
    ephemeral: true,
  });
  project.provide('embeddedDatabaseUrl', embeddedUrl(server.connection));
  return async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  };
}
