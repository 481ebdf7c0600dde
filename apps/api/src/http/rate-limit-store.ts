import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type pg from 'pg';

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** One attempt counted: a new window when the last one ended, else one more hit in it. */
const INCREMENT = `insert into rate_limits as r (key, hits, window_ends_at)
  values ($1, 1, now() + $2 * interval '1 millisecond')
  on conflict (key) do update set
    hits = case when r.window_ends_at <= now() then 1 else r.hits + 1 end,
    window_ends_at = case when r.window_ends_at <= now() then excluded.window_ends_at else r.window_ends_at end
  returning hits, greatest(0, ceil(extract(epoch from (window_ends_at - now())) * 1000))::int as ttl`;
const READ = `select hits, greatest(0, ceil(extract(epoch from (window_ends_at - now())) * 1000))::int as ttl
  from rate_limits where key = $1 and window_ends_at > now()`;
const PRUNE = `delete from rate_limits where window_ends_at < now() - interval '1 hour'`;
/** About one call in this many also removes the windows that ended long ago. */
const PRUNE_EVERY = 500;

/**
 * The rate limits' counters in PostgreSQL, so that every process of a cluster counts the same
 * attempts (the plugin's default store counts in each process's memory: two processes behind a
 * proxy would allow twice the limit). One statement per counted request, atomic in the database.
 */
export function postgresRateLimitStore(pool: pg.Pool): FastifyRateLimitStoreCtor {
  class PostgresStore implements FastifyRateLimitStore {
    incr(key: string, callback: Callback, timeWindow: number) {
      pool.query<{ hits: number; ttl: number }>(INCREMENT, [key, timeWindow]).then(
        ({ rows }) => callback(null, { current: rows[0]!.hits, ttl: rows[0]!.ttl }),
        (err: Error) => callback(err),
      );
      if (Math.random() * PRUNE_EVERY < 1) pool.query(PRUNE).catch(() => {});
    }
    read(key: string, callback: Callback) {
      pool.query<{ hits: number; ttl: number }>(READ, [key]).then(
        ({ rows }) => callback(null, { current: rows[0]?.hits ?? 0, ttl: rows[0]?.ttl ?? 0 }),
        (err: Error) => callback(err),
      );
    }
    child() {
      // Keys already name their route (see route-helpers.ts), so every route shares one table.
      return new PostgresStore();
    }
  }
  return PostgresStore;
}
