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

/** An ellipse of a drawing measured on screen, in video coordinates (0 to 1 across the picture). */
export interface MeasuredEllipse {
  cx: number;
  cy: number;
  rx: number;
  ry: number;
}

/**
 * The last ellipse of the drawing layer `layer` (a data-testid: drawing-overlay, drawing-surface)
 * inside `within` (a CSS selector), measured against the picture of the player that holds it. The
 * picture's box is worked out from the video element alone (object-fit: contain). Measured only
 * once everything is laid out: the video knows its size, has a box, and the layer covers exactly
 * that picture (after a resize or a reload the layer follows a frame later); before that a
 * measurement would be meaningless (a picture 0 px wide gives NaN).
 */
export async function measureEllipse(page: Page, layer: string, within = 'body'): Promise<MeasuredEllipse> {
  const handle = await page.waitForFunction(
    ({ layer, within }) => {
      const overlay = document.querySelector(`${within} [data-testid="${layer}"]`);
      const video = overlay?.closest('[data-testid="video-player"]')?.querySelector('video');
      const ellipse = overlay?.querySelector('[data-kind="ellipse"] ellipse:last-of-type');
      if (!overlay || !video || !ellipse || !video.videoWidth || !video.videoHeight) return null;
      const r = video.getBoundingClientRect();
      if (r.width < 1 || r.height < 1) return null;
      const scale = Math.min(r.width / video.videoWidth, r.height / video.videoHeight);
      const pw = video.videoWidth * scale;
      const ph = video.videoHeight * scale;
      const left = r.left + (r.width - pw) / 2;
      const top = r.top + (r.height - ph) / 2;
      const o = overlay.getBoundingClientRect();
      if (Math.abs(o.left - left) > 1 || Math.abs(o.top - top) > 1 || Math.abs(o.width - pw) > 1 || Math.abs(o.height - ph) > 1)
        return null;
      const e = ellipse.getBoundingClientRect();
      if (e.width < 1 || e.height < 1) return null;
      return { cx: (e.left + e.width / 2 - left) / pw, cy: (e.top + e.height / 2 - top) / ph, rx: e.width / 2 / pw, ry: e.height / 2 / ph };
    },
    { layer, within },
    { timeout: 15_000 },
  );
  return (await handle.jsonValue())!;
}

/**
 * The page fits its window's width: nothing scrolls sideways but what has a scroller of its own.
 * Polled: after a change of the window's size the page takes a render or two to lay itself out
 * again (the menu folds away, the tables change their columns), as it does for a person.
 */
export async function expectFitsWidth(page: Page, what = 'the page'): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), {
      message: `${what} scrolls sideways by (px)`,
    })
    .toBeLessThanOrEqual(0);
}
