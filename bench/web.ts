/**
 * How much JavaScript the sign-in page and the dashboard need before they first draw, and their
 * Lighthouse performance scores.
 * Usage: node bench/web.ts      (BENCH_PORT: the server's port, default a free one;
 *                                BENCH_RUNS: Lighthouse runs per page and preset, median kept, default 3, 0: none;
 *                                CHROMIUM_PATH: default /usr/bin/chromium)
 *
 * In one run:
 *   1. builds the web app (`npm run build -w @sutura/web`);
 *   2. starts the real server (apps/api/src/main.js, temporary DATA_DIR, demo accounts, no demo
 *      videos), which serves the build as it would in production (pre-compressed files);
 *   3. starts Chromium with a remote debugging port, signs the demo learner in through the sign-in
 *      form (so the session is kept the way the app keeps it), then, with the HTTP cache and the
 *      service worker cleared before each load, loads the sign-in page (signed out, in another
 *      profile) and the dashboard, and counts the JavaScript files requested before the first
 *      contentful paint, and those requested until the network is idle (what the page fetches
 *      right after it draws: the socket client, a namespace of texts…). Their size is that of the
 *      gzip file the server sends to a browser that accepts gzip; the browser here takes brotli,
 *      whose bytes on the wire are shown too. The baseline is the whole app's JavaScript, gzipped,
 *      in the same build;
 *   4. runs Lighthouse (performance only, no network beyond this machine) on both pages with the
 *      desktop and the mobile presets.
 * The last line: `web: login N/I KiB, dashboard N/I KiB of gzipped JS before first render/until the
 * network is idle; lighthouse login D/M, dashboard D/M` (desktop/mobile scores). Targets: ≤ 200 KiB
 * before the first render, ≤ 220 KiB until idle, ≥ 95 desktop, ≥ 90 mobile.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import lighthouse, { desktopConfig } from 'lighthouse';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'apps/web/dist');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const RUNS = Math.max(0, Number(process.env.BENCH_RUNS ?? 3));
const DEMO_LEARNER = { email: 'learner@sutura.local', password: 'sutura2026' };
const KIB = 1024;

const say = (line: string) => process.stdout.write(`${line}\n`);
const kib = (bytes: number) => Math.round(bytes / KIB);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitFor(url: string, child: ChildProcess, what: string): Promise<void> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    const up = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return;
    if (Date.now() > deadline) throw new Error(`${what} did not start within 3 minutes`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** What the server sends for a built file to a browser that takes gzip: the .gz beside it, if any. */
async function gzipBytes(file: string): Promise<number> {
  const gz = `${file}.gz`;
  return (await stat(existsSync(gz) ? gz : file)).size;
}

async function wholeAppJs(): Promise<number> {
  const assets = path.join(dist, 'assets');
  const files = (await readdir(assets)).filter((f) => f.endsWith('.js'));
  let total = 0;
  for (const file of files) total += await gzipBytes(path.join(assets, file));
  return total;
}

interface Load {
  /** Gzip bytes of the JS files requested before the first contentful paint. */
  gzip: number;
  /** Gzip bytes of the JS files requested until the network is idle (the first screen's, and what it prefetches). */
  idleGzip: number;
  idleFiles: number;
  /** Bytes of those files on the wire (brotli here). */
  wire: number;
  files: number;
  fcpMs: number;
}

