import { expect, test } from '@playwright/test';
import { signIn } from './support.ts';

// The demo learner of the embedded server: no analysed video without the demo videos, so every
// series of the radar says it has too little data, and the tables still name every series.
test('a learner opens the statistics and reads the radar and its comparison series in French and in English', async ({ page }) => {
  await signIn(page, 'learner@sutura.local', 'sutura2026');
  await page.getByRole('link', { name: 'Mes statistiques' }).first().click();
  await expect(page).toHaveURL(/\/my-stats$/);
  await expect(page.getByTestId('stats-radar').locator('svg').first()).toBeVisible();
  const table = page.getByTestId('stats-radar-table');
  for (const series of ['Chirurgien moyen', 'Moi aujourd’hui', 'Moi il y a 1 mois', 'Moi il y a 3 mois', 'Moi il y a 6 mois']) {
    await expect(table.getByRole('rowheader', { name: series })).toBeVisible();
  }
  await expect(page.getByTestId('stats-too-little')).toContainText('Trop peu de données');
  await page.getByTestId('compare-specialty').click();
  await expect(table.getByRole('rowheader', { name: 'Chirurgien moyen de ma spécialité' })).toBeVisible();

  await page.getByTestId('language-switcher').click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await expect(table.getByRole('rowheader', { name: 'Average surgeon of my specialty' })).toBeVisible();
  await expect(table.getByRole('rowheader', { name: 'Me 6 months ago' })).toBeVisible();
  await expect(page.getByTestId('stats-too-little')).toContainText('Too little data');

  // The demo learner goes back to French for the other specs.
  await page.getByTestId('language-switcher').click();
  await page.getByRole('menuitem', { name: 'Français' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
});
