import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './fixtures.ts';
import { layoutProblems, WCAG_TAGS } from './screens.ts';
import { signIn } from './support.ts';

/**
 * The first start of a demo installation (`npm start` on a fresh machine): its months of analysed
 * cases are made after the server answers. This spec's server starts from the suite's data folder
 * (the demo accounts made, their history not yet) with the demo's media on, as `npm start` does;
 * the demo accounts it signs in with are this server's alone.
 */
test.use({ serverEnv: { DEMO_VIDEOS: 'on' } });

const DEMO_PASSWORD = 'sutura2026';

test('while the demo is being prepared the dashboard says so with its progress, then fills in by itself without a reload (390 px, dark, English)', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-GB', colorScheme: 'dark' });
  const page = await context.newPage();
  await signIn(page, 'learner@sutura.local', DEMO_PASSWORD);

  const notice = page.getByTestId('demo-preparing');
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('The demo is being prepared');
  await expect(notice).toContainText('there is no need to reload the page');
  const progress = page.getByTestId('demo-preparing-progress');
  await expect(progress).toHaveAttribute('aria-valuetext', /^Demo \d+% prepared$/);
  const first = Number(await progress.getAttribute('aria-valuenow'));
  expect(first).toBeGreaterThanOrEqual(0);
  expect(first).toBeLessThan(100);
  // Read by a screen reader and laid out on a phone like any screen.
  const axe = await new AxeBuilder({ page }).include('[data-testid="demo-preparing"]').withTags(WCAG_TAGS).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  expect(await layoutProblems(page)).toEqual([]);

  // Its figures move while it is made (the page polls; nobody reloads).
  await expect.poll(async () => Number(await progress.getAttribute('aria-valuenow')), { timeout: 120_000 }).toBeGreaterThan(first);
  // Then the notice goes, and the numbers read meanwhile are read again: the history is there.
  await expect(notice).toHaveCount(0, { timeout: 180_000 });
  await expect(page.getByTestId('dashboard-analysed-value')).not.toHaveText('0');
  await context.close();
});