/** A cold load: no HTTP cache, no service worker, but the storage (the session) kept. */
async function coldLoad(context: BrowserContext, url: string, ready: (page: Page) => Promise<void>): Promise<Load> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.clearBrowserCache');
  await cdp.send('Storage.clearDataForOrigin', { origin: new URL(url).origin, storageTypes: 'service_workers,cache_storage' });
  await page.goto(url);
  await ready(page);
  await page.waitForLoadState('networkidle');
  const entries = await page.evaluate(() => {
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN;
    const all = performance
      .getEntriesByType('resource')
      .map((e) => e as PerformanceResourceTiming)
      .filter((e) => new URL(e.name).pathname.endsWith('.js'))
      .map((e) => ({ path: new URL(e.name).pathname, wire: e.transferSize, start: e.startTime }));
    return { fcp, scripts: all.filter((e) => e.start < fcp), idle: all };
  });
  await page.close();
  if (Number.isNaN(entries.fcp)) throw new Error(`no first contentful paint on ${url}`);
  let gzip = 0;
  for (const script of entries.scripts) {
    const bytes = await gzipBytes(path.join(dist, script.path));
    if (process.env.BENCH_VERBOSE) say(`  ${new URL(url).pathname} ${script.path} ${(bytes / KIB).toFixed(1)} KiB`);
    gzip += bytes;
  }
  let idleGzip = 0;
  for (const script of entries.idle) {
    const bytes = await gzipBytes(path.join(dist, script.path));
    if (process.env.BENCH_VERBOSE && script.start >= entries.fcp)
      say(`  ${new URL(url).pathname} ${script.path} ${(bytes / KIB).toFixed(1)} KiB after first paint`);
    idleGzip += bytes;
  }
  return {
    gzip,
    idleGzip,
    idleFiles: entries.idle.length,
    wire: entries.scripts.reduce((sum, s) => sum + s.wire, 0),
    files: entries.scripts.length,
    fcpMs: Math.round(entries.fcp),
  };
}

async function signIn(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/auth/login`);
  await page.getByRole('textbox', { name: /^(adresse e-mail|email address)$/i }).fill(DEMO_LEARNER.email);
  await page
    .getByLabel(/^(mot de passe|password)/i)
    .first()
    .fill(DEMO_LEARNER.password);
  await page.getByRole('button', { name: /^(se connecter|sign in)$/i }).click();
  await page.waitForURL(/\/dashboard$/);
}

/** The median Lighthouse performance score (0-100) of a page, with a preset. */
async function score(url: string, port: number, preset: 'desktop' | 'mobile'): Promise<number> {
  const scores: number[] = [];
  for (let run = 0, retries = 0; run < RUNS; run++) {
    const result = await lighthouse(
      url,
      // The default storage reset clears the cache and the service worker, not the session.
      { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] },
      preset === 'desktop' ? desktopConfig : undefined,
    );
    const lhr = result?.lhr;
    const failure = !lhr || lhr.runtimeError ? `Lighthouse failed on ${url}: ${lhr?.runtimeError?.message ?? 'no result'}` : null;
    // On a busy machine Chromium sometimes loses the trace (NO_NAVSTART): that run is made again, twice at most.
    if (failure && retries < 2) {
      retries++;
      say(`  ${preset} ${new URL(url).pathname}: ${failure}; again`);
      run--;
      continue;
    }
    if (failure || !lhr) throw new Error(failure ?? 'no result');
    scores.push(Math.round((lhr.categories.performance?.score ?? 0) * 100));
    const metric = (id: string) => lhr.audits[id]?.displayValue ?? '?';
    say(
      `  ${preset} ${new URL(url).pathname}: ${scores.at(-1)} (FCP ${metric('first-contentful-paint')}, LCP ${metric('largest-contentful-paint')}, ` +
        `TBT ${metric('total-blocking-time')}, CLS ${metric('cumulative-layout-shift')}, final ${lhr.finalDisplayedUrl})`,
    );
    if (process.env.BENCH_LHR_DIR)
      await writeFile(
        path.join(process.env.BENCH_LHR_DIR, `${new URL(url).pathname.replaceAll('/', '_')}-${preset}-${run}.json`),
        JSON.stringify(lhr),
      );
  }
  return median(scores);
}

/** Chromium on a debugging port, so that Lighthouse and Playwright drive the same profile. */
async function startChromium(profile: string): Promise<{ process: ChildProcess; port: number; browser: Browser }> {
  const port = await freePort();
  const child = spawn(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      `--remote-debugging-port=${port}`,
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    { stdio: 'ignore' },
  );
  await waitFor(`http://127.0.0.1:${port}/json/version`, child, 'Chromium');
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  return { process: child, port, browser };
}

