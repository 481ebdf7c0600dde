import { writeFileSync } from 'node:fs';
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

interface Part {
  passed: number;
  failed: number;
  skipped: number;
  flaky: number;
  /** From the start of the part's first test to the end of its last: its wall time in the run. */
  first?: number;
  last?: number;
}

/**
 * Writes the run's counts where the test runner asks for them (SUTURA_PHASE_REPORT, scripts/test.ts):
 * those of the specs, and under `parts.a11y` those of the accessibility walk with its wall time
 * when it ran in the same run (its Playwright project, e2e/playwright.config.ts).
 */
export default class PhaseReporter implements Reporter {
  private parts = new Map<string, Part>();

  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.retry < test.retries && result.status !== 'passed' && result.status !== 'skipped') return;
    const name = test.parent.project()?.name === 'a11y' ? 'a11y' : 'e2e';
    const part = this.parts.get(name) ?? { passed: 0, failed: 0, skipped: 0, flaky: 0 };
    this.parts.set(name, part);
    const outcome = test.outcome();
    if (outcome === 'expected') part.passed += 1;
    else if (outcome === 'skipped') part.skipped += 1;
    else if (outcome === 'flaky') part.flaky += 1;
    else part.failed += 1;
    const start = test.results[0]?.startTime.getTime() ?? result.startTime.getTime();
    const end = result.startTime.getTime() + result.duration;
    part.first = Math.min(part.first ?? start, start);
    part.last = Math.max(part.last ?? end, end);
  }

  onEnd(_result: FullResult): void {
    const file = process.env.SUTURA_PHASE_REPORT;
    if (!file) return;
    const counts = ({ passed, failed, skipped, flaky }: Part) => ({ passed, failed, skipped, flaky });
    const empty: Part = { passed: 0, failed: 0, skipped: 0, flaky: 0 };
    const walk = this.parts.get('a11y');
    const specs = this.parts.get('e2e');
    // A run of the walk alone reports it as the phase's own counts.
    const own = specs ?? walk ?? empty;
    const report: Record<string, unknown> = counts(own);
    if (specs && walk) {
      report.parts = { a11y: { ...counts(walk), seconds: ((walk.last ?? 0) - (walk.first ?? 0)) / 1000 } };
    }
    writeFileSync(file, JSON.stringify(report));
  }
}
