import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import nodePath from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Page } from '@playwright/test';
import { menuFor } from '@sutura/domain/menu';
import type { Role } from '@sutura/domain/roles';
import {
  A11Y_PASSES,
  A11Y_WIDTHS,
  type A11yPass,
  layoutProblems,
  openInApp,
  SCREENS_DIR,
  settle,
  WALK_SCREENS,
  WCAG_TAGS,
  type WalkCases,
} from './screens.ts';
import { analysedCase, preparedCase } from './cases.ts';
import { type Cast, expect, test } from './fixtures.ts';
import { signIn } from './support.ts';
import { analyseVideo, apiToken, caseSurgery, makeClip, prepareVideo, publishBestCase, saveVideo, sendVideo } from './workflow.ts';

/** The people the screens are checked as: one of each role, from the spec's cast (e2e/fixtures.ts). */
const PEOPLE: { role: Role; who: keyof Cast }[] = [
  { role: 'learner', who: 'learner' },
  { role: 'editor', who: 'editor' },
  { role: 'expert', who: 'expert' },
  { role: 'administrator', who: 'admin' },
  { role: 'copil', who: 'copil' },
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

// The walk's parts and the states beyond it run side by side, one per worker, each worker on a
// server and people of its own (e2e/fixtures.ts).
test.describe.configure({ mode: 'parallel' });

/**
 * The cases, best cases and retired organ the screens show (walkCases, retiredOrgan), made once on
 * the spec's server while the walk starts: the lists, the case pages and the vocabularies then hold
 * what a server in use holds.
 */
let states: { organ: Promise<void>; cases?: Promise<WalkCases> } | undefined;
function walkStates(request: APIRequestContext, cast: Cast, withCases: boolean): { organ: Promise<void>; cases?: Promise<WalkCases> } {
  if (!states) {
    const organ = retiredOrgan(request, cast.admin.email);
    organ.catch(() => (states = undefined));
    states = { organ };
  }
  if (withCases && !states.cases) {
    const cases = walkCases(request, cast);
    cases.catch(() => states && (states.cases = undefined));
    states.cases = cases;
  }
  return states;
}

// ---- Accessibility and layout: every screen and tab of every role, axe-core with the WCAG 2.2 A/AA
// rules, and the layout checks (no sideways scroll, no cut text: layoutProblems in screens.ts) on
// the same screen at each width, in each pass's language and theme.
//
// Runs in the default suite (`npm test`); `npm run test:a11y` runs it alone. The screens are the
// pages of each role's menus (a page added to a menu is walked without more) and the lists of
// WALK_SCREENS in screens.ts: adding a screen is one line there. Each screen is opened once per
// pass, inside the app (no reload), and scanned at 1440 px then 390 px; the two passes (English,
// light; French, dark) run side by side, each role signed in once for both.

/** A retired organ in the vocabularies, so that the walk reads how a retired term is drawn. */
async function retiredOrgan(request: APIRequestContext, adminEmail: string): Promise<void> {
  const headers = { Authorization: `Bearer ${await apiToken(request, adminEmail)}` };
  const suffix = Date.now().toString(36);
  const created = await request.post('/v1/admin/vocabularies/organs', {
    headers,
    data: { nameFr: `Organe retiré ${suffix}`, nameEn: `Retired organ ${suffix}`, icon: 'kidney' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = ((await created.json()) as { data: { id: string } }).data;
  const retired = await request.post(`/v1/admin/vocabularies/organs/${id}/retire`, { headers, data: {} });
  expect(retired.status(), await retired.text()).toBe(200);
}

/** A saved case, two analysed cases, one being prepared, one being analysed, and two best cases, made as the people before would. */
async function walkCases(request: APIRequestContext, cast: Cast): Promise<WalkCases> {
  const dir = mkdtempSync(nodePath.join(tmpdir(), 'sutura-e2e-walk-'));
  try {
    const clip = nodePath.join(dir, 'case.mp4');
    makeClip(clip, 6);
    const learner = cast.learner.email;
    const surgery = await caseSurgery(request);
    const [draft, preparing, analysing, completed, rated, bestCase, otherBestCase] = await Promise.all([
      saveVideo(request, learner, clip),
      sendVideo(request, learner, clip),
      sendVideo(request, learner, clip),
      sendVideo(request, learner, clip),
      sendVideo(request, learner, clip),
      publishBestCase(request, cast.admin.email, clip, surgery, 'Walk A', [0, 2, 4]),
      publishBestCase(request, cast.admin.email, clip, surgery, 'Walk B', [0, 3]),
    ]);
    // Steps of the surgery's vocabulary: the comparison matches them with the best cases'.
    const steps = [
      { surgeryStepId: surgery.steps[0]!.id, name: '', start: 0.5, end: 2.5 },
      { surgeryStepId: surgery.steps[1]!.id, name: '', start: 3, end: 5.5 },
    ];
    await Promise.all(
      [analysing, completed, rated].map((id) => prepareVideo(request, cast.editor.email, learner, id, steps, { start: 0, end: 6 })),
    );
    await analyseVideo(request, cast.expert.email, completed, 4);
    await analyseVideo(request, cast.expert.email, rated, 3);
    const learnerHeaders = { Authorization: `Bearer ${await apiToken(request, learner)}` };
    const kpiRatings = { depthPerception: 4, bimanualDexterity: 3, efficiency: 4, tissueHandling: 2, autonomy: 3 };
    const selfRated = await request.put(`/v1/videos/${rated}/self-assessment`, {
      headers: learnerHeaders,
      data: { kpiRatings, globalRating: 3 },
    });
    expect(selfRated.status(), await selfRated.text()).toBe(200);
    const expertHeaders = { Authorization: `Bearer ${await apiToken(request, cast.expert.email)}` };
    expect((await request.post(`/v1/expert/videos/${analysing}/claim`, { headers: expertHeaders, data: {} })).status()).toBe(200);
    // The editor's case in its steps phase, two steps marked, not submitted.
    const headers = { Authorization: `Bearer ${await apiToken(request, cast.editor.email)}` };
    const claim = await request.post(`/v1/editor/videos/${preparing}/claim`, { headers, data: {} });
    expect(claim.status()).toBe(200);
    const { fencingToken } = ((await claim.json()) as { data: { fencingToken: number } }).data;
    for (const [what, data] of [
      ['trims', { trims: [{ start: 0, end: 6 }] }],
      ['phase', { phase: 'steps' }],
      ['steps', { steps: steps.map((s) => ({ ...s, surgeryStepId: null, name: s.start < 1 ? 'Dissection' : 'Suture' })) }],
    ] as const) {
      const response = await request.put(`/v1/editor/videos/${preparing}/${what}`, { headers, data: { fencingToken, ...data } });
      expect(response.status(), await response.text()).toBe(200);
    }
    return { draft, preparing, analysing, completed, rated, bestCase, otherBestCase };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What each role is walked as: its language and theme left to the browser, as the passes set them. */
async function followTheBrowser(request: APIRequestContext, email: string): Promise<void> {
  const headers = { Authorization: `Bearer ${await apiToken(request, email)}` };
  const current = ((await (await request.get('/v1/users/preferences', { headers })).json()) as { data: { preferences: object } }).data;
  const saved = await request.put('/v1/users/preferences', { headers, data: { ...current.preferences, langCode: 'auto', theme: 'auto' } });
  expect(saved.status(), await saved.text()).toBe(200);
}

/** One pass's browser page, and what it found. */
interface Walker {
  pass: A11yPass;
  page: Page;
  found: string[];
  scans: number;
  /** Milliseconds spent in axe-core's scans. */
  scanning: number;
}

/** axe-core's script, the very one @axe-core/playwright injects. */
const AXE_SOURCE = (createRequire(fileURLToPath(import.meta.resolve('@axe-core/playwright')))('axe-core') as { source: string }).source;

interface AxeViolation {
  id: string;
  impact?: string | null;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/**
 * The serious and critical WCAG 2.2 A/AA violations axe-core finds on the screen as it is, and
 * the page's language. axe-core is put in the page once (the walk moves inside the app without
 * reloading it) and run there, only its violations sent back.
 */
async function axeFindings(page: Page, name: string): Promise<{ findings: string[]; lang: string }> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const { violations, lang } = await page.evaluate(async (tags) => {
    const { axe } = window as unknown as {
      axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> };
    };
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return {
      lang: document.documentElement.lang,
      violations: result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })) })),
    };
  }, WCAG_TAGS);
  const findings = violations.map(
    (v) =>
      `${name}: ${v.id} (${v.impact}) on ${v.nodes.length} × ${v.nodes
        .slice(0, 3)
        .map((n) => n.target.join(' '))
        .join(' | ')} — ${v.nodes[0]?.failureSummary?.split('\n')[1]?.trim() ?? ''}`,
  );
  return { findings, lang };
}

