import { writeFileSync } from 'node:fs';
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/** Writes the run's counts where the test runner asks for them (SUTURA_PHASE_REPORT, scripts/test.ts). */
export default class PhaseReporter implements Reporter {
  private counts = { passed: 0, failed: 0, skipped: 0, flaky: 0 };

  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.retry < test.retries && result.status !== 'passed' && result.status !== 'skipped') return;
    const outcome = test.outcome();
    if (outcome === 'expected') this.counts.passed += 1;
    else if (outcome === 'skipped') this.counts.skipped += 1;
    else if (outcome === 'flaky') this.counts.flaky += 1;
    else this.counts.failed += 1;
  }

  onEnd(_result: FullResult): void {
    const file = process.env.SUTURA_PHASE_REPORT;
    if (file) writeFileSync(file, JSON.stringify(this.counts));
  }
}
