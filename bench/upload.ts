/**
 * How fast a video reaches the server, against what the machine can do, and at what memory cost.
 * Usage: node bench/upload.ts [GiB] [--s3]   (default 4 GiB on the local disk, 0.5 GiB with --s3;
 *                                            BENCH_UPLOAD_GIB sets the size too, e.g. 2 for the S3 target)
 *
 * In one run, with one file of random-ish bytes in a temporary folder:
 *   (a) `cp` of the file: the disk's ceiling;
 *   (b) a plain HTTP PUT to a tiny Node server (its own process) that pipes the body into a
 *       file: the ceiling of any HTTP upload on this machine;
 *   (c) a tus upload through the real Sutura server (apps/api/src/main.js in a child process,
 *       as `npm start` runs it, temporary DATA_DIR, WORKERS=off, DEMO_VIDEOS=off), as the demo
 *       learner, one PATCH streaming the whole file (continued from the server's offset if the
 *       connection drops), while the server's RSS is sampled every 100 ms: first on the
 *       embedded PostgreSQL server, then on the PostgreSQL server of BENCH_DATABASE_URL
 *       (default postgres://postgres@127.0.0.1:5432/bench, created if missing; set it empty to
 *       skip).
 * The last line sums it up: `upload: ratio R of plain PUT (C of cp), server RSS I MB idle, N MB peak; load L`. It is for
 * the PostgreSQL-server configuration when a server answers (hospitals that receive videos of
 * several GB run on one); the embedded database is a PostgreSQL process of its own too, so the
 * sampled RSS is the application's in both. Without a server, the last line is for the embedded one.
 *
 * With `--s3` (npm run bench:upload -- 2 --s3), the media store is an S3-compatible server
 * (s3rver, in a process of its own, objects in the temporary folder), and the baseline is the
 * AWS SDK's own multipart upload of the same file to the same server (@aws-sdk/lib-storage,
 * 16 MiB parts, 4 at a time, from this process); Sutura runs with S3_* set and the embedded
 * database. The last line: `upload (S3, G GiB): ratio R of the AWS SDK's multipart upload, server RSS I MB idle,
 * N MB peak; load L`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';

const GIB = 1024 ** 3;
const MIB = 1024 ** 2;
const args = process.argv.slice(2);
const onS3 = args.includes('--s3');
// s3rver writes at a few tens of MB/s: its default run stays short; the 2 GiB run is asked for.
const size = Math.round(Number(args.find((a) => !a.startsWith('--')) ?? process.env.BENCH_UPLOAD_GIB ?? (onS3 ? 0.5 : 4)) * GIB);
const root = path.resolve(import.meta.dirname, '..');
const DEMO_LEARNER = { email: 'learner@sutura.local', password: 'sutura2026' };
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench';

const mbps = (bytes: number, ms: number) => bytes / MIB / (ms / 1000);
const say = (line: string) => process.stdout.write(`${line}\n`);
/** The 1-minute load average: the machine is shared, so each figure says what it ran under. */
const load = () => loadavg()[0]!.toFixed(1);

