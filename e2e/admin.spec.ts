import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { chooseOption, expectFitsWidth, signIn } from './support.ts';
import { password } from './workflow.ts';

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function openUser(page: Page, managed: string) {
  await page.goto('/admin/users');
  await page.getByRole('textbox', { name: 'Rechercher' }).fill(managed);
  await expect(page.getByTestId('admin-users-count')).toHaveText('1 personne');
  const card = page.getByTestId('admin-user').filter({ hasText: managed });
  await expect(card).toHaveCount(1);
  return card;
}

async function setEditor(page: Page, managed: string, on: boolean) {
  const card = await openUser(page, managed);
  await card.getByTestId('admin-user-roles').click();
  const dialog = page.getByRole('dialog', { name: /Rôles de Julien Moreau/ });
  const editor = dialog.getByRole('checkbox', { name: 'Préparateur' });
  if (on) await editor.check();
  else await editor.uncheck();
  await dialog.getByTestId('roles-save').click();
  await expect(dialog).toBeHidden();
  await expect(card.getByTestId('admin-user-role-editor')).toHaveCount(on ? 1 : 0);
}

test('an administrator searches a person, gives a role, deactivates and reactivates them, then reads and exports the audit log', async ({
  page,
  request,
  cast,
}) => {
  // The administrator of this spec manages its second learner (Julien Moreau).
  const managed = cast.learner2.email;
  const admin = cast.admin.email;
  await signIn(page, admin, password);
  await page.getByRole('link', { name: 'Administration' }).first().click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByTestId('admin-count-users-value')).toHaveText(/^\d+$/);
  await expect(page.getByTestId('admin-count-waitingPreparation')).toHaveAttribute(
    'href',
    '/admin/surgery-videos?status=pending_preparation',
  );
  // The month counted is the installation's, named with its time zone.
  await expect(page.getByTestId('admin-count-uploadedThisMonth-hint')).toContainText('heure de Europe/Paris');

  await setEditor(page, managed, true);

  const card = await openUser(page, managed);
  await card.getByTestId('admin-user-deactivate').click();
  await page.getByRole('dialog').getByTestId('deactivate-confirm').click();
  await expect(card.getByTestId('admin-user-state')).toHaveText('Désactivé');
  const refused = await request.post('/v1/auth', { data: { email: managed, password } });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error.code).toBe('ACCOUNT_DEACTIVATED');

  await card.getByTestId('admin-user-reactivate').click();
  await expect(card.getByTestId('admin-user-state')).toHaveText('Actif');
  expect((await request.post('/v1/auth', { data: { email: managed, password } })).status()).toBe(200);
  await setEditor(page, managed, false);

  // The audit log lists these changes, filtered by family and by person, and exports them; it says
  // which clock its days and times follow.
  await page.goto('/admin/audit');
  await expect(page.getByTestId('audit-time-zone')).toContainText('Europe/Paris');
  await chooseOption(page, 'Action', 'Comptes');
  await page.getByRole('textbox', { name: 'Personne (e-mail ou nom)' }).fill(admin);
  const actions = page.getByTestId('audit-row-action-id');
  await expect(actions.first()).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`actor=${literal(encodeURIComponent(admin))}`));
  await expect(actions.filter({ hasText: 'user.reactivated' })).not.toHaveCount(0);
  await expect(actions.filter({ hasText: 'user.deactivated' })).not.toHaveCount(0);
  await expect(actions.filter({ hasText: 'user.roles_changed' })).not.toHaveCount(0);
  for (const text of await actions.allTextContents()) expect(text).toMatch(/^user\./);
  // Each action reads as a label in the reader's language, its identifier under it.
  const deactivated = page.getByTestId('audit-row').filter({ hasText: 'user.deactivated' }).first();
  await expect(deactivated.getByTestId('audit-row-action-label')).toHaveText('Compte désactivé');
  await expect(deactivated.getByTestId('audit-row-entity-label')).toHaveText('Compte');
  await expect(deactivated.getByTestId('audit-row-entity-id')).toHaveText('user');
  // What the row is about reads as the person (name and email); its id is shown on demand, by keyboard too.
  const subject = deactivated.getByTestId('audit-row-subject');
  await expect(subject.getByTestId('audit-row-subject-label')).toHaveText(`Julien Moreau (${managed})`);
  await expect(subject.locator('code')).toBeHidden();
  const showId = subject.getByTestId('audit-row-subject-toggle');
  await expect(showId).toHaveText('Afficher l’id');
  await showId.focus();
  await page.keyboard.press('Enter');
  await expect(showId).toHaveAttribute('aria-expanded', 'true');
  await expect(subject.locator('code')).toHaveText(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  await expect(subject.getByRole('button', { name: 'Copier l’id' })).toBeVisible();

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('audit-download').click()]);
  expect(download.suggestedFilename()).toMatch(/^sutura-audit-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await readFile((await download.path())!, 'utf8');
  const lines = csv.replace(/^\uFEFF/, '').split('\r\n');
  expect(lines[0]).toBe(
    'Date (Europe/Paris);Id de l’auteur;E-mail de l’auteur;Nom de l’auteur;Action;Libellé de l’action;Entité;Libellé de l’entité;Objet;Id de l’entité;Adresse',
  );
  // What the row is about, named as on the page, then its id.
  expect(csv).toContain(
    `;${admin};Nadia Lefèvre;user.deactivated;Compte désactivé;user;Compte;Julien Moreau (${managed});${cast.learner2.id};`,
  );
  for (const line of lines.slice(1).filter(Boolean)) expect(line.split(';')[4]).toMatch(/^user\./);

  // One action, chosen by its label; then the same page in English.
  await chooseOption(page, 'Action', /^Compte réactivé/);
  await expect(page).toHaveURL(/action=user\.reactivated(&|$)/);
  await expect(page.getByRole('combobox', { name: 'Action' })).toHaveText('Compte réactivé');
  await expect(actions.first()).toHaveText('user.reactivated');
  for (const text of await actions.allTextContents()) expect(text).toBe('user.reactivated');
  await expect(page.getByTestId('audit-row-action-label').first()).toHaveText('Compte réactivé');
  await page.getByTestId('language-switcher').click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await expect(page.getByRole('combobox', { name: 'Action' })).toHaveText('Account reactivated');
  await expect(page.getByTestId('audit-row-action-label').first()).toHaveText('Account reactivated');
  await expect(page.getByTestId('audit-row-entity-label').first()).toHaveText('Account');
  await expect(actions.first()).toHaveText('user.reactivated');
});

