import { expect, test, type Browser } from '@playwright/test';
import { menuFor } from '@sutura/domain/menu';
import type { Role } from '@sutura/domain/roles';
import { checkScreen, openInApp, SCREEN_SIZES, settle, THEMES } from './screens.ts';
import { signIn } from './support.ts';

const password = 'sutura2026';
const PEOPLE: { role: Role; email: string }[] = [
  { role: 'learner', email: 'learner@sutura.local' },
  { role: 'editor', email: 'editor@sutura.local' },
  { role: 'expert', email: 'expert@sutura.local' },
  { role: 'administrator', email: 'admin@sutura.local' },
  { role: 'copil', email: 'copil@sutura.local' },
];

/** Pages that are not in the menu but a person reaches: each role's own, and one it may not open. */
const EXTRA_PAGES: Record<Role, string[]> = {
  learner: ['/videos/add', '/my-account/edit-password'],
  editor: ['/my-account/edit-password', '/videos/add'],
  expert: ['/my-account/edit-password'],
  administrator: ['/my-account/edit-password', '/videos'],
  copil: ['/my-account/edit-password', '/videos/add'],
};

/** Every page of a role's menus (drawer, tabs, settings list) and its extra pages, once each. */
function pagesOf(role: Role): string[] {
  const menus = (['drawer', 'tabs', 'settings'] as const).flatMap((where) => menuFor([role], where).map((entry) => entry.path));
  return [...new Set([...menus, ...EXTRA_PAGES[role]])];
}

async function contextFor(browser: Browser, size: (typeof SCREEN_SIZES)[number], theme: (typeof THEMES)[number], locale: string) {
  return browser.newContext({ viewport: { width: size.width, height: size.height }, colorScheme: theme, locale });
}

test.describe.configure({ mode: 'serial' });

for (const size of SCREEN_SIZES) {
  for (const theme of THEMES) {
    test(`every screen of every role at ${size.width} px in the ${theme} theme: no sideways scroll, no cut text`, async ({ browser }) => {
      test.setTimeout(240_000);
      const context = await contextFor(browser, size, theme, 'fr-FR');
      const page = await context.newPage();
      const combo = `${size.width}-${theme}`;

      for (const path of ['/auth/login', '/auth/sign-up', '/auth/forgot-password']) {
        await page.goto(path);
        await settle(page);
        await checkScreen(page, `${combo}-anonymous${path}`);
      }

      for (const person of PEOPLE) {
        await signIn(page, person.email, password);
        await settle(page);
        const available = new Set<string>();
        for (const path of pagesOf(person.role)) {
          await openInApp(page, path);
          // A page that does not exist yet (a later issue's) is left out of the menus: not checked here.
          if (await page.getByText(/Page introuvable/).count()) continue;
          available.add(path);
          await checkScreen(page, `${combo}-${person.role}${path}`);
        }
        expect(available.size, `${person.role} has pages`).toBeGreaterThan(3);
        if (person.role === 'learner') {
          await openInApp(page, '/videos');
          const card = page.getByTestId('video-card').first();
          if (await card.count()) {
            await card.getByRole('link').first().click();
            await settle(page);
            await checkScreen(page, `${combo}-learner-video-detail`);
          }
        }
        // The drawer, on a phone, and the notifications panel are screens too.
        if (size.width < 992) {
          await page.getByTestId('menu-toggle').click();
          await settle(page);
          await checkScreen(page, `${combo}-${person.role}-drawer`);
          await page.keyboard.press('Escape');
        }
        await page.getByTestId('notification-bell').click();
        await settle(page);
        await checkScreen(page, `${combo}-${person.role}-notifications`);
        await page.keyboard.press('Escape');
        await page.goto('/auth/logout');
        await expect(page).toHaveURL(/\/auth\/login/);
      }
      await context.close();
    });
  }
}
