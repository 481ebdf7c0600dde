import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import type { Role } from '@sutura/domain/roles';

/** Where the screenshots of every screen go (test-results is the Playwright output folder). */
export const SCREENS_DIR = path.resolve(import.meta.dirname, '..', 'test-results', 'screens');

/** The widths every screen is checked at (SPEC: phone and desktop) and both themes. */
export const SCREEN_SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1440, height: 900 },
] as const;
export const THEMES = ['light', 'dark'] as const;

export interface LayoutProblem {
  kind: 'page-overflow' | 'clipped-text';
  what: string;
  detail: string;
}

/**
 * What a person would see as broken on the current screen: the page wider than the window
 * (a sideways scroll), or text cut by the box that holds it (overflow hidden, an ellipsis).
 * Visually hidden text (1 px boxes for screen readers) and form fields are not text boxes.
 */
export function layoutProblems(page: Page): Promise<LayoutProblem[]> {
  return page.evaluate(() => {
    const problems: { kind: 'page-overflow' | 'clipped-text'; what: string; detail: string }[] = [];
    const describe = (el: Element) => {
      const id = el.id ? `#${el.id}` : '';
      const testId = el.getAttribute('data-testid');
      const classes = [...el.classList]
        .filter((c) => c.startsWith('Mui'))
        .slice(0, 2)
        .join('.');
      return `${el.tagName.toLowerCase()}${id}${testId ? `[data-testid=${testId}]` : ''}${classes ? `.${classes}` : ''}`;
    };
    const width = document.documentElement.clientWidth;
    const scrollWidth = document.documentElement.scrollWidth;
    if (scrollWidth > width + 1) {
      // Name the widest culprit: the deepest element that reaches past the window.
      const wide = [...document.body.querySelectorAll('*')].filter((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.right > width + 1 && el.checkVisibility();
      });
      problems.push({
        kind: 'page-overflow',
        what: wide.length ? describe(wide[wide.length - 1]!) : 'html',
        detail: `page is ${scrollWidth}px wide in a ${width}px window`,
      });
    }
    for (const el of document.body.querySelectorAll('*')) {
      if (el.closest('input, textarea, select, [aria-hidden="true"], svg, .MuiTouchRipple-root, legend')) continue;
      const ownText = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim() !== '');
      if (!ownText || !el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
      const style = getComputedStyle(el);
      const rect = el.getBoundingClientRect();
      if (rect.width <= 2 || rect.height <= 2) continue;
      const clipsX = ['hidden', 'clip'].includes(style.overflowX) || style.textOverflow === 'ellipsis';
      const clipsY = ['hidden', 'clip'].includes(style.overflowY);
      const html = el as HTMLElement;
      const cutX = clipsX && html.scrollWidth > html.clientWidth + 1;
      const cutY = clipsY && html.scrollHeight > html.clientHeight + 2;
      if (cutX || cutY) {
        problems.push({
          kind: 'clipped-text',
          what: describe(el),
          detail: `"${el.textContent!.trim().slice(0, 60)}" needs ${html.scrollWidth}×${html.scrollHeight}px, has ${html.clientWidth}×${html.clientHeight}px`,
        });
      }
    }
    return problems;
  });
}

/**
 * Saves a screenshot of the current screen under test-results/screens/<name>.png and fails the
 * test when the screen overflows sideways or cuts text. Any spec may call it on its own screens.
 */
export async function checkScreen(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENS_DIR, `${name.replace(/[^\w.-]+/g, '_')}.png`), fullPage: true });
  expect.soft(await layoutProblems(page), `layout of ${name}`).toEqual([]);
}

/**
 * Moves to another page of the app without reloading it (the router follows popstate), then waits
 * for it to settle. The router keeps the page left on screen until the new one's code is there:
 * in the shell, the wait starts once the shell shows the new page (its menu's choice changed).
 */
export async function openInApp(page: Page, pathname: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, pathname);
  await page.waitForFunction(() => {
    const main = document.getElementById('main-content');
    return !main || main.dataset.pathname === window.location.pathname;
  });
  await settle(page);
}

/**
 * Waits until no skeleton, spinner or page loader is left, the fonts are in, and the transitions
 * and animations that end (a drawer, a collapse; not a spinner's endless turn) have ended.
 */