/** The window at another width, and the screen settled in its new layout. */
async function resize(page: Page, size: { width: number; height: number }): Promise<void> {
  if (page.viewportSize()?.width === size.width) return;
  await page.setViewportSize(size);
  await page.waitForFunction((width) => window.innerWidth === width, size.width);
  await settle(page);
  // Chromium keeps, for each style sheet, the rules its media queries select at the width it has
  // when it reads the sheet. A sheet the app added rules to while the window changed size has been
  // seen keeping the previous width's selection (a desktop's two columns at 390 px) until its next
  // change. The walk measures what a person would see once the window has its size: each sheet is
  // read again now (a rule added and taken away), and the screen settles in what follows.
  await page.evaluate(() => {
    for (const sheet of document.styleSheets) {
      try {
        const end = sheet.cssRules.length;
        sheet.insertRule('#a11y-walk-reread {}', end);
        sheet.deleteRule(end);
      } catch {
        // A sheet of another origin cannot be read (none today).
      }
    }
  });
  await settle(page);
}

/**
 * Scans the screen as it is at each width of the walk (or those given), in the pass's language and
 * theme: axe-core, then the layout (a screenshot kept in test-results/screens where it fails).
 * `page`: the screen is a page as its address opens it (no tab chosen, no panel open), which a
 * reload shows again as it was.
 */
