import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Writes the counts of a Vitest run to the file named by SUTURA_PHASE_REPORT, for the test runner
 * (scripts/test.ts): tests passed, failed and skipped (todo included), and the assertions the
 * tests made (counted by count-assertions.ts).
 */
export default class PhaseReport implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const file = process.env.SUTURA_PHASE_REPORT;
    if (!file) return;
    const counts = { passed: 0, failed: 0, skipped: 0, assertions: 0 };
    for (const module of testModules) {
      let failedTests = 0;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') failedTests++;
        else counts.skipped++;
        counts.assertions += test.meta().assertions ?? 0;
      }
      // A file that failed outside its tests (an import, a beforeAll that timed out: its tests are
      // then skipped) counts as one failure, as Vitest counts it among the failed files.
      counts.failed += failedTests || (module.state() === 'failed' ? 1 : 0);
    }
    writeFileSync(file, `${JSON.stringify(counts)}\n`);
  }
}
