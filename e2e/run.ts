import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { buildApi } from '../scripts/build-api.js';
import { buildWeb } from '../scripts/build-web.js';

/**
 * Builds the web app the servers will serve, then runs the Playwright specs against real servers.
 * `--phase e2e` runs every spec but the accessibility walk, `--phase a11y` the walk alone, and
 * without `--phase` both run together, the walk first (its projects in e2e/playwright.config.ts;
 * the phase reporter counts and times them apart for scripts/test.ts); other arguments go to
 * Playwright as they are.
 */
const root = path.resolve(import.meta.dirname, '..');
const run = (cmd: string, args: string[]) => {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
const args = process.argv.slice(2);
const at = args.indexOf('--phase');
const phase = at >= 0 ? args.splice(at, 2)[1] : undefined;
const selection = phase === 'e2e' || phase === 'a11y' ? ['--project', phase] : [];
if (phase !== undefined && selection.length === 0) {
  process.stderr.write(`Unknown phase ${phase}: e2e or a11y\n`);
  process.exit(2);
}
// Built once, and only when older than their sources (a second run at once waits for the first):
// the servers run the bundle of the server, as `npm start` does.
await buildWeb();
await buildApi();
run('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts', ...selection, ...args]);