async function scanWidths(
  walker: Walker,
  name: string,
  widths: readonly { width: number; height: number }[] = A11Y_WIDTHS,
  { page = false } = {},
): Promise<void> {
  for (const size of widths) {
    await resize(walker.page, size);
    const label = `${walker.pass.locale} ${walker.pass.theme} ${name} ${size.width}px`;
    let scan = await scanOnce(walker, label);
    const measureAgain = async (how: string, redraw: () => Promise<void>) => {
      await redraw();
      const again = await scanOnce(walker, label);
      const gone = scan.problems.filter((p) => !again.problems.some((q) => q.kind === p.kind && q.what === p.what));
      if (gone.length) console.log(`${label}: gone ${how}: ${gone.map((p) => `${p.kind} ${p.what}`).join('; ')}`);
      scan = again;
    };
    // A screen Chromium had laid out with the previous width's media rules (seen after resizes on
    // a busy machine: a desktop's grid columns and paddings at 390 px, the phone's tab bar drawn
    // by the app's script at its right width beside them) is measured again, after the window
    // has been resized anew (a pixel wider, then back), then, if still there, after the page has
    // been opened anew at this width; a layout fault of the app's is still there then. What went
    // away, and how, is said in the output.
    if (scan.problems.length) {
      await measureAgain('once the window was resized anew', async () => {
        await walker.page.setViewportSize({ ...size, width: size.width + 1 });
        await resize(walker.page, size);
      });
    }
    if (scan.problems.length && page) {
      await measureAgain('once the page was opened anew at this width', async () => {
        await walker.page.reload();
        await settle(walker.page);
      });
    }
    expect(scan.lang, `${label}: the page's language`).toBe(walker.pass.lang);
    for (const finding of scan.findings) console.log(finding);
    walker.found.push(...scan.findings);
    if (scan.problems.length) {
      mkdirSync(SCREENS_DIR, { recursive: true });
      await walker.page.screenshot({ path: nodePath.join(SCREENS_DIR, `${label.replace(/[^\w.-]+/g, '_')}.png`), fullPage: true });
      walker.found.push(...scan.problems.map((p) => `${label}: layout ${p.kind} ${p.what} — ${p.detail}`));
    }
    walker.scans += 1;
  }
}