export async function settle(page: Page): Promise<void> {
  // In the page, in one go: each round trip to the browser costs on a busy machine.
  await page.evaluate(async () => {
    const frame = () => new Promise((done) => requestAnimationFrame(done));
    const until = async (ready: () => boolean, ms: number) => {
      const end = performance.now() + ms;
      while (!ready() && performance.now() < end) await frame();
    };
    await until(
      () =>
        !document.querySelector(
          '.MuiSkeleton-root, .MuiCircularProgress-root, [data-testid="page-loader"], [data-testid="route-skeleton"]',
        ),
      10_000,
    );
    await document.fonts.ready;
    // Two frames drawn (a change just made has started its transitions), then those that end have ended.
    await frame();
    await frame();
    await until(
      () =>
        document
          .getAnimations()
          .every((a) => a.playState !== 'running' || !Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity)),
      3_000,
    );
  });
}

/**
 * Texts of a chart that run into each other: the pairs of elements of `a` and `b` (or of `a`
 * among themselves) whose boxes overlap by more than a pixel, named by their texts.
 */
export async function overlappingTexts(a: Locator, b?: Locator): Promise<string[]> {
  const boxes = (l: Locator) =>
    l.evaluateAll((els) =>
      els.map((e) => {
        const r = e.getBoundingClientRect();
        return { text: e.textContent ?? '', left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      }),
    );
  const first = await boxes(a);
  const second = b ? await boxes(b) : first;
  const found: string[] = [];
  first.forEach((p, i) =>
    second.forEach((q, j) => {
      if (!b && j <= i) return;
      const x = Math.min(p.right, q.right) - Math.max(p.left, q.left);
      const y = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
      if (x > 1 && y > 1) found.push(`${p.text} × ${q.text}`);
    }),
  );
  return found;
}

/** The WCAG 2.2 A and AA rules axe-core checks (SPEC: every screen axe-clean). */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * The accessibility walk (screens.spec.ts): every screen is scanned by axe-core in two passes
 * that run side by side, English in the light theme and French in the dark theme, each at 1440 px
 * then 390 px: both themes, both languages and both widths on every screen, four scans each.
 */
export const A11Y_PASSES = [
  { locale: 'en-US', lang: 'en', theme: 'light' },
  { locale: 'fr-FR', lang: 'fr', theme: 'dark' },
] as const;
export type A11yPass = (typeof A11Y_PASSES)[number];
export const A11Y_WIDTHS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;

/** The cases the walk opens: made by the workflow helpers while the walk starts (screens.spec.ts, walkCases). */
export interface WalkCases {
  /** Saved, not sent: the learner's own list (the "mine" tab of /videos) shows it. */
  draft: string;
  /** Sent, claimed by the editor, in its steps phase with two steps. */
  preparing: string;
  /** Prepared, claimed by the expert. */
  analysing: string;
  /** Analysed, its self-assessment not given: its page invites the learner to rate the case first. */
  completed: string;
  /** Analysed and self-assessed: its result, self against expert. */
  rated: string;
  /** Two published best cases of the cases' surgery, with their steps. */
  bestCase: string;
  otherBestCase: string;
}

/** A screen of the walk: a path, or a path made from the walk's cases. */
export type WalkScreen = string | ((cases: WalkCases) => string);

/**
 * The screens each role reaches besides the pages of its menus (drawer, tab bar, settings list),
 * which the walk takes from the menus itself. Every tab of each is scanned too, and each role's
 * notifications panel and phone menu drawer.
 *
 * To add a screen: one line in its role's list, a path or a function of the walk's cases, e.g.
 *   learner: [..., (c) => `/videos/${c.rated}/double-review`],
 * A screen that needs a case in another state adds that case to WalkCases and to walkCases()
 * (screens.spec.ts), made through the API with the helpers of workflow.ts.
 */
export const WALK_SCREENS: { anonymous: string[] } & Record<Role, WalkScreen[]> = {
  anonymous: ['/auth/login', '/auth/sign-up', '/auth/forgot-password', '/auth/validate-email'],
  learner: [
    '/videos/add',
    '/my-account/edit-password',
    (c) => `/videos/${c.preparing}`,
    (c) => `/videos/${c.completed}`,
    (c) => `/videos/${c.rated}`,
    (c) => `/videos/${c.rated}/compare`,
    (c) => `/videos/${c.rated}/compare?with=${c.bestCase}`,
    (c) => `/best-cases/${c.bestCase}`,
    (c) => `/best-cases/${c.bestCase}/compare?with=${c.otherBestCase}`,
    '/my-stats',
    '/my-stats?tab=curves',
    '/settings/accessibility',
  ],
  editor: ['/videos/add', (c) => `/editor/${c.preparing}`, (c) => `/editor/${c.analysing}/complete`],
  expert: [(c) => `/expert/${c.analysing}`, (c) => `/expert/${c.completed}/complete`, '/my-calibration', '/programmes'],
  administrator: ['/videos', '/admin/best-cases/add', '/admin/calibration'],
  copil: ['/videos/add'],
};
