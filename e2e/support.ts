import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';

/** The newest mail to an address in the running server's outbox, and its 8-digit code. */
export async function codeFromOutbox(email: string, after = 0): Promise<string> {
  const outbox = path.join(process.env.E2E_DATA_DIR!, 'outbox');
  const safe = email.replace(/[^a-zA-Z0-9@._-]/g, '_');
  let code: string | undefined;
  await expect
    .poll(
      async () => {
        const files = (await readdir(outbox).catch(() => [] as string[])).filter((f) => f.endsWith(`-${safe}.eml`)).sort();
        if (files.length <= after) return undefined;
        const text = await readFile(path.join(outbox, files.at(-1)!), 'utf8');
        code = /^\s{4}(\d{8})\s*$/m.exec(text)?.[1];
        return code;
      },
      { timeout: 20_000 },
    )
    .toMatch(/^\d{8}$/);
  return code!;
}

/** A text field by its accessible name (labels of required fields also show an asterisk). */
export function field(page: Page, name: string) {
  return page.getByRole('textbox', { name, exact: true });
}

/** Picks an option of an MUI select by its label and the option's visible text. */
export async function chooseOption(page: Page, label: string | RegExp, option: string | RegExp) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option }).first().click();
}

export async function signIn(page: Page, email: string, password: string) {
  await page.goto('/auth/login');
  await page.getByRole('textbox', { name: /^(adresse e-mail|email address)$/i }).fill(email);
  await page
    .getByLabel(/^(mot de passe|password)/i)
    .first()
    .fill(password);
  await page.getByRole('button', { name: /^(se connecter|sign in)$/i }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/**
 * Every Content-Security-Policy violation the page reports (Chromium logs each refused script,
 * style, image, media, worker or connection on the console). Assert it stays empty.
 */
export function watchCsp(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Content-Security-Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

/** Where the page's video player stands: its time in seconds, and whether it is paused. */
export function playerState(page: Page): Promise<{ time: number; paused: boolean }> {
  return page.locator('[data-testid="video-player"] video').evaluate((v: HTMLVideoElement) => ({ time: v.currentTime, paused: v.paused }));
}
