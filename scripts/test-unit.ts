import { spawnSync } from 'node:child_process';
import path from 'node:path';

/**
 * Unit and API integration tests: everything on the embedded PostgreSQL server (one per run, a
 * database per test file: apps/api/test/global-setup.ts), then the database-backed tests again on
 * the PostgreSQL server of TEST_DATABASE_URL when it is set.
 */
const root = path.resolve(import.meta.dirname, '..');
const { TEST_DATABASE_URL, ...embeddedEnv } = process.env;
const vitest = (env: NodeJS.ProcessEnv, args: string[]) => {
  const result = spawnSync('npx', ['vitest', 'run', ...args], { cwd: root, stdio: 'inherit', env });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
process.stdout.write('\n== Tests on the embedded database (embedded PostgreSQL server) ==\n');
vitest(embeddedEnv, process.argv.slice(2));
if (TEST_DATABASE_URL) {
  process.stdout.write(`\n== Database tests on PostgreSQL (${new URL(TEST_DATABASE_URL).host}) ==\n`);
  vitest(process.env, ['apps/api/test', ...process.argv.slice(2)]);
}

// The media tests once more on the ffmpeg and ffprobe shipped as npm packages (an older ffmpeg
// than most systems have), as a machine without a system ffmpeg runs them.
const { locateTool } = await import('../apps/api/src/media-pipeline/ffmpeg.ts');
const shipped = { ffmpeg: locateTool('ffmpeg', undefined, ''), ffprobe: locateTool('ffprobe', undefined, '') };
if (shipped.ffmpeg.origin !== 'npm' || shipped.ffprobe.origin !== 'npm') {
  process.stderr.write('The npm-shipped ffmpeg/ffprobe are not installed (optional dependencies of apps/api).\n');
  process.exit(1);
}
process.stdout.write(`\n== Media tests on the npm-shipped ffmpeg (${shipped.ffmpeg.path}) ==\n`);
vitest({ ...process.env, FFMPEG_PATH: shipped.ffmpeg.path, FFPROBE_PATH: shipped.ffprobe.path }, [
  'apps/api/test/media-pipeline.test.ts',
  'apps/api/test/media-tools.test.ts',
  'apps/api/test/cut-suggestions.test.ts',
  'apps/api/test/render.test.ts',
  'apps/api/test/preparation.test.ts',
]);