/** axe-core, then the layout, on the screen as it is. */
async function scanOnce(walker: Walker, label: string) {
  const started = Date.now();
  const { findings, lang } = await axeFindings(walker.page, label);
  walker.scanning += Date.now() - started;
  return { findings, lang, problems: await layoutProblems(walker.page) };
}

/** Scans the screen, then each of its other tabs (opened at 1440 px: a phone layout may cover them with a panel of its own). */
async function scanScreen(walker: Walker, name: string): Promise<void> {
  const { page } = walker;
  await scanWidths(walker, name, A11Y_WIDTHS, { page: true });
  const tabs = page.locator('main [role="tab"]');
  const tabCount = await tabs.count();
  for (let i = 0; i < tabCount; i += 1) {
    const tab = tabs.nth(i);
    await resize(page, A11Y_WIDTHS[0]);
    if ((await tab.getAttribute('aria-selected')) === 'true' || !(await tab.isVisible())) continue;
    const label = (await tab.innerText()).trim().split('\n')[0];
    await page.keyboard.press('Escape');
    await tab.click();
    await settle(page);
    await scanWidths(walker, `${name} [tab ${i + 1}: ${label}]`);
  }
}

/**
 * The order the roles are walked in: a page whose content is the same for every role
 * (SAME_FOR_ALL) is scanned for the first role of this order that has it, whichever part walks it.
 */
const ROLE_ORDER: Role[] = ['administrator', 'copil', 'learner', 'editor', 'expert'];

/** The pages a role's walk opens, the cases' pages once the cases are made. */
function walkPaths(role: Role, cases: WalkCases | undefined): string[] {
  const before = new Set(ROLE_ORDER.slice(0, ROLE_ORDER.indexOf(role)).flatMap((other) => staticPaths(other)));
  return [
    ...new Set([...staticPaths(role), ...WALK_SCREENS[role].flatMap((screen) => (typeof screen === 'string' ? [] : [screen(cases!)]))]),
  ].filter((path) => !(SAME_FOR_ALL.test(path) && before.has(path)));
}
function staticPaths(role: Role): string[] {
  return [
    '/dashboard',
    ...pagesOf(role),
    '/my-account/edit-password',
    ...WALK_SCREENS[role].flatMap((screen) => (typeof screen === 'string' ? [screen] : [])),
  ];
}

/**
 * The walk in two parts of about the same length, run side by side: the screens of the visitor
 * and of the roles that need no case, then the roles whose screens show cases.
 */
const WALK_PARTS: { who: string; anonymous: boolean; roles: Role[] }[] = [
  { who: 'the visitor, the administrator and the copil', anonymous: true, roles: ['administrator', 'copil'] },
  { who: 'the learner, the editor and the expert', anonymous: false, roles: ['learner', 'editor', 'expert'] },
];

