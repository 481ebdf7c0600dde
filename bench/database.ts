import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { openDatabase, type Database } from '../apps/api/src/db/client.ts';

/**
 * The database of a benchmark that seeds its own rows: a fresh database on the PostgreSQL server
 * of BENCH_DATABASE_URL, else the embedded default (its own server in a temporary folder).
 * `drop` removes it whole.
 */
export async function openBenchDatabase(label: string): Promise<{ database: Database; drop: () => Promise<void> }> {
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) {
    const dir = await mkdtemp(path.join(tmpdir(), `sutura-bench-${label}-`));
    const database = await openDatabase({ dataDir: path.join(dir, 'db') });
    return {
      database,
      drop: async () => {
        await database.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `sutura_bench_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = await openDatabase({ url: target.href });
  return {
    database,
    drop: async () => {
      await database.close();
      // The pool's connections may still be closing; forcing them out would raise an error nobody hears.
      for (let tries = 0; tries < 50; tries++) {
        const { rows } = await admin.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
        if (rows[0].n === 0) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** The median time of `runs` calls of `run`, in milliseconds; `before` (not timed) runs before each. */
export async function medianMs(runs: number, run: () => Promise<unknown>, before?: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    await before?.();
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}
