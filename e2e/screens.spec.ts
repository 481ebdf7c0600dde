import { expect, test, type Page } from '@playwright/test';
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
  learner: ['/dashboard', '/videos/add', '/my-account/edit-password'],
  editor: ['/dashboard', '/my-account/edit-password', '/videos/add'],
  expert: ['/dashboard', '/my-account/edit-password'],
  administrator: ['/dashboard', '/my-account/edit-password', '/videos', '/admin/best-cases/add'],
  copil: ['/dashboard', '/my-account/edit-password', '/videos/add'],
};
/** Pages whose content is the same for every role: checked for the first role that has them only, to keep the run short. */
const SAME_FOR_ALL =
  /^\/(settings\/(theme|lang|notifications|contact|condition|privacy|legal-notice|manage-cookies)|my-account\/edit-password)$/;

/** Every page of a role's menus (drawer, tabs, settings list) and its extra pages, once each. */
function pagesOf(role: Role): string[] {
  const menus = (['drawer', 'tabs', 'settings'] as const).flatMap((where) => menuFor([role], where).map((entry) => entry.path));
  return [...new Set([...EXTRA_PAGES[role], ...menus])];
}

test.describe.configure({ mode: 'serial' });

/** Checks the current screen in both themes: the theme follows the device's colour scheme, switched in place. */
async function checkBothThemes(page: Page, name: string): Promise<void> {
  for (const theme of THEMES) {
    await page.emulateMedia({ colorScheme: theme });
    await page.waitForTimeout(100);
    await checkScreen(page, `${name}`.replace('{theme}', theme));
  }
}

for (const size of SCREEN_SIZES) {
  test(`every screen of every role at ${size.width} px, light and dark: no sideways scroll, no cut text`, async ({ browser }) => {
    test.setTimeout(300_000);
    const context = await browser.newContext({ viewport: { width: size.width, height: size.height }, locale: 'fr-FR' });
    const page = await context.newPage();
    const combo = `${size.width}-{theme}`;

    for (const path of ['/auth/login', '/auth/sign-up', '/auth/forgot-password']) {
      await page.goto(path);
      await settle(page);
      await checkBothThemes(page, `${combo}-anonymous${path}`);
    }

    const checked = new Set<string>();
    for (const person of PEOPLE) {
      await page.emulateMedia({ colorScheme: 'light' });
      await signIn(page, person.email, password);
      await settle(page);
      const available = new Set<string>();
      for (const path of pagesOf(person.role)) {
        if (SAME_FOR_ALL.test(path) && checked.has(path)) continue;
        checked.add(path);
        await openInApp(page, path);
        // A page that does not exist yet (a later issue's) is left out of the menus: not checked here.
        if (await page.getByText(/Page introuvable/).count()) continue;
        available.add(path);
        await checkBothThemes(page, `${combo}-${person.role}${path}`);
      }
      expect(available.size, `${person.role} has pages`).toBeGreaterThan(1);
      if (person.role === 'learner') {
        await openInApp(page, '/videos');
        const card = page.getByTestId('video-card').first();
        if (await card.count()) {
          await card.getByRole('link').first().click();
          await settle(page);
          await checkBothThemes(page, `${combo}-learner-video-detail`);
        }
        await page.getByTestId('notification-bell').click();
        await settle(page);
        await checkBothThemes(page, `${combo}-notifications`);
        await page.keyboard.press('Escape');
      }
      // On a phone the menu is a drawer: a screen of its own, different for each role.
      if (size.width < 992) {
        await page.getByTestId('menu-toggle').click();
        await settle(page);
        await checkBothThemes(page, `${combo}-${person.role}-drawer`);
        await page.keyboard.press('Escape');
      }
      await page.goto('/auth/logout');
      await expect(page).toHaveURL(/\/auth\/login/);
    }
    await context.close();
  });
}