for (const part of WALK_PARTS) {
  test(`every screen and tab of ${part.who} passes axe-core (WCAG 2.2 A/AA) with no sideways scroll or cut text, in both themes, both languages, at 1440 and 390 px`, async ({
    browser,
    request,
    cast,
  }) => {
    test.setTimeout(600_000);
    const began = Date.now();
    const elapsed = () => `${Math.round((Date.now() - began) / 1000)} s`;
    for (const role of part.roles) await followTheBrowser(request, cast[PEOPLE.find((p) => p.role === role)!.who].email);
    // The cases are made while the screens that need none are walked.
    const needsCases = part.roles.some((role) => WALK_SCREENS[role].some((screen) => typeof screen === 'function'));
    const made = walkStates(request, cast, needsCases);
    await made.organ;
    const walkers: Walker[] = A11Y_PASSES.map((pass) => ({ pass, page: undefined as unknown as Page, found: [], scans: 0, scanning: 0 }));

    /**
     * Each pass in a context of its own language and theme, signed in there (each its own session:
     * a session's token is renewed as it is used, which would sign out a second browser sharing it).
     */
    const inContexts = async (who: keyof Cast | null, walk: (walker: Walker) => Promise<void>) => {
      const contexts = await Promise.all(
        walkers.map(async (walker) => {
          const context = await browser.newContext({ viewport: A11Y_WIDTHS[0], locale: walker.pass.locale });
          walker.page = await context.newPage();
          await walker.page.emulateMedia({ colorScheme: walker.pass.theme });
          if (who) await signIn(walker.page, cast[who].email, cast[who].password);
          return context;
        }),
      );
      try {
        await Promise.all(walkers.map(walk));
      } finally {
        await Promise.all(contexts.map((context) => context.close()));
      }
    };

    if (part.anonymous) {
      await inContexts(null, async (walker) => {
        for (const [index, path] of WALK_SCREENS.anonymous.entries()) {
          await walker.page.goto(path);
          await settle(walker.page);
          await scanScreen(walker, `anonymous ${path}`);
          if (index === 0) console.log(`  ${elapsed()}: ${walker.pass.locale} anonymous`);
        }
      });
    }

    for (const role of part.roles) {
      const person = PEOPLE.find((p) => p.role === role)!;
      const cases = WALK_SCREENS[role].some((screen) => typeof screen === 'function') ? await made.cases : undefined;
      const paths = walkPaths(role, cases);
      await inContexts(person.who, async (walker) => {
        const { page } = walker;
        // Signed in, on the dashboard: every screen is then opened inside the app.
        for (const path of paths) {
          await resize(page, A11Y_WIDTHS[0]);
          await openInApp(page, path);
          await expect(page.getByText(/^(Page introuvable|Page not found)$/), `${role} opens ${path}`).toHaveCount(0);
          await scanScreen(walker, `${role} ${path}`);
        }
        // The notifications panel, and on a phone the menu drawer: screens of their own, each
        // opened at the width it is scanned at (the window is never resized under an open panel:
        // Chromium was seen laying out the page beneath at the previous width's rules then).
        for (const size of A11Y_WIDTHS) {
          await resize(page, size);
          await page.getByTestId('notification-bell').click();
          await expect(page.locator('#notifications-title')).toBeVisible();
          await settle(page);
          await scanWidths(walker, `${role} notifications`, [size]);
          await page.keyboard.press('Escape');
          await expect(page.locator('#notifications-title')).toBeHidden();
          await settle(page);
        }
        await resize(page, A11Y_WIDTHS[1]);
        await page.getByTestId('menu-toggle').click();
        await settle(page);
        await scanWidths(walker, `${role} drawer`, [A11Y_WIDTHS[1]]);
        await page.keyboard.press('Escape');
        console.log(
          `  ${elapsed()}: ${walker.pass.locale} ${role}, ${paths.length} pages (${walker.scans} scans so far, ${Math.round(walker.scanning / 1000)} s in axe-core)`,
        );
      });
    }
    const scans = walkers.reduce((sum, walker) => sum + walker.scans, 0);
    console.log(`accessibility walk of ${part.who}: ${scans} scans in ${elapsed()}`);
    expect(walkers.flatMap((walker) => walker.found)).toEqual([]);
  });
}

/**
 * States no screen of the walk is in, each scanned as the walk scans (both passes, both widths):
 * the expert's analysis while a voice advice just recorded uploads and once it is there, and the
 * administrators' best cases with converted cases whose authors were asked (consent pending) or
 * agreed (the outlined consent chips).
 */
