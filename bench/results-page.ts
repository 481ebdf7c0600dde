/**
 * How long the learner's results page (/videos/{id} of an analysed case) takes to show its
 * content, against a baseline page of the same app in the same run.
 * Usage: node bench/results-page.ts   (BENCH_URL: a running Sutura with the demo data, else one
 *                                      is started; BENCH_RUNS: loads per page, median kept, default 7;
 *                                      BENCH_SKIP_BUILD=1: serve the web build as it is;
 *                                      CHROMIUM_PATH: default /usr/bin/chromium)
 *
 * In one run:
 *   1. builds the web app and starts the real server (apps/api/src/main.js, temporary DATA_DIR,
 *      demo accounts and demo videos), then waits until the demo learner's analysed case is there
 *      (the demo videos are made with ffmpeg at the first start: a few minutes), and until the
 *      server and its processes (PostgreSQL, ffmpeg) are quiet: the demo's generators (videos,
 *      their processing, months of history) have finished, so the timing is of the page alone;
 *   2. in Chromium, signs the demo learner in through the sign-in form, then loads, in turn and
 *      BENCH_RUNS times each, a fresh page (HTTP cache kept, as a returning surgeon's browser
 *      keeps the app's files) of:
 *        - the baseline: /my-account (the shell, the session and one request);
 *        - the results page: its title, the expert's result (summary, expert, global rating)
 *          and the expert's profile drawn;
 *      timing each from the navigation's start to the first frame where its content is there.
 *   3. the same in a phone's context (412 × 915, touch) whose processor is four times slower
 *      (Chromium's CPU throttling) on a 9 Mbit/s link with 40 ms of latency: a mid-range phone.
 * The last line: `results-page: N ms (baseline M ms, ratio R); phone N ms (baseline M ms, ratio R); load L`
 * (medians, and the 1-minute load average of the shared machine). Targets: ≤ 500 ms on the
 * desktop, ≤ 1.5 s on the phone.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';

const root = path.resolve(import.meta.dirname, '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 7));
const LEARNER = { email: 'learner@sutura.local', password: 'sutura2026' };

const say = (line: string) => process.stdout.write(`${line}\n`);
const load = () => loadavg()[0]!.toFixed(1);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function until<T>(what: string, limitMs: number, child: ChildProcess | null, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    if (child && child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} not there within ${Math.round(limitMs / 1000)} s`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/** The demo learner's newest analysed case whose result can be read. */
async function analysedCase(base: string): Promise<string | undefined> {
  const auth = await fetch(`${base}/v1/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(LEARNER),
  });
  if (!auth.ok) return undefined;
  const { token } = ((await auth.json()) as { data: { token: string } }).data;
  const headers = { authorization: `Bearer ${token}` };
  const list = await fetch(`${base}/v1/videos?filter=tab==analysed&limit=1`, { headers });
  if (!list.ok) return undefined;
  const id = ((await list.json()) as { data: { data: { id: string }[] } }).data.data[0]?.id;
  if (!id) return undefined;
  const result = await fetch(`${base}/v1/videos/${id}/analysis`, { headers });
  return result.ok ? id : undefined;
}

/** Processor time (ms, user + system) of `pid` and of every process below it (PostgreSQL, ffmpeg). */
async function treeCpuMs(pid: number): Promise<number> {
  const procs: { pid: number; ppid: number; ticks: number }[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    if (!stat) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    procs.push({ pid: Number(name), ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
  }
  const inTree = new Set([pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of procs) {
      if (inTree.has(p.pid) || !inTree.has(p.ppid)) continue;
      inTree.add(p.pid);
      grew = true;
    }
  }
  // Clock ticks are 10 ms on Linux.
  return procs.filter((p) => inTree.has(p.pid)).reduce((sum, p) => sum + p.ticks * 10, 0);
}

/** Waits until the server's processes use under 5 % of a processor for 5 s in a row. */
async function quiet(pid: number, limitMs: number): Promise<void> {
  const deadline = Date.now() + limitMs;
  let before = await treeCpuMs(pid);
  for (;;) {
    await new Promise((r) => setTimeout(r, 5000));
    const now = await treeCpuMs(pid);
    if (now - before < 250) return;
    if (Date.now() > deadline) throw new Error(`the server was still busy after ${Math.round(limitMs / 1000)} s`);
    before = now;
  }
}

/** Milliseconds from the navigation's start to the first animation frame where `ready` holds. */
async function timeTo(page: Page, url: string, ready: string): Promise<number> {
  await page.goto(url, { waitUntil: 'commit' });
  const handle = await page.waitForFunction(
    (selectors: string) => (selectors.split('|').every((s) => document.querySelector(s)) ? performance.now() : false),
    ready,
    { polling: 'raf', timeout: 30_000 },
  );
  return Math.round((await handle.jsonValue()) as number);
}

let server: ChildProcess | null = null;
let dataDir: string | null = null;
try {
  let base = process.env.BENCH_URL?.replace(/\/$/, '');
  if (!base) {
    if (!process.env.BENCH_SKIP_BUILD) {
      const build = spawnSync('npm', ['run', 'build', '-w', '@sutura/web'], { cwd: root, stdio: 'inherit' });
      if (build.status !== 0) throw new Error('the web build failed');
    }
    const port = await freePort();
    dataDir = await mkdtemp(path.join(tmpdir(), 'sutura-bench-results-'));
    base = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, ['apps/api/src/main.js'], {
      cwd: root,
      stdio: 'ignore',
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, PUBLIC_URL: base, LOG_LEVEL: 'warn' },
    });
    await until('the server', 180_000, server, async () => ((await fetch(`${base}/v1/health`)).ok ? true : undefined));
    say('server up; waiting for the demo analysed case');
  }
  const id = await until('the demo analysed case', 600_000, server, () => analysedCase(base));
  if (server) {
    const waiting = performance.now();
    await quiet(server.pid!, 900_000);
    say(`demo data ready; the server quiet after ${Math.round((performance.now() - waiting) / 1000)} s more (load ${load()})`);
  }

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  try {
    const pages = {
      baseline: { url: `${base}/my-account`, ready: '[data-testid="edit-password-link"]' },
      results: {
        url: `${base}/videos/${id}`,
        // The case's title, the expert's result with the global rating, and the expert's specialty (their profile).
        ready: '[data-testid="video-title"]|[data-testid="analysis-global-rating"]|[data-testid="analysis-expert-profile"]',
      },
    };
    /** Both pages' median times in a new browser context, signed in, with `profile`'s device and link. */
    const measure = async (profile: 'desktop' | 'phone') => {
      const phone = profile === 'phone';
      const context = await browser.newContext({
        locale: 'fr-FR',
        ...(phone
          ? { viewport: { width: 412, height: 915 }, deviceScaleFactor: 2.625, isMobile: true, hasTouch: true }
          : { viewport: { width: 1440, height: 900 } }),
      });
      try {
        // A loaded machine signs in slowly: the timing is of the page, not of these waits.
        context.setDefaultTimeout(120_000);
        const page = await context.newPage();
        await page.goto(`${base}/auth/login`);
        await page.getByRole('textbox', { name: /^(adresse e-mail|email address)$/i }).fill(LEARNER.email);
        await page
          .getByLabel(/^(mot de passe|password)/i)
          .first()
          .fill(LEARNER.password);
        await page.getByRole('button', { name: /^(se connecter|sign in)$/i }).click();
        await page.waitForURL(/\/dashboard$/);
        if (phone) {
          // A mid-range phone: a processor four times slower, a 9 Mbit/s link with 40 ms of latency.
          const cdp = await context.newCDPSession(page);
          await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
          const bytesPerSecond = (9 * 1_000_000) / 8;
          await cdp.send('Network.emulateNetworkConditions', {
            offline: false,
            latency: 40,
            downloadThroughput: bytesPerSecond,
            uploadThroughput: bytesPerSecond,
          });
        }
        // One load of each first: the app's files in the HTTP cache, as for a returning surgeon.
        for (const p of Object.values(pages)) await timeTo(page, p.url, p.ready);
        const times: Record<keyof typeof pages, number[]> = { baseline: [], results: [] };
        for (let run = 0; run < RUNS; run++) {
          for (const key of Object.keys(pages) as (keyof typeof pages)[])
            times[key].push(await timeTo(page, pages[key].url, pages[key].ready));
        }
        say(`${profile}: baseline /my-account: ${times.baseline.join(', ')} ms`);
        say(`${profile}: results /videos/${id}: ${times.results.join(', ')} ms`);
        const results = median(times.results);
        const baseline = median(times.baseline);
        return `${results} ms (baseline ${baseline} ms, ratio ${(results / baseline).toFixed(2)})`;
      } finally {
        await context.close();
      }
    };
    const desktop = await measure('desktop');
    const phone = await measure('phone');
    say(`results-page: ${desktop}; phone ${phone}; load ${load()}`);
  } finally {
    await browser.close();
  }
} finally {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((resolve) => server!.once('exit', resolve));
  }
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}
