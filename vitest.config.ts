import { defineConfig } from 'vitest/config';

// Under the test runner (scripts/test.ts), each run reports its counts to the file it names.
const phaseReport = Boolean(process.env.SUTURA_PHASE_REPORT);

export default defineConfig({
  test: {
    include: ['packages/**/*.test.ts', 'apps/api/**/*.test.ts', 'apps/web/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['apps/api/test/global-setup.ts'],
    setupFiles: phaseReport ? ['scripts/vitest/count-assertions.ts'] : [],
    reporters: phaseReport ? ['default', './scripts/vitest/phase-report.ts'] : ['default'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    fileParallelism: true,
  },
});