test('the states the walk does not reach pass axe-core too: a voice advice recorded, the best cases awaiting or given consent', async ({
  browser,
  request,
  cast,
}) => {
  test.setTimeout(600_000);
  for (const who of [cast.expert, cast.admin]) await followTheBrowser(request, who.email);
  const [analysing, pending, agreed] = await Promise.all([
    preparedCase(request, cast),
    analysedCase(request, { ...cast, learner: cast.learner2, editor: cast.editor2, expert: cast.expert2 }, { rating: 3 }),
    analysedCase(request, { ...cast, learner: cast.learner2, editor: cast.editor2, expert: cast.expert2 }, { rating: 4 }),
  ]);
  const expertHeaders = { Authorization: `Bearer ${await apiToken(request, cast.expert.email)}` };
  expect((await request.post(`/v1/expert/videos/${analysing}/claim`, { headers: expertHeaders, data: {} })).status()).toBe(200);
  const surgery = await caseSurgery(request);
  const admin = { Authorization: `Bearer ${await apiToken(request, cast.admin.email)}` };
  for (const [videoId, answer] of [
    [pending, null],
    [agreed, true],
  ] as const) {
    const created = await request.post('/v1/admin/best-cases', {
      headers: admin,
      data: {
        source: 'video',
        videoId,
        titleFr: `Cas converti ${videoId.slice(0, 8)}`,
        titleEn: `Converted case ${videoId.slice(0, 8)}`,
        descriptionFr: 'Un cas analysé.',
        descriptionEn: 'An analysed case.',
        surgeryId: surgery.id,
        organId: surgery.organId,
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    if (answer !== null) {
      const consent = await request.put(`/v1/videos/${videoId}/best-case/consent`, {
        headers: { Authorization: `Bearer ${await apiToken(request, cast.learner2.email)}` },
        data: { accept: answer },
      });
      expect(consent.status(), await consent.text()).toBe(200);
    }
  }

  const found: string[] = [];
  for (const pass of A11Y_PASSES) {
    const context = await browser.newContext({ viewport: A11Y_WIDTHS[0], locale: pass.locale, colorScheme: pass.theme });
    await context.grantPermissions(['microphone']);
    const walker: Walker = { pass, page: await context.newPage(), found, scans: 0, scanning: 0 };
    const { page } = walker;

    // The expert records a voice advice: scanned while it uploads (held until then), and once it plays back.
    await signIn(page, cast.expert.email, cast.expert.password);
    await openInApp(page, `/expert/${analysing}`);
    await page.getByTestId('analysis-tab-advice').click();
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**/v1/expert/videos/${analysing}/voice`, async (route) => {
      if (route.request().method() === 'POST') await held;
      await route.continue();
    });
    await page.getByTestId('voice-record').click();
    await expect(page.getByTestId('voice-recorder')).toHaveAttribute('data-state', 'recording');
    await page.waitForTimeout(1500);
    await scanWidths(walker, 'expert analysis, recording a voice advice');
    await resize(page, A11Y_WIDTHS[0]);
    await page.getByTestId('voice-stop').click();
    await expect(page.getByTestId('voice-recorder')).toHaveAttribute('data-state', 'idle');
    await scanWidths(walker, 'expert analysis, a voice advice uploading');
    release();
    await expect(page.getByTestId('voice-player')).toBeVisible({ timeout: 60_000 });
    await resize(page, A11Y_WIDTHS[0]);
    await settle(page);
    await scanWidths(walker, 'expert analysis, a voice advice recorded');
    await page.unroute(`**/v1/expert/videos/${analysing}/voice`);
    await page.goto('/auth/logout');
    await expect(page).toHaveURL(/\/auth\/login/);

    // The administrators' best cases: a converted case awaiting its author's answer, one agreed to.
    await resize(page, A11Y_WIDTHS[0]);
    await signIn(page, cast.admin.email, cast.admin.password);
    await openInApp(page, '/admin/best-cases');
    await expect(page.getByTestId('admin-best-case').filter({ hasText: pending.slice(0, 8) })).toBeVisible();
    await expect(page.getByTestId('admin-best-case').filter({ hasText: agreed.slice(0, 8) })).toBeVisible();
    await settle(page);
    await scanWidths(walker, 'administrator best cases, consent asked and given');
    await page.screenshot({ path: `/tmp/admin-best-cases-${pass.theme}.png` });
    await context.close();
  }
  expect(found).toEqual([]);
});
