import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import nodePath from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { menuFor } from '@sutura/domain/menu';
import type { Role } from '@sutura/domain/roles';
import {
  A11Y_PASSES,
  type A11yScan,
  checkScreen,
  openInApp,
  SCREEN_SIZES,
  settle,
  THEMES,
  WALK_EXTRA_SCREENS,
  WCAG_TAGS,
  type WalkCases,
} from './screens.ts';
import { signIn } from './support.ts';
import { analyseVideo, apiToken, makeClip, prepareVideo, sendVideo } from './workflow.ts';

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
  /^\/(settings\/(theme|lang|notifications|contact|condition|privacy|legal-notice|manage-cookies|accessibility)|my-account\/edit-password)$/;

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

// ---- Accessibility: every screen and tab of every role, axe-core with the WCAG 2.2 A/AA rules.

/** Three cases, one in each state a role works on (WalkCases), made as the people before would. */
async function walkCases(request: APIRequestContext): Promise<WalkCases> {
  const dir = mkdtempSync(nodePath.join(tmpdir(), 'sutura-e2e-walk-'));
  try {
    const clip = nodePath.join(dir, 'case.mp4');
    makeClip(clip, 6);
    const learner = 'learner@sutura.local';
    const [preparing, analysing, completed] = [
      await sendVideo(request, learner, clip),
      await sendVideo(request, learner, clip),
      await sendVideo(request, learner, clip),
    ] as [string, string, string];
    const steps = [
      { name: 'Dissection', start: 0.5, end: 2.5 },
      { name: 'Suture', start: 3, end: 5.5 },
    ];
    await Promise.all([
      prepareVideo(request, 'editor@sutura.local', learner, analysing, steps, { start: 0, end: 6 }),
      prepareVideo(request, 'editor@sutura.local', learner, completed, steps, { start: 0, end: 6 }),
    ]);
    await analyseVideo(request, 'expert@sutura.local', completed, 4);
    const expertHeaders = { Authorization: `Bearer ${await apiToken(request, 'expert@sutura.local')}` };
    expect((await request.post(`/v1/expert/videos/${analysing}/claim`, { headers: expertHeaders, data: {} })).status()).toBe(200);
    // The editor's case in its steps phase, two steps marked, not submitted.
    const headers = { Authorization: `Bearer ${await apiToken(request, 'editor@sutura.local')}` };
    const claim = await request.post(`/v1/editor/videos/${preparing}/claim`, { headers, data: {} });
    expect(claim.status()).toBe(200);
    const { fencingToken } = ((await claim.json()) as { data: { fencingToken: number } }).data;
    for (const [what, data] of [
      ['trims', { trims: [{ start: 0, end: 6 }] }],
      ['phase', { phase: 'steps' }],
      ['steps', { steps: steps.map((s) => ({ surgeryStepId: null, ...s })) }],
    ] as const) {
      const response = await request.put(`/v1/editor/videos/${preparing}/${what}`, { headers, data: { fencingToken, ...data } });
      expect(response.status(), await response.text()).toBe(200);
    }
    return { preparing, analysing, completed };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The serious and critical WCAG 2.2 A/AA violations axe-core finds on the screen as it is. */
async function axeFindings(page: Page, name: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${name}: ${v.id} (${v.impact}) on ${v.nodes.length} × ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')} — ${v.nodes[0]?.failureSummary?.split('\n')[1]?.trim() ?? ''}`,
    );
}

/** Scans the screen in each width and theme of the pass, then each of its other tabs the same way. */
async function scanScreen(page: Page, scans: readonly A11yScan[], name: string, found: string[]): Promise<number> {
  let count = 0;
  const scanAll = async (label: string) => {
    for (const scan of scans) {
      await page.setViewportSize({ width: scan.width, height: scan.height });
      await page.emulateMedia({ colorScheme: scan.theme });
      await page.waitForTimeout(150);
      const findings = await axeFindings(page, `${label} ${scan.width}px ${scan.theme}`);
      for (const finding of findings) console.log(finding);
      found.push(...findings);
      count += 1;
    }
  };
  await scanAll(name);
  const tabs = page.locator('main [role="tab"]');
  const tabCount = await tabs.count();
  for (let i = 0; i < tabCount; i += 1) {
    const tab = tabs.nth(i);
    if ((await tab.getAttribute('aria-selected')) === 'true' || !(await tab.isVisible())) continue;
    const label = (await tab.innerText()).trim().split('\n')[0];
    // Back to the first scan's width (a phone layout may cover the tabs with a panel of its own).
    await page.setViewportSize({ width: scans[0]!.width, height: scans[0]!.height });
    await page.keyboard.press('Escape');
    await tab.click();
    await settle(page);
    await scanAll(`${name} [tab ${label}]`);
  }
  return count;
}

test('every screen and tab of every role passes axe-core (WCAG 2.2 A/AA): no serious or critical violation', async ({
  browser,
  request,
}) => {
  // The walk takes 7–16 minutes on a 2-core machine: `npm run test:a11y` runs it (A11Y_WALK=1); the
  // default suite keeps the learner's axe checks of each spec and the layout walk above.
  test.skip(process.env.A11Y_WALK !== '1', 'the whole accessibility walk runs with npm run test:a11y');
  test.setTimeout(1_800_000);
  // A part of the walk when retrying one role (A11Y_WALK_ROLES=administrator,copil): the whole walk otherwise.
  const only = process.env.A11Y_WALK_ROLES?.split(',');
  // One language's pass only (A11Y_WALK_LOCALES=fr-FR): both otherwise.
  const locales = process.env.A11Y_WALK_LOCALES?.split(',');
  const began = Date.now();
  const cases = await walkCases(request);
  console.log(`accessibility walk: cases ready after ${Math.round((Date.now() - began) / 1000)} s`);
  const found: string[] = [];
  let scans = 0;
  for (const pass of A11Y_PASSES.filter((p) => !locales || locales.includes(p.locale))) {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: pass.locale });
    const page = await context.newPage();
    for (const path of WALK_EXTRA_SCREENS.anonymous.map((screen) => screen(cases))) {
      await page.goto(path);
      await settle(page);
      scans += await scanScreen(page, pass.scans, `${pass.locale} anonymous ${path}`, found);
    }
    const scanned = new Set<string>();
    for (const person of PEOPLE.filter((p) => !only || only.includes(p.role))) {
      await page.setViewportSize({ width: 1440, height: 900 });
      await signIn(page, person.email, password);
      await settle(page);
      const paths = [...new Set([...pagesOf(person.role), ...WALK_EXTRA_SCREENS[person.role].map((screen) => screen(cases))])];
      for (const path of paths) {
        // The same page for every role: scanned for the first only.
        if (SAME_FOR_ALL.test(path) && scanned.has(path)) continue;
        scanned.add(path);
        await page.setViewportSize({ width: 1440, height: 900 });
        await openInApp(page, path);
        await expect(page.getByText(/^(Page introuvable|Page not found)$/), `${person.role} opens ${path}`).toHaveCount(0);
        scans += await scanScreen(page, pass.scans, `${pass.locale} ${person.role} ${path}`, found);
        console.log(`  ${Math.round((Date.now() - began) / 1000)} s: ${pass.locale} ${person.role} ${path}`);
      }
      // The notifications panel, and on a phone the menu drawer: screens of their own.
      await page.getByTestId('notification-bell').click();
      await settle(page);
      scans += await scanScreen(page, pass.scans.slice(0, 1), `${pass.locale} ${person.role} notifications`, found);
      await page.keyboard.press('Escape');
      await page.setViewportSize({ width: 390, height: 844 });
      await page.getByTestId('menu-toggle').click();
      await settle(page);
      // The drawer exists on a phone only: scanned in the pass's phone scans, or at 390 px in its first theme.
      const phoneScans = pass.scans.filter((scan) => scan.width < 992);
      const drawerScans = phoneScans.length ? phoneScans : [{ width: 390, height: 844, theme: pass.scans[0]!.theme }];
      scans += await scanScreen(page, drawerScans, `${pass.locale} ${person.role} drawer`, found);
      await page.keyboard.press('Escape');
      await page.goto('/auth/logout');
      await expect(page).toHaveURL(/\/auth\/login/);
    }
    await context.close();
  }
  console.log(`accessibility walk: ${scans} scans in ${Math.round((Date.now() - began) / 1000)} s`);
  expect(found).toEqual([]);
});
