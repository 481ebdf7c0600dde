import { timingSafeEqual } from 'node:crypto';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type pg from 'pg';

/** What the rest of the server records; the same whether anything can read it or not. */
export interface Metrics {
  requestDuration: { observe(labels: { method: string; route: string; status: string }, seconds: number): void };
  jobDuration: { startTimer(labels: { kind: string }): (labels: { outcome: 'completed' | 'failed' }) => void };
  uploadBytes: { inc(bytes: number): void };
  /** The realtime server tells how many sockets it holds. */
  countSocketsWith(count: () => number): void;
  /** The text format Prometheus scrapes. */
  render(): Promise<{ contentType: string; body: string }>;
}

/**
 * The process's metrics. With neither METRICS_TOKEN nor METRICS_PORT nothing can ever read them:
 * the instruments record nothing and prom-client (with its OpenTelemetry and digest modules,
 * 4 MB of the idle process) is never loaded. Otherwise the Prometheus instruments below.
 */
export function createMetrics(opts: { pool?: pg.Pool; defaults?: boolean; enabled?: boolean } = {}): Metrics {
  if (opts.enabled === false) return silentMetrics;
  return prometheusMetrics(opts);
}

const silentMetrics: Metrics = {
  requestDuration: { observe() {} },
  jobDuration: { startTimer: () => () => {} },
  uploadBytes: { inc() {} },
  countSocketsWith() {},
  render: async () => ({ contentType: 'text/plain; version=0.0.4; charset=utf-8', body: '' }),
};

/**
 * The Prometheus instruments: one registry per process (tests build several apps in one process,
 * each with its own). Every process of a cluster exposes its own figures; Prometheus adds them up
 * by its `instance` label. prom-client is a CommonJS package, loaded here when first needed.
 */
function prometheusMetrics(opts: { pool?: pg.Pool; defaults?: boolean }): Metrics {
  const { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } = createRequire(import.meta.url)(
    'prom-client',
  ) as typeof import('prom-client');
  const registry = new Registry();
  if (opts.defaults !== false) collectDefaultMetrics({ register: registry, prefix: 'sutura_process_' });
  const requestDuration = new Histogram({
    name: 'sutura_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern (not by URL, so ids do not multiply the series)',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const jobDuration = new Histogram({
    name: 'sutura_job_duration_seconds',
    help: 'Time a job ran on this process, by kind and outcome (completed, failed)',
    labelNames: ['kind', 'outcome'] as const,
    buckets: [0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600, 4 * 3600],
    registers: [registry],
  });
  const uploadBytes = new Counter({
    name: 'sutura_upload_bytes_total',
    help: 'Bytes of video received through resumable uploads by this process',
    registers: [registry],
  });
  let socketCount: () => number = () => 0;
  new Gauge({
    name: 'sutura_realtime_sockets',
    help: 'Realtime sockets connected to this process',
    registers: [registry],
    collect() {
      this.set(socketCount());
    },
  });
  const pool = opts.pool;
  // Read at each scrape from the queue's table: the same figures on every process of a cluster.
  new Gauge({
    name: 'sutura_queue_jobs',
    help: 'Jobs waiting (created, retry) or running (active), by kind',
    labelNames: ['kind', 'state'] as const,
    registers: [registry],
    async collect() {
      if (!pool) return;
      this.reset();
      const { rows } = await pool.query<{ name: string; state: string; n: number }>(
        `select name, state::text as state, count(*)::int as n from pgboss.job
          where state in ('created', 'retry', 'active') group by name, state`,
      );
      for (const r of rows) this.set({ kind: r.name, state: r.state }, r.n);
    },
  });
  // What the storage holds, from the accounting table (docs/data-lifecycle.md), never a bucket listing.
  new Gauge({
    name: 'sutura_storage_bytes',
    help: 'Bytes held in the media store, by kind (sources, rendered, renditions, pictures, voice, avatars, uploads, other)',
    labelNames: ['kind'] as const,
    registers: [registry],
    async collect() {
      if (!pool) return;
      this.reset();
      const { rows } = await pool.query<{ kind: string; bytes: string }>(
        'select kind, sum(size)::text as bytes from storage_objects group by kind',
      );
      for (const r of rows) this.set({ kind: r.kind }, Number(r.bytes));
    },
  });
  new Gauge({
    name: 'sutura_storage_objects',
    help: 'Objects held in the media store, by kind',
    labelNames: ['kind'] as const,
    registers: [registry],
    async collect() {
      if (!pool) return;
      this.reset();
      const { rows } = await pool.query<{ kind: string; n: number }>('select kind, count(*)::int as n from storage_objects group by kind');
      for (const r of rows) this.set({ kind: r.kind }, r.n);
    },
  });
  return {
    requestDuration,
    jobDuration,
    uploadBytes,
    countSocketsWith(count: () => number) {
      socketCount = count;
    },
    async render(): Promise<{ contentType: string; body: string }> {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

/** Whether an Authorization header carries the metrics token (compared in constant time). */
export function metricsTokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer\s+(.+)$/i.exec(header ?? '')?.[1]?.trim() ?? '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * `/metrics` on its own listener (METRICS_PORT, on METRICS_HOST: the loopback unless told),
 * for a scraper on an internal network and for worker processes, which have no HTTP server.
 */
export async function listenMetrics(metrics: Metrics, port: number, host: string): Promise<Server> {
  // As push-endpoint.ts does: no ES import of node:http, whose namespace loads undici.
  const server = process.getBuiltinModule('node:http').createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    metrics.render().then(
      ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType }).end(body),
      () => res.writeHead(503).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