/** The file to upload: a 64 MiB random buffer written over and over, streamed to disk. */
async function makeFile(file: string, bytes: number): Promise<void> {
  const { randomBytes } = await import('node:crypto');
  const block = randomBytes(64 * MIB);
  const out = createWriteStream(file);
  for (let written = 0; written < bytes;) {
    const chunk = block.subarray(0, Math.min(block.length, bytes - written));
    written += chunk.length;
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

async function timed(run: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

function waitExit(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : once(child, 'exit').then(() => undefined);
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

/** Streams a file as the body of one request; answers the status and the response body. */
function send(
  url: string,
  method: string,
  headers: Record<string, string | number>,
  body?: { file: string; start?: number },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (!body) req.end();
    else pipeline(createReadStream(body.file, { start: body.start ?? 0, highWaterMark: MIB }), req).catch(reject);
  });
}

async function json(url: string, opts: { method?: string; token?: string; body?: unknown } = {}): Promise<any> {
  const res = await fetch(url, {
    method: opts.method ?? 'GET',
    headers: {
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
  });
  const payload = (await res.json()) as { success: boolean; data?: unknown; error?: unknown };
  if (!res.ok || !payload.success) throw new Error(`${opts.method ?? 'GET'} ${url}: ${res.status} ${JSON.stringify(payload.error)}`);
  return payload.data;
}

/** (b): a Node server in its own process that writes the request body to a file. */
async function plainPut(file: string, target: string): Promise<number> {
  const code = `
    const http = require('node:http'); const fs = require('node:fs');
    const server = http.createServer((req, res) => {
      const out = fs.createWriteStream(process.argv[1]);
      req.pipe(out);
      out.on('finish', () => res.end('ok'));
    });
    server.listen(0, '127.0.0.1', () => console.log(server.address().port));`;
  const child = spawn(process.execPath, ['-e', code, target], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const [line] = (await once(child.stdout!, 'data')) as [Buffer];
    const port = Number(line.toString().trim());
    return await timed(async () => {
      const res = await send(
        `http://127.0.0.1:${port}/`,
        'PUT',
        { 'content-length': size, 'content-type': 'application/octet-stream' },
        { file },
      );
      if (res.status !== 200) throw new Error(`plain PUT answered ${res.status}`);
    });
  } finally {
    child.kill();
    await waitExit(child);
  }
}

/** Whether the PostgreSQL server answers, the database created when it is missing. */
async function postgresReady(url: string): Promise<boolean> {
  const connect = async (target: string) => {
    const client = new pg.Client({ connectionString: target, connectionTimeoutMillis: 3000 });
    await client.connect();
    return client;
  };
  try {
    await (await connect(url)).end();
    return true;
  } catch (err) {
    if ((err as { code?: string }).code !== '3D000') return false;
  }
  const admin = new URL(url);
  const name = decodeURIComponent(admin.pathname.slice(1));
  admin.pathname = '/postgres';
  const client = await connect(admin.href);
  try {
    await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
  return true;
}

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** (c): the real server, the demo learner, a video case, one tus upload. */
async function tusUpload(
  file: string,
  work: string,
  databaseUrl: string,
  extraEnv: Record<string, string> = {},
): Promise<{ ms: number; peakRss: number; idleRss: number; resumes: number }> {
  const dataDir = path.join(work, databaseUrl ? 'data-postgres' : extraEnv.S3_BUCKET ? 'data-s3' : 'data-embedded');
  await mkdir(dataDir);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [path.join(root, 'apps/api/src/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      WORKERS: 'off',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATABASE_URL: databaseUrl,
      DEMO_DATA: 'on',
      // The demo videos would be generated (ffmpeg, images) in the background while the bench runs.
      DEMO_VIDEOS: 'off',
      ...extraEnv,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    const deadline = Date.now() + 180_000;
    for (;;) {
      if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
      const up = await fetch(`${base}/v1/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (Date.now() > deadline) throw new Error('the server did not start within 3 minutes');
      await new Promise((r) => setTimeout(r, 250));
    }
    const { token } = await json(`${base}/v1/auth`, { method: 'POST', body: DEMO_LEARNER });
    const surgeries: { id: string; organId: string | null; steps: { id: string }[] }[] = await json(`${base}/v1/vocabularies/surgeries`);
    const organs: { id: string }[] = await json(`${base}/v1/vocabularies/organs`);
    const surgery = surgeries.find((s) => s.organId) ?? surgeries[0]!;
    const video = await json(`${base}/v1/videos`, {
      method: 'POST',
      token,
      body: {
        kind: 'video',
        surgeryId: surgery.id,
        organId: surgery.organId ?? organs[0]!.id,
        keyStepIds: surgery.steps.slice(0, 2).map((s) => s.id),
        equipmentBrand: 'Benchmark',
        equipmentUsed: 'Upload benchmark',
        ageRange: '45_59',
        patientSex: 'woman',
        bmi: 'under_30',
        complication: false,
        radiationHistory: false,
        medicalBackground: [],
        mainHand: 'right',
        surgeryDuration: 120,
        messageToProctor: 'Upload benchmark',
        nasaTlx: { mentalDemand: 50, physicalDemand: 40, temporalDemand: 30, performance: 60, effort: 50, frustration: 20 },
      },
    });

    const b64 = (v: string) => Buffer.from(v).toString('base64');
    const tus = { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0' };
    const created = await send(`${base}/v1/uploads/`, 'POST', {
      ...tus,
      'upload-length': size,
      'upload-metadata': `videoId ${b64(video.id)},filetype ${b64('video/mp4')}`,
      'content-length': 0,
    });
    if (created.status !== 201 || !created.headers.location) throw new Error(`tus creation answered ${created.status}: ${created.text}`);
    const uploadUrl = new URL(created.headers.location, base).href;

    const idleRss = await rssMb(server.pid!);
    let peakRss = idleRss;
    const sampler = setInterval(() => {
      void rssMb(server.pid!).then((mb) => {
        peakRss = Math.max(peakRss, mb);
      });
    }, 100);
    let resumes = 0;
    let ms: number;
    try {
      ms = await timed(async () => {
        let offset = 0;
        while (offset < size) {
          const res = await send(
            uploadUrl,
            'PATCH',
            { ...tus, 'upload-offset': offset, 'content-type': 'application/offset+octet-stream', 'content-length': size - offset },
            { file, start: offset },
          ).catch((err: Error) => ({ status: 0, headers: {} as http.IncomingHttpHeaders, text: err.message }));
          if (res.status === 204) {
            offset = Number(res.headers['upload-offset']);
            continue;
          }
          // Dropped (a timeout, a reset): ask where the server is, as a tus client does.
          const head = await send(uploadUrl, 'HEAD', tus);
          const at = Number(head.headers['upload-offset']);
          if (head.status !== 200 || !(at > offset)) throw new Error(`tus PATCH failed (${res.status} ${res.text}) at ${offset}`);
          resumes++;
          offset = at;
        }
      });
    } finally {
      clearInterval(sampler);
    }
    peakRss = Math.max(peakRss, await rssMb(server.pid!));

    // What the server holds, whatever its store (a file in DATA_DIR/uploads, an S3 object).
    const held = Number((await send(uploadUrl, 'HEAD', tus)).headers['upload-offset']);
    if (held !== size) throw new Error(`the server holds ${held} bytes of ${size}`);
    const detail = await json(`${base}/v1/videos/${video.id}`, { token });
    if (detail.mediaStatus !== 'processing') throw new Error(`the video is ${detail.mediaStatus} after the upload`);
    return { ms, peakRss, idleRss, resumes };
  } finally {
    server.kill('SIGTERM');
    const killer = setTimeout(() => server.kill('SIGKILL'), 10_000);
    await waitExit(server);
    clearTimeout(killer);
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** s3rver in a process of its own, its objects in `dir`; answers its endpoint. */
async function startS3rver(dir: string, bucket: string): Promise<{ endpoint: string; stop: () => Promise<void> }> {
  const code = `
    const S3rver = require('s3rver');
    new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: process.argv[1], configureBuckets: [{ name: process.argv[2] }] })
      .run().then((a) => process.stdout.write(a.port + '\\n'));
  `;
  const child = spawn(process.execPath, ['-e', code, dir, bucket], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  return {
    endpoint: `http://127.0.0.1:${line.toString().trim()}`,
    stop: async () => {
      child.kill();
      await waitExit(child);
    },
  };
}

/** The AWS SDK's own multipart upload of the file (the baseline of the S3 configuration). */
async function sdkUpload(file: string, endpoint: string, bucket: string): Promise<number> {
  const { S3Client } = await import('@aws-sdk/client-s3');
  const { Upload } = await import('@aws-sdk/lib-storage');
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const ms = await timed(async () => {
    await new Upload({
      client,
      params: { Bucket: bucket, Key: 'baseline.bin', Body: createReadStream(file) },
      partSize: 16 * MIB,
      queueSize: 4,
    }).done();
  });
  client.destroy();
  return ms;
}

const work = await mkdtemp(path.join(tmpdir(), 'sutura-bench-upload-'));
// As root, the embedded PostgreSQL runs as its own system user, which must pass through here.
await chmod(work, 0o711);
try {
  const source = path.join(work, 'source.bin');
  say(`Writing ${(size / GIB).toFixed(2)} GiB of test data to ${work} ...`);
  const makeMs = await timed(() => makeFile(source, size));
  say(`  written in ${(makeMs / 1000).toFixed(1)} s`);

  if (onS3) {
    const bucket = 'sutura-bench';
    const objects = path.join(work, 's3');
    await mkdir(objects);
    const s3 = await startS3rver(objects, bucket);
    try {
      const sdkMs = await sdkUpload(source, s3.endpoint, bucket);
      say(
        `(d) AWS SDK multipart to s3rver: ${mbps(size, sdkMs).toFixed(0).padStart(6)} MB/s  (${(sdkMs / 1000).toFixed(1)} s, load ${load()})`,
      );
      const tus = await tusUpload(source, work, '', {
        S3_ENDPOINT: s3.endpoint,
        S3_BUCKET: bucket,
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
        S3_FORCE_PATH_STYLE: 'true',
      });
      say(
        `(c) tus via Sutura to s3rver: ${mbps(size, tus.ms).toFixed(0).padStart(6)} MB/s  (${(tus.ms / 1000).toFixed(1)} s, ` +
          `${tus.resumes} resume${tus.resumes === 1 ? '' : 's'}, server RSS ${tus.idleRss.toFixed(0)} MB before, ${tus.peakRss.toFixed(0)} MB peak, load ${load()})`,
      );
      say(
        `upload (S3, ${(size / GIB).toFixed(2)} GiB): ratio ${(sdkMs / tus.ms).toFixed(2)} of the AWS SDK's multipart upload, ` +
          `server RSS ${tus.idleRss.toFixed(0)} MB idle, ${tus.peakRss.toFixed(0)} MB peak; load ${load()}`,
      );
    } finally {
      await s3.stop();
    }
  } else {
    const copy = path.join(work, 'copy.bin');
    const cpMs = await timed(async () => {
      const cp = spawn('cp', [source, copy], { stdio: 'inherit' });
      await waitExit(cp);
      if (cp.exitCode !== 0) throw new Error(`cp exited with ${cp.exitCode}`);
    });
    await rm(copy);
    say(`(a) cp:              ${mbps(size, cpMs).toFixed(0).padStart(6)} MB/s  (${(cpMs / 1000).toFixed(1)} s, load ${load()})`);

    const putMs = await plainPut(source, copy);
    if ((await stat(copy)).size !== size) throw new Error('plain PUT: wrong size received');
    await rm(copy);
    say(`(b) plain HTTP PUT:  ${mbps(size, putMs).toFixed(0).padStart(6)} MB/s  (${(putMs / 1000).toFixed(1)} s, load ${load()})`);

    const configurations: { label: string; databaseUrl: string }[] = [{ label: 'embedded database', databaseUrl: '' }];
    if (PG_URL && (await postgresReady(PG_URL))) {
      configurations.push({ label: `PostgreSQL server (${new URL(PG_URL).host})`, databaseUrl: PG_URL });
    } else {
      say(
        PG_URL
          ? `No PostgreSQL server answers at ${PG_URL}: embedded database only.`
          : 'BENCH_DATABASE_URL is empty: embedded database only.',
      );
    }
    let last: { ms: number; peakRss: number; idleRss: number } | undefined;
    for (const { label, databaseUrl } of configurations) {
      const tus = await tusUpload(source, work, databaseUrl);
      say(
        `(c) tus via Sutura:  ${mbps(size, tus.ms).toFixed(0).padStart(6)} MB/s  (${(tus.ms / 1000).toFixed(1)} s, ` +
          `${tus.resumes} resume${tus.resumes === 1 ? '' : 's'}, server RSS ${tus.idleRss.toFixed(0)} MB before, ${tus.peakRss.toFixed(0)} MB peak; ${label}; load ${load()})`,
      );
      last = tus;
    }
    say(
      `upload: ratio ${(putMs / last!.ms).toFixed(2)} of plain PUT (${(cpMs / last!.ms).toFixed(2)} of cp), ` +
        `server RSS ${last!.idleRss.toFixed(0)} MB idle, ${last!.peakRss.toFixed(0)} MB peak; load ${load()}`,
    );
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
