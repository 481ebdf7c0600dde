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

/** Moves to another page of the app without reloading it (the router follows popstate), then waits for it to settle. */
export async function openInApp(page: Page, pathname: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, pathname);
  await settle(page);
}

/** Waits until no skeleton, spinner or page loader is left, and the fonts are in. */
export async function settle(page: Page): Promise<void> {
  await page
    .waitForFunction(() => !document.querySelector('.MuiSkeleton-root, .MuiCircularProgress-root, [data-testid="page-loader"]'), null, {
      timeout: 10_000,
    })
    .catch(() => {});
  await page.evaluate(() => document.fonts.ready);
  // Transitions (drawer, collapses) end.
  await page.waitForTimeout(250);
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
 * The ways each screen is scanned. One pass per language (the signed-in people follow the
 * browser's language), the width and theme switched in place within it.
 *
 * By default two scans per screen, English light at 1440 px and French dark at 390 px: both
 * themes, both languages and both widths are met on every screen, and the walk stays within
 * about five minutes (four scans per screen took about twice as long, too much for every CI run).
 * A11Y_WALK_FULL=1 scans the pairwise cover of the 2×2×2 matrix instead, four scans per screen
 * (every theme meets every language, every theme every width, every language every width).
 */
export interface A11yScan {
  width: number;
  height: number;
  theme: 'light' | 'dark';
}
const DESKTOP = { width: 1440, height: 900 } as const;
const PHONE = { width: 390, height: 844 } as const;
export const A11Y_PASSES: readonly { locale: string; scans: readonly A11yScan[] }[] =
  process.env.A11Y_WALK_FULL === '1'
    ? [
        {
          locale: 'en-US',
          scans: [
            { ...DESKTOP, theme: 'light' },
            { ...PHONE, theme: 'dark' },
          ],
        },
        {
          locale: 'fr-FR',
          scans: [
            { ...DESKTOP, theme: 'dark' },
            { ...PHONE, theme: 'light' },
          ],
        },
      ]
    : [
        { locale: 'en-US', scans: [{ ...DESKTOP, theme: 'light' }] },
        { locale: 'fr-FR', scans: [{ ...PHONE, theme: 'dark' }] },
      ];

/** The cases the walk opens: made by the workflow helpers before it starts. */
export interface WalkCases {
  /** Sent, claimed by the editor, in its steps phase with two steps. */
  preparing: string;
  /** Prepared, claimed by the expert. */
  analysing: string;
  /** Analysed: its results are out. */
  completed: string;
}

/**
 * Screens outside the menus that each role reaches (a case, a completion page, a form): the walk
 * scans them after every page of the role's menus, each tab of each. A new screen is a new line.
 */
export const WALK_EXTRA_SCREENS: Record<'anonymous' | Role, ((cases: WalkCases) => string)[]> = {
  anonymous: [() => '/auth/login', () => '/auth/sign-up', () => '/auth/forgot-password', () => '/auth/validate-email'],
  learner: [() => '/videos/add', () => '/my-account/edit-password', (c) => `/videos/${c.preparing}`, (c) => `/videos/${c.completed}`],
  editor: [(c) => `/editor/${c.preparing}`, (c) => `/editor/${c.analysing}/complete`],
  expert: [(c) => `/expert/${c.analysing}`, (c) => `/expert/${c.completed}/complete`],
  administrator: [() => '/admin/best-cases/add'],
  copil: [],
};
