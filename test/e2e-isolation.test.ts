import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The end-to-end specs own their data (docs/testing.md): each runs on its own server, through the
 * fixtures that start it, with people made for it. A spec that took Playwright's bare `test` would
 * run against no server of its own; one that named a demo account would share that account's state
 * with whoever else uses it.
 */
const e2e = path.resolve(import.meta.dirname, '..', 'e2e');

/** What keeps a spec's text from owning its data, one line per finding. */
export function isolationFindings(file: string, text: string): string[] {
  const findings: string[] = [];
  if (/import\s*\{[^}]*\btest\b[^}]*\}\s*from\s*'@playwright\/test'/.test(text)) {
    findings.push(`${file}: takes Playwright's test instead of ./fixtures.ts's`);
  }
  if (file.endsWith('.spec.ts') && !/from '\.\/fixtures\.ts'/.test(text)) findings.push(`${file}: does not run on the fixtures' server`);
  // The support mailbox is a setting of the server, not an account. A spec of the demo's first
  // start (its server with the demo's media on) reads the demo accounts of its own server: they
  // are what it checks, and no other spec's server holds them.
  const demoStart = /test\.use\(\{\s*serverEnv:\s*\{[^}]*DEMO_VIDEOS:\s*'on'/.test(text);
  for (const match of demoStart ? [] : text.matchAll(/[\w.+-]+@sutura\.local/g)) {
    if (match[0] !== 'support@sutura.local') findings.push(`${file}: names the demo account ${match[0]}`);
  }
  return findings;
}

describe('end-to-end specs', () => {
  it('finds a spec on the bare Playwright test, or naming a demo account', () => {
    expect(
      isolationFindings('a.spec.ts', "import { expect, test } from '@playwright/test';\nsignIn(page, 'learner@sutura.local');"),
    ).toEqual([
      "a.spec.ts: takes Playwright's test instead of ./fixtures.ts's",
      "a.spec.ts: does not run on the fixtures' server",
      'a.spec.ts: names the demo account learner@sutura.local',
    ]);
    const demo =
      "import { test } from './fixtures.ts';\ntest.use({ serverEnv: { DEMO_VIDEOS: 'on' } });\nsignIn(page, 'learner@sutura.local');";
    expect(isolationFindings('demo.spec.ts', demo)).toEqual([]);
    expect(isolationFindings('c.spec.ts', demo.replace("'on'", "'off'"))).toEqual([
      'c.spec.ts: names the demo account learner@sutura.local',
    ]);
    expect(isolationFindings('b.spec.ts', "import type { Page } from '@playwright/test';\nimport { test } from './fixtures.ts';")).toEqual(
      [],
    );
  });

  it('each run on their own server with their own people', () => {
    const files = readdirSync(e2e).filter((f) => f.endsWith('.ts'));
    expect(files.filter((f) => f.endsWith('.spec.ts')).length).toBeGreaterThan(20);
    const findings = files.filter((f) => f !== 'fixtures.ts').flatMap((f) => isolationFindings(f, readFileSync(path.join(e2e, f), 'utf8')));
    expect(findings).toEqual([]);
  });
});
