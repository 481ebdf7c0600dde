import { spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, readFileSync, statSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import pino from 'pino';
import { DEFAULT_NOTIFICATION_SETTINGS, DEFAULT_PREFERENCES } from '@sutura/domain/preferences';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.ts';
import { DATABASE_SYSTEM_USER, embeddedUrl, startEmbeddedServer, type EmbeddedServer } from '../src/db/embedded-server.ts';
import { users } from '../src/db/schema.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const serverModule = path.join(repoRoot, 'apps/api/src/db/embedded-server.ts');
const log = pino({ level: 'silent' });
const isRoot = process.getuid?.() === 0;
const folders: string[] = [];
const person = (email: string) => ({
  email,
  passwordHash: 'x',
  roles: ['learner' as const],
  firstName: 'A',
  lastName: 'B',
  preferences: DEFAULT_PREFERENCES,
  notificationSettings: DEFAULT_NOTIFICATION_SETTINGS,
});

async function freshFolder(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'sutura-engine-'));
  folders.push(dir);
  return dir;
}

afterAll(async () => {
  for (const dir of folders) await rm(dir, { recursive: true, force: true });
});

async function count(server: EmbeddedServer, sql: string): Promise<number> {
  const client = new pg.Client(embeddedUrl(server.connection));
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(sql);
    return rows[0]!.n;
  } finally {
    await client.end();
  }
}

/** Runs a script in a separate Node process that starts the embedded server on `dir`. */
function startInChild(dir: string, opts: { uid?: number; gid?: number; then: string }) {
  const script = `
    import pino from 'pino';
    import pg from 'pg';
    import { startEmbeddedServer, embeddedUrl } from ${JSON.stringify(serverModule)};
    const server = await startEmbeddedServer({ dir: ${JSON.stringify(dir)}, log: pino({ level: 'silent' }), ephemeral: true });
    const client = new pg.Client(embeddedUrl(server.connection));
    await client.connect();
    const { rows } = await client.query('SELECT current_user AS who, (SELECT setting FROM pg_settings WHERE name = $1) AS autovacuum', ['autovacuum']);
    await client.end();
    process.stdout.write(JSON.stringify(rows[0]) + '\\n');
    ${opts.then}
  `;
  return spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(opts.uid !== undefined ? { uid: opts.uid, gid: opts.gid! } : {}),
  });
}

/** Whether a process runs (a zombie, dead but not yet reaped by its parent, does not). */
function isRunning(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

function firstLine(child: ReturnType<typeof spawn>): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    child.on('exit', (code) => reject(new Error(`child exited (${code}) before answering: ${err}`)));
  });
}

