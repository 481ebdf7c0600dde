import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const MAIN = path.join(ROOT, 'apps/api/src/main.js');
export const NGINX_CONF = path.join(ROOT, 'deploy/nginx/sutura.conf');

export const nginxBinary = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));

/** A port the OS has just given out and taken back (port 0 probing). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function waitUntil<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A fresh database on the server of `serverUrl`, dropped by `drop`. */
export async function createClusterDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `sutura_cluster_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async drop() {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** One Sutura process (`node apps/api/src/main.js`), its output in a log file. */
export interface SuturaProcess {
  name: string;
  env: Record<string, string>;
  child: ChildProcess;
  logFile: string;
  exited: Promise<number | null>;
  log(): Promise<string>;
  /** SIGTERM, then SIGKILL when it has not stopped within `ms`. */
  stop(ms?: number): Promise<void>;
  kill(): Promise<void>;
}

export async function startSutura(name: string, env: Record<string, string>, logDir: string): Promise<SuturaProcess> {
  const tmp = await mkdtemp(path.join(tmpdir(), `sutura-${name}-tmp-`));
  const logFile = path.join(logDir, `${name}-${Date.now()}.log`);
  const out = createWriteStream(logFile);
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', TMPDIR: tmp, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(out, { end: false });
  child.stderr!.pipe(out, { end: false });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const proc: SuturaProcess = {
    name,
    env,
    child,
    logFile,
    exited,
    log: () => readFile(logFile, 'utf8'),
    async stop(ms = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), ms);
      await exited;
      clearTimeout(timer);
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
  return proc;
}

/** Waits for GET /v1/ready to answer 200 on `base`, or for the process to die. */
export async function waitReady(proc: SuturaProcess, base: string, timeoutMs = 90_000): Promise<void> {
  let dead = false;
  void proc.exited.then(() => (dead = true));
  await waitUntil(
    `${proc.name} to be ready`,
    async () => {
      if (dead) throw Object.assign(new Error(`${proc.name} exited:\n${await proc.log()}`), { fatal: true });
      const res = await fetch(`${base}/v1/ready`);
      return res.status === 200 ? true : undefined;
    },
    timeoutMs,
  ).catch(async (err: unknown) => {
    throw new Error(`${(err as Error).message}\n--- ${proc.name} log ---\n${(await proc.log()).slice(-4000)}`);
  });
}

/**
 * nginx in the foreground with its own prefix, temp folders and pid file, serving the
 * configuration of docs/production.md (deploy/nginx/sutura.conf) with the upstreams and the listen address replaced.
 */
export async function startNginx(opts: {
  port: number;
  upstreams: number[];
  dir: string;
}): Promise<{ stop(): Promise<void>; log(): Promise<string> }> {
  if (!nginxBinary) throw new Error('nginx is not installed');
  const prefix = opts.dir;
  for (const sub of ['logs', 'client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) await mkdir(path.join(prefix, sub), { recursive: true });
  const site = (await readFile(NGINX_CONF, 'utf8'))
    .replace(/^(\s*)server 127\.0\.0\.1:3001 (.*)$/gm, (_m, indent: string, rest: string) =>
      opts.upstreams.map((p) => `${indent}server 127.0.0.1:${p} ${rest}`).join('\n'),
    )
    .replace(/^\s*server 127\.0\.0\.1:3002 .*\n/gm, '')
    .replace(/^\s*listen \[::\]:80;\n/m, '')
    .replace(/^(\s*)listen 80;$/m, `$1listen 127.0.0.1:${opts.port};`);
  if (!site.includes(`listen 127.0.0.1:${opts.port};`)) throw new Error('the nginx configuration has no "listen 80;" line to replace');
  await writeFile(path.join(prefix, 'sutura.conf'), site);
  const conf = [
    process.getuid?.() === 0 ? 'user root;' : '',
    'daemon off;',
    'worker_processes 1;',
    `pid ${path.join(prefix, 'nginx.pid')};`,
    `error_log ${path.join(prefix, 'logs/error.log')} warn;`,
    'events { worker_connections 1024; }',
    'http {',
    `  access_log ${path.join(prefix, 'logs/access.log')};`,
    `  client_body_temp_path ${path.join(prefix, 'client_body')};`,
    `  proxy_temp_path ${path.join(prefix, 'proxy')};`,
    `  fastcgi_temp_path ${path.join(prefix, 'fastcgi')};`,
    `  uwsgi_temp_path ${path.join(prefix, 'uwsgi')};`,
    `  scgi_temp_path ${path.join(prefix, 'scgi')};`,
    `  include ${path.join(prefix, 'sutura.conf')};`,
    '}',
  ].join('\n');
  const confFile = path.join(prefix, 'nginx.conf');
  await writeFile(confFile, conf);
  const test = spawnSync(nginxBinary, ['-t', '-p', prefix, '-c', confFile], { encoding: 'utf8' });
  if (test.status !== 0) throw new Error(`nginx -t refused the configuration:\n${test.stderr}`);
  const child = spawn(nginxBinary, ['-p', prefix, '-c', confFile], { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await waitUntil('nginx to listen', async () => {
    await fetch(`http://127.0.0.1:${opts.port}/v1/health`);
    return true;
  });
  return {
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGQUIT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
    log: () => readFile(path.join(prefix, 'logs/error.log'), 'utf8').catch(() => ''),
  };
}

/** The PostgreSQL server binaries of the machine (Debian's postgresql package), newest first. */
export const postgresBin = (() => {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = spawnSync('ls', [root], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  const bin = versions.map((v) => path.join(root, v, 'bin')).find((b) => existsSync(path.join(b, 'pg_ctl')));
  return bin;
})();

/**
 * A throwaway PostgreSQL server on a TCP port of its own (never the machine's shared one), that
 * a test may stop and start again. As root it runs as the `postgres` system user.
 */
export async function startThrowawayPostgres(
  dir: string,
): Promise<{ url: string; stop(): Promise<void>; start(): Promise<void>; destroy(): Promise<void> }> {
  if (!postgresBin) throw new Error('PostgreSQL server binaries not found');
  const port = await freePort();
  const data = path.join(dir, 'pgdata');
  await mkdir(data, { recursive: true });
  const asRoot = process.getuid?.() === 0;
  const run = (args: string[]) => {
    const [cmd, ...rest] = asRoot ? ['runuser', '-u', 'postgres', '--', ...args] : args;
    const r = spawnSync(cmd!, rest, { encoding: 'utf8', timeout: 60_000 });
    if (r.status !== 0) throw new Error(`${args.join(' ')}: ${r.stderr || r.stdout}`);
  };
  if (asRoot) spawnSync('chown', ['-R', 'postgres:postgres', dir]);
  // The server's user passes through the folder above (a private temporary folder) to reach its own.
  spawnSync('chmod', ['o+x', path.dirname(dir)]);
  spawnSync('chmod', ['755', dir]);
  run([path.join(postgresBin, 'initdb'), '-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const pgCtl = (action: string[]) =>
    run([
      path.join(postgresBin, 'pg_ctl'),
      '-D',
      data,
      '-w',
      '-t',
      '30',
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      ...action,
    ]);
  pgCtl(['-l', path.join(dir, 'postgres.log'), 'start']);
  let running = true;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      pgCtl(['-m', 'fast', 'stop']);
      running = false;
    },
    async start() {
      pgCtl(['-l', path.join(dir, 'postgres.log'), 'start']);
      running = true;
    },
    async destroy() {
      if (running) pgCtl(['-m', 'immediate', 'stop']);
      running = false;
    },
  };
}
