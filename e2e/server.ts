import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The servers of the end-to-end suite. Every spec file runs on a server of its own, started from a
 * copy of one data folder made at the start of the run: no spec can see what another one did
 * (people, cases, settings, vocabularies), whatever order the workers run them in.
 */
const root = path.resolve(import.meta.dirname, '..');

/** What every test server runs with; a spec may add its own settings (test.use({ serverEnv })). */
export function serverEnv(port: number, dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'warn',
    DEMO_VIDEOS: 'off',
    // No HLS ladder behind the specs' cases: its encodes would take the processors the browsers
    // need. The streaming spec turns it on for its server (test.use({ serverEnv })).
    STREAMING: 'off',
    RATE_LIMIT_AUTH_PER_MINUTE: '1000',
    // The seeding route of the specs' people (apps/api/src/modules/testing).
    NODE_ENV: 'test',
    TEST_SEEDING: 'on',
    ...extra,
  };
}

/** A port nobody listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface TestServer {
  url: string;
  port: number;
  dataDir: string;
  /** Stops the server (SIGTERM, as an operator does) and removes its data folder unless `keep`. */
  stop(keep?: boolean): Promise<void>;
}

/**
 * Starts `node apps/api/src/main.js` on `dataDir` (a copy of `template` when given) and waits
 * until it answers. Its output goes to `server.log` in the data folder, quoted when it fails to start.
 */
export async function startServer(opts: { template?: string; env?: Record<string, string>; label?: string } = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `sutura-e2e-${opts.label ?? 'server'}-`));
  if (opts.template) {
    // `cp -a` keeps the embedded database's owner and modes (it runs as a system user of its own under root).
    rmSync(dataDir, { recursive: true, force: true });
    const copied = spawnSync('cp', ['-a', opts.template, dataDir]);
    if (copied.status !== 0) throw new Error(`Could not copy the test data folder: ${copied.stderr.toString()}`);
  }
  const port = opts.env?.PORT ? Number(opts.env.PORT) : await freePort();
  const url = `http://127.0.0.1:${port}`;
  const log = createWriteStream(path.join(dataDir, 'server.log'));
  const child: ChildProcess = spawn(process.execPath, ['apps/api/src/main.js'], {
    cwd: root,
    env: { ...process.env, ...serverEnv(port, dataDir, opts.env) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 120_000;
  for (;;) {
    const status = await fetch(`${url}/v1/health`)
      .then((r) => r.status)
      .catch(() => 0);
    if (status === 200) break;
    const ended = await Promise.race([exited, new Promise<'waiting'>((r) => setTimeout(() => r('waiting'), 200))]);
    if (ended !== 'waiting' || Date.now() > deadline) {
      child.kill('SIGKILL');
      const { readFileSync } = await import('node:fs');
      throw new Error(
        `The test server did not start (${dataDir}):\n${readFileSync(path.join(dataDir, 'server.log'), 'utf8').slice(-4000)}`,
      );
    }
  }
  return {
    url,
    port,
    dataDir,
    async stop(keep = false) {
      if (child.exitCode === null && child.signalCode === null) {
        // Stopped as an operator stops it, so that it stops its embedded PostgreSQL server too.
        child.kill('SIGTERM');
        const stopped = await Promise.race([exited.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 15_000))]);
        if (!stopped) child.kill('SIGKILL');
      }
      log.end();
      if (!keep && !process.env.E2E_KEEP_DATA) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
