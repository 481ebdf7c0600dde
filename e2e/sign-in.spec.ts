import { expect, test } from './fixtures.ts';

/**
 * The sign-in form (drawn without a form library, validated by the shared schema): checked at the
 * submit, then at each change; the first wrong field gets the focus; the server's refusal shows.
 */
test('the sign-in form validates at the submit, then as one types, and shows a refusal', async ({ page, cast }) => {
  await page.goto('/auth/login');
  const email = page.getByRole('textbox', { name: /^adresse e-mail/i });
  const password = page.getByLabel(/^mot de passe/i).first();
  const messages = page.locator('.MuiFormHelperText-root');

  await email.fill('not-an-email');
  await expect(messages).toHaveCount(0);
  await email.fill('');
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(messages).toHaveText(['Ce champ est obligatoire', 'Ce champ est obligatoire']);
  await expect(email).toBeFocused();
  await expect(email).toHaveAttribute('aria-invalid', 'true');

  await email.fill('not-an-email');
  await expect(messages).toHaveText(['Votre e-mail doit être une adresse e-mail valide', 'Ce champ est obligatoire']);
  await email.fill(cast.learner.email);
  await password.fill('wrong-password');
  await expect(messages).toHaveCount(0);

  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page.getByRole('alert')).toHaveText('Votre e-mail ou votre mot de passe est incorrect, veuillez réessayer');
  await expect(page).toHaveURL(/\/auth\/login$/);

  await password.fill(cast.learner.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});