describe('the embedded PostgreSQL server', () => {
  // One data folder through the tests that need an existing one: creating a folder costs seconds
  // of CPU (initdb), and each test starts where the previous one stopped the server.
  let dataDir = '';
  let dir = '';

  it('creates its database on a fresh folder, with autovacuum, and finds its rows again at the next start', async () => {
    dataDir = await freshFolder();
    dir = path.join(dataDir, 'db');
    let database = await openDatabase({ dataDir: dir, log });
    expect(database.kind).toBe('embedded');
    const { rows } = await database.pool.query<{ setting: string }>("SELECT setting FROM pg_settings WHERE name = 'autovacuum'");
    expect(rows[0]!.setting).toBe('on');
    // Under root, PostgreSQL (which refuses root) runs as the system user that owns its folder.
    const owner = statSync(dir).uid;
    if (isRoot) expect(owner).toBe(Number(spawnSync('id', ['-u', DATABASE_SYSTEM_USER], { encoding: 'utf8' }).stdout));
    else expect(owner).toBe(process.getuid!());
    await database.db.insert(users).values(person('kept@example.org'));
    await database.close();
    expect(existsSync(path.join(dir, 'postmaster.pid'))).toBe(false);

    database = await openDatabase({ dataDir: dir, log });
    const found = await database.db.select().from(users).where(eq(users.email, 'kept@example.org'));
    expect(found).toHaveLength(1);
    await database.close();
  });

  it('starts as an ordinary user too', async () => {
    const parent = await freshFolder();
    if (isRoot) {
      // The same code in a process of an unprivileged user (nobody), on a folder that user owns.
      chownSync(parent, 65534, 65534);
      const child = startInChild(path.join(parent, 'db'), { uid: 65534, gid: 65534, then: 'await server.stop();' });
      const answer = JSON.parse(await firstLine(child)) as { who: string; autovacuum: string };
      expect(answer).toEqual({ who: 'postgres', autovacuum: 'on' });
      expect(statSync(path.join(parent, 'db')).uid).toBe(65534);
    } else {
      const server = await startEmbeddedServer({ dir: path.join(parent, 'db'), log, ephemeral: true });
      expect(await count(server, 'SELECT 1 AS n')).toBe(1);
      await server.stop();
    }
  });

  it('comes back when its postgres process is killed', async () => {
    const fatal: Error[] = [];
    const server = await startEmbeddedServer({ dir, log, ephemeral: true, onFatal: (err) => fatal.push(err) });
    const pid = Number(readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    process.kill(pid, 'SIGKILL');
    const deadline = Date.now() + 20_000;
    for (;;) {
      const n = await count(server, 'SELECT 1 AS n').catch(() => 0);
      if (n === 1) break;
      if (Date.now() > deadline) throw new Error('the embedded database did not come back');
      await new Promise((r) => setTimeout(r, 100));
    }
    const newPid = Number(readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    expect(newPid).not.toBe(pid);
    expect(fatal).toEqual([]);
    await server.stop();
  });

  // Where setpriv is (util-linux: nearly every Linux), postgres dies with the Sutura process that
  // started it, as root (postgres runs as the system user) and as an ordinary user alike.
  it.runIf(existsSync('/usr/bin/setpriv') || existsSync('/bin/setpriv'))(
    'stops its postgres within seconds when the Sutura process is killed with SIGKILL, and the next start works',
    async () => {
      const parent = await freshFolder();
      const runs: { uid?: number; gid?: number }[] = isRoot ? [{}, { uid: 65534, gid: 65534 }] : [{}];
      for (const [index, user] of runs.entries()) {
        const folder = path.join(parent, `db-${index}`);
        if (user.uid !== undefined) chownSync(parent, user.uid, user.gid!);
        const child = startInChild(folder, { ...user, then: 'setInterval(() => {}, 1000);' });
        await firstLine(child);
        const postgres = Number(readFileSync(path.join(folder, 'postmaster.pid'), 'utf8').split('\n')[0]);
        expect(isRunning(postgres)).toBe(true);
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGKILL');
        await exited;
        const deadline = Date.now() + 10_000;
        while (isRunning(postgres)) {
          if (Date.now() > deadline) throw new Error(`postgres (pid ${postgres}) still runs 10 s after its Sutura process was killed`);
          await new Promise((r) => setTimeout(r, 100));
        }
        // It stopped in order: the next start finds no server to stop and its rows intact.
        expect(existsSync(path.join(folder, 'postmaster.pid'))).toBe(false);
        const again = startInChild(folder, { ...user, then: 'await server.stop();' });
        expect(JSON.parse(await firstLine(again))).toMatchObject({ who: 'postgres' });
        await new Promise((r) => again.once('exit', r));
      }
    },
  );

  it('starts after the Sutura process that ran it was killed, and refuses a second process meanwhile', async () => {
    // The child keeps its server running until it is killed without a chance to stop it.
    const child = startInChild(dir, { then: 'setInterval(() => {}, 1000);' });
    await firstLine(child);
    await expect(startEmbeddedServer({ dir, log })).rejects.toThrow(/Another Sutura process \(pid \d+\) is using the embedded database/);
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;

    const server = await startEmbeddedServer({ dir, log, ephemeral: true });
    expect(await count(server, 'SELECT 1 AS n')).toBe(1);
    await server.stop();
  });

  it('npm run backup copies the running database and the media files; the copy starts in a fresh folder', async () => {
    const server = await startEmbeddedServer({ dir, log, ephemeral: true });
    const database = await openDatabase({ url: embeddedUrl(server.connection) });
    await database.db.insert(users).values(person('saved@example.org'));
    await mkdir(path.join(dataDir, 'media/videos'), { recursive: true });
    await writeFile(path.join(dataDir, 'media/videos/one.mp4'), 'video bytes');

    // The command runs while the server runs, as `npm run backup` beside `npm start` does.
    const target = path.join(dataDir, 'backups/first');
    const run = spawnSync(process.execPath, ['apps/api/src/cli/backup.ts', target], {
      cwd: repoRoot,
      encoding: 'utf8',
      env: { ...process.env, DATA_DIR: dataDir },
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain(`Backup written to ${target}`);
    // Written after the backup: not in it.
    await database.db.insert(users).values(person('later@example.org'));
    await database.close();
    await server.stop();

    // Restore as docs/embedded-database.md says: the backup's folders become a new DATA_DIR.
    const restored = await freshFolder();
    await cp(target, restored, { recursive: true });
    const back = await openDatabase({ dataDir: path.join(restored, 'db'), log });
    const emails = (await back.db.select({ email: users.email }).from(users)).map((u) => u.email);
    expect(emails.sort()).toEqual(['kept@example.org', 'saved@example.org']);
    await back.close();
    expect(await readFile(path.join(restored, 'media/videos/one.mp4'), 'utf8')).toBe('video bytes');
    expect(await readFile(path.join(restored, 'jwt-secret'), 'utf8')).toBe(await readFile(path.join(dataDir, 'jwt-secret'), 'utf8'));
  });
});

describe('the Node.js version check', () => {
  const { checkNode } = createRequire(import.meta.url)(path.join(repoRoot, 'scripts/check-node.cjs')) as {
    checkNode: (version: string) => string | null;
  };

  it('lets through the versions that run Sutura and names the needed one to the others', () => {
    for (const ok of ['v22.18.0', 'v22.21.1', 'v23.6.0', 'v24.0.0', 'v26.1.0']) expect(checkNode(ok)).toBeNull();
    for (const old of ['v20.20.2', 'v22.12.0', 'v22.17.9', 'v23.5.0', 'v18.19.0', 'v16.0.0']) {
      const line = checkNode(old)!;
      expect(line).toContain(`this is ${old}`);
      expect(line).toMatch(/^Sutura needs Node\.js 22\.18 or newer .*install Node\.js 24 LTS from https:\/\/nodejs\.org/);
      expect(line).not.toContain('\n');
    }
  });

  it('is what npm start runs first, and an old Node prints that one line and stops', () => {
    const scripts = (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.start).toMatch(/^node scripts\/check-node\.cjs && /);
    expect(readFileSync(path.join(repoRoot, '.npmrc'), 'utf8')).toMatch(/^engine-strict=true$/m);
    // The machine's distribution Node, when it is an old one (Node 20 here), runs the script for real.
    const machineNode = ['/usr/bin/node', process.execPath].find(
      (bin) => existsSync(bin) && checkNode(spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout.trim()) !== null,
    );
    const node = machineNode ?? process.execPath;
    const run = spawnSync(node, machineNode ? ['scripts/check-node.cjs'] : ['-e', `require('./scripts/check-node.cjs')`], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    if (machineNode) {
      expect(run.status).toBe(1);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(/^Sutura needs Node\.js 22\.18 or newer \(this is v\d+/);
    } else {
      expect(run.status).toBe(0);
    }
    expect(run.stdout).toBe('');
  });

  // With the machine's old Node (Node 20 here) and the npm on the machine, as someone would type them.
  const oldNode = ['/usr/bin/node', '/usr/local/bin/node'].find(
    (bin) => existsSync(bin) && checkNode(spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout.trim()) !== null,
  );
  const npmCli = ['/usr/lib/node_modules/npm/bin/npm-cli.js', '/usr/local/lib/node_modules/npm/bin/npm-cli.js'].find((f) => existsSync(f));

  it.runIf(oldNode && npmCli)('npm start and npm install on an old Node stop at once, naming the version needed', async () => {
    // A copy of the project's manifests: npm must not touch this checkout's node_modules.
    const copy = await freshFolder();
    for (const file of [
      'package.json',
      'package-lock.json',
      '.npmrc',
      'scripts/check-node.cjs',
      ...['packages/domain', 'apps/api', 'apps/web'].map((w) => `${w}/package.json`),
    ]) {
      await mkdir(path.dirname(path.join(copy, file)), { recursive: true });
      await cp(path.join(repoRoot, file), path.join(copy, file));
    }
    const bin = await freshFolder();
    await symlink(oldNode!, path.join(bin, 'node'));
    const env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, npm_config_update_notifier: 'false' };
    const npm = (...args: string[]) => spawnSync(oldNode!, [npmCli!, ...args], { cwd: copy, env, encoding: 'utf8', timeout: 120_000 });
    const npmLines = (text: string) => text.split('\n').filter((line) => line && !/^npm warn /.test(line));

    const start = npm('start');
    expect(start.status).toBe(1);
    // npm's banner of the script on stdout, then ours alone on stderr.
    expect(npmLines(start.stderr)).toEqual([expect.stringMatching(/^Sutura needs Node\.js 22\.18 or newer \(this is v\d+/)]);

    const install = npm('install', '--offline', '--no-audit', '--no-fund');
    expect(install.status).toBe(1);
    expect(install.stderr).toMatch(/npm error code EBADENGINE/);
    // Its Required line is the product's engines entry: the version needed and where to get it.
    expect(install.stderr).toMatch(
      /Required: \{"node":">=22\.18","help":"Sutura needs Node\.js 22\.18 or newer: install Node\.js 24 LTS from https:\/\/nodejs\.org/,
    );
    expect(existsSync(path.join(copy, 'node_modules'))).toBe(false);
  });
});
