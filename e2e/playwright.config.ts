import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

/**
 * Every spec file on a real server of its own (e2e/fixtures.ts), started from a data folder made
 * once (e2e/global-setup.ts); as many workers as the machine has cores.
 */
const workers = Number(process.env.E2E_WORKERS ?? Math.max(1, Math.min(availableParallelism(), 4)));
const root = path.resolve(import.meta.dirname, '..');
/**
 * Debian's Chromium: its headless shell where installed (the same engine without the browser's
 * own interface, a tenth less processor per test), else the browser. CHROMIUM_PATH names another.
 */
const chromium =
  process.env.CHROMIUM_PATH ??
  ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((file) => existsSync(file)) ??
  '/usr/bin/chromium';

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  workers,
  // No retry, in CI too: every spec owns its people and its server, so a test that fails once is a
  // failure to look at, not noise to run again.
  retries: 0,
  globalSetup: './global-setup.ts',
  // The accessibility walk of every screen first: its few long tests start at once, one on each
  // worker, and the specs fill the workers around them, so that no worker waits at the end for
  // a long test begun late. `--project a11y` or `--project e2e` runs one part (e2e/run.ts --phase).
  projects: [
    { name: 'a11y', testMatch: 'screens.spec.ts', grep: /axe-core/ },
    { name: 'e2e', grepInvert: /axe-core/ },
  ],
  reporter: [['list'], ['./phase-reporter.ts']],
  outputDir: path.join(root, 'test-results'),
  use: {
    locale: 'fr-FR',
    // The people of the specs ask their device for less motion: pages settle at once, and nothing
    // is painted for an animation no assertion looks at (the app honours it, apps/web/src/lib/theme.tsx).
    // A spec that checks the motion itself says so with test.use({ reducedMotion: 'no-preference' }).
    reducedMotion: 'reduce',
    // Not recorded: a trace costs about a quarter of the phase's processor time. To look into a
    // failing spec, E2E_TRACE=retain-on-failure records every test and keeps the failing ones'.
    trace: (process.env.E2E_TRACE ?? 'off') as 'off',
    actionTimeout: 15_000,
    navigationTimeout: 20_000,
    launchOptions: {
      executablePath: chromium,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
        // The microphone of the voice advice: Chromium's fake device (a beep), without the
        // permission prompt. Set for every spec, not by the specs that record: a spec with launch
        // options of its own needs workers of its own, started after the others have ended.
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
      ],
    },
  },
});
