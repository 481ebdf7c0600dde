import { spawnSync } from 'node:child_process';
import path from 'node:path';

/** Builds the web app the server will serve, then runs the Playwright specs against a real server. */
const root = path.resolve(import.meta.dirname, '..');
const run = (cmd: string, args: string[]) => {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
run('npm', ['run', 'build', '-w', '@sutura/web']);
run('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts', ...process.argv.slice(2)]);