async function main(): Promise<void> {
  const build = spawnSync('npm', ['run', 'build', '-w', '@sutura/web'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (build.status !== 0) throw new Error('the web app did not build');

  const work = await mkdtemp(path.join(tmpdir(), 'sutura-bench-web-'));
  // As root, the embedded PostgreSQL runs as its own system user, which must pass through here.
  await chmod(work, 0o711);
  const port = Number(process.env.BENCH_PORT ?? (await freePort()));
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [path.join(root, 'apps/api/src/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: path.join(work, 'data'),
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      LOG_LEVEL: 'warn',
      DEMO_DATA: 'on',
      DEMO_VIDEOS: 'off',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const chromiums: ChildProcess[] = [];
  try {
    await waitFor(`${base}/v1/health`, server, 'the server');
    const app = await wholeAppJs();
    say(`the whole app: ${kib(app)} KiB of gzipped JavaScript (the baseline)`);

    // Signed out: a profile of its own, never signed in.
    const guest = await startChromium(path.join(work, 'guest'));
    chromiums.push(guest.process);
    const login = await coldLoad(guest.browser.contexts()[0]!, `${base}/auth/login`, (page) =>
      page.getByRole('button', { name: /^(se connecter|sign in)$/i }).waitFor(),
    );
    const member = await startChromium(path.join(work, 'member'));
    chromiums.push(member.process);
    const context = member.browser.contexts()[0]!;
    const first = await context.newPage();
    await signIn(first, base);
    await first.close();
    const dashboard = await coldLoad(context, `${base}/dashboard`, (page) => page.getByRole('heading', { level: 1 }).first().waitFor());
    for (const [name, load] of [
      ['login', login],
      ['dashboard', dashboard],
    ] as const) {
      say(
        `${name}: ${kib(load.gzip)} KiB gzip of JS in ${load.files} files before first paint at ${load.fcpMs} ms ` +
          `(${(load.gzip / app).toFixed(2)} of the whole app), ${kib(load.wire)} KiB on the wire (brotli); ` +
          `${kib(load.idleGzip)} KiB gzip in ${load.idleFiles} files until the network is idle`,
      );
    }

    const summary =
      `web: login ${kib(login.gzip)}/${kib(login.idleGzip)} KiB, dashboard ${kib(dashboard.gzip)}/${kib(dashboard.idleGzip)} KiB ` +
      'of gzipped JS before first render/until the network is idle';
    if (RUNS === 0) {
      say(`${summary}; lighthouse not run`);
      return;
    }
    const loginScores = {
      desktop: await score(`${base}/auth/login`, guest.port, 'desktop'),
      mobile: await score(`${base}/auth/login`, guest.port, 'mobile'),
    };
    say(`lighthouse login: desktop ${loginScores.desktop}, mobile ${loginScores.mobile} (median of ${RUNS})`);
    const dashboardScores = {
      desktop: await score(`${base}/dashboard`, member.port, 'desktop'),
      mobile: await score(`${base}/dashboard`, member.port, 'mobile'),
    };
    say(`lighthouse dashboard: desktop ${dashboardScores.desktop}, mobile ${dashboardScores.mobile} (median of ${RUNS})`);
    await guest.browser.close();
    await member.browser.close();

    say(
      `${summary}; lighthouse login ${loginScores.desktop}/${loginScores.mobile}, ` +
        `dashboard ${dashboardScores.desktop}/${dashboardScores.mobile}`,
    );
  } finally {
    for (const child of chromiums) child.kill();
    server.kill();
    await rm(work, { recursive: true, force: true }).catch(() => undefined);
  }
}

await main();
