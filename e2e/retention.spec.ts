import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { firstDraw, openPage, sentCase, signedIn } from './cases.ts';
import { expectFitsWidth } from './support.ts';

// The retention rules in the administration (set a rule, see the dry run, hold a case with a
// reason and release it) and their plain-language summary in Settings → Privacy; the page at
// 390 px in dark mode. The spec owns its people and its case.
test.describe.configure({ mode: 'serial' });

/** No serious or critical WCAG 2.2 A/AA violation on the page. */
async function axeClean(page: Page) {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test('an administrator sets a rule, sees the dry run and holds a case; a learner reads the rules', async ({ browser, request, cast }) => {
  test.setTimeout(300_000);
  const caseId = await sentCase(request, cast);

  const { context, page } = await signedIn(browser, cast.admin);
  await openPage(page, '/admin/retention', page.getByTestId('retention-summary'));
  await expect(page.getByTestId('retention-summary')).toContainText('30 jours');

  // A rule: original files kept 45 days.
  await page.getByTestId('retention-source-days').fill('0');
  await page.getByTestId('retention-save').click();
  await expect(page.getByText('Cette valeur n’est pas autorisée').or(page.getByText("Cette valeur n'est pas autorisée"))).toBeVisible();
  await page.getByTestId('retention-source-days').fill('45');
  await page.getByTestId('retention-save').click();
  await expect(page.getByTestId('retention-summary')).toContainText('45 jours après le rendu');

  // The dry run: nothing is due yet, and it says so with the bytes it would free.
  await page.getByTestId('retention-preview').click();
  await expect(page.getByTestId('retention-preview-result')).toContainText(/0 suppression/);

  // A legal hold needs a case and a reason; it is listed with its reason, then released.
  await page.getByTestId('hold-case-id').fill(caseId);
  await page.getByTestId('hold-place').click();
  await expect(page.getByText('Ce champ est obligatoire').first()).toBeVisible();
  await page.getByTestId('hold-reason').fill('Réclamation en cours d’instruction');
  await page.getByTestId('hold-place').click();
  const hold = page.locator(`[data-testid="hold"][data-video-id="${caseId}"]`);
  await expect(hold).toContainText('Réclamation en cours d’instruction');
  await expect(hold).toContainText(`${cast.learner.firstName} ${cast.learner.lastName}`);

  // At 390 px in dark mode the page fits the width.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectFitsWidth(page);
  await axeClean(page);
  await page.setViewportSize({ width: 1440, height: 900 });

  await hold.getByTestId('hold-release').click();
  await expect(page.getByText('Aucun cas n’est conservé.')).toBeVisible();

  // What the storage holds: the case's files are counted.
  await openPage(page, '/admin/storage', page.getByTestId('storage-kinds'));
  await expect(page.getByTestId('storage-kinds').locator('[data-kind="sources"] td').nth(2)).not.toHaveText('0');
  await page.setViewportSize({ width: 390, height: 844 });
  await expectFitsWidth(page);
  await axeClean(page);
  await context.close();

  // The learner reads the rules in force in Settings → Privacy, in English.
  const learner = await signedIn(browser, cast.learner, { locale: 'en-GB' });
  await learner.page.goto('/settings/privacy');
  await expect(learner.page.getByTestId('privacy-retention')).toContainText('45 days after its prepared video was rendered', firstDraw);
  await expect(learner.page.getByTestId('privacy-retention')).toContainText('except a published best case');
  await learner.context.close();
});

test('an administrator places a legal hold from the list of cases, sees it there, and releases it', async ({ browser, request, cast }) => {
  test.setTimeout(300_000);
  const caseId = await sentCase(request, cast);

  const { context, page } = await signedIn(browser, cast.admin);
  // At 390 px in dark mode, as on a phone at night.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'dark' });
  const row = page.locator(`[data-testid="surgery-video-row"][data-video-id="${caseId}"]`);
  await openPage(page, `/admin/surgery-videos?q=${encodeURIComponent(cast.learner.lastName)}`, row);
  await expect(row.getByTestId('surgery-video-legal-hold')).toHaveCount(0);

  // The reason is required: the dialog says so and places nothing.
  await row.getByRole('button', { name: /^Mettre sous conservation légale le cas / }).click();
  const dialog = page.getByRole('dialog', { name: 'Mettre ce cas sous conservation légale ?' });
  await expect(dialog.getByTestId('legal-hold-case')).toContainText(`${cast.learner.firstName} ${cast.learner.lastName}`);
  await dialog.getByTestId('legal-hold-confirm').click();
  await expect(dialog.getByText('Ce champ est obligatoire')).toBeVisible();
  await expectFitsWidth(page);
  // Read as it rests, not under the pointer that just pressed it.
  await page.mouse.move(0, 0);
  await dialog.getByTestId('legal-hold-reason').focus();
  await axeClean(page);
  await dialog.getByTestId('legal-hold-reason').fill('Enquête du service juridique');
  await dialog.getByTestId('legal-hold-confirm').click();
  await expect(page.getByText('Le cas est sous conservation légale')).toBeVisible();
  await expect(dialog).toBeHidden();

  // Held: the list says so, with its reason, and offers to release it rather than to hold it again.
  await expect(row).toHaveAttribute('data-legal-hold', 'held');
  await expect(row.getByTestId('surgery-video-legal-hold')).toContainText('Conservation légale');
  await expect(row.getByTestId('surgery-video-legal-hold')).toContainText('Enquête du service juridique');
  await expect(row.getByTestId('surgery-video-hold')).toHaveCount(0);
  await expectFitsWidth(page);
  await axeClean(page);

  // The same hold is the retention page's, from the same API.
  await openPage(page, '/admin/retention', page.getByTestId('retention-summary'));
  await expect(page.locator(`[data-testid="hold"][data-video-id="${caseId}"]`)).toContainText('Enquête du service juridique');

  await openPage(page, `/admin/surgery-videos?q=${encodeURIComponent(cast.learner.lastName)}`, row);
  await row.getByTestId('surgery-video-hold-release').click();
  await expect(page.getByText('La conservation légale est levée')).toBeVisible();
  await expect(row).not.toHaveAttribute('data-legal-hold', 'held');
  await expect(row.getByTestId('surgery-video-legal-hold')).toHaveCount(0);
  await expect(row.getByTestId('surgery-video-hold')).toBeVisible();
  await context.close();
});