for (const width of [390, 1440]) {
  test(`copil reads the administration at ${width} px and finds no control that writes`, async ({ page, cast }) => {
    await page.setViewportSize({ width, height: 900 });
    await signIn(page, cast.copil.email, password);
    for (const path of ['/admin', '/admin/users', '/admin/audit']) {
      await page.goto(path);
      const root = page.getByTestId('admin-page');
      await expect(root).toBeVisible();
      if (path === '/admin') await expect(page.getByTestId('admin-count-users-value')).toHaveText(/^\d+$/);
      if (path === '/admin/users') await expect(page.getByTestId('admin-user').first()).toBeVisible();
      if (path === '/admin/audit') await expect(page.getByTestId('audit-row').first()).toBeVisible();
      await expect(page.getByTestId('admin-read-only')).toBeVisible();
      await expect(root.locator('[data-write]')).toHaveCount(0);
      await expect(root.getByRole('checkbox')).toHaveCount(0);
      await expect(root.getByRole('switch')).toHaveCount(0);
      // Every button left reads: the export and filters, or moves between pages.
      for (const button of await root.getByRole('button').all()) {
        if (!(await button.isEnabled())) continue;
        const reads = (await button.getAttribute('data-read')) !== null || (await button.locator('xpath=ancestor::nav').count()) > 0;
        expect(reads, (await button.textContent()) ?? '').toBe(true);
      }
      // The page fits the screen: nothing but the audit table's own scroller scrolls sideways.
      await expectFitsWidth(page);
    }
  });
}
