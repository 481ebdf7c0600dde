import { afterEach, expect } from 'vitest';

declare module 'vitest' {
  interface TaskMeta {
    /** The assertions the test made (expect calls), read by phase-report.ts. */
    assertions?: number;
  }
}

/** Counts each test's assertions into its metadata, which reaches the reporters of the main process. */
afterEach(({ task }) => {
  task.meta.assertions = expect.getState().assertionCalls;
});
