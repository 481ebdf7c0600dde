import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { APIRequestContext, Browser, BrowserContext, BrowserContextOptions, Locator, Page } from '@playwright/test';
import { expect, type Person } from './fixtures.ts';
import { analyseVideo, makeClip, prepareVideo, sendVideo, skipSelfAssessment, type AnalysisInput } from './workflow.ts';

/**
 * Cases a spec starts from, each carried by the API to where the tested person takes it over (sent,
 * prepared, analysed) by the spec's own people, and the signed-in windows the people work in.
 */

let mediaFolder: string | undefined;
const media = new Map<string, string>();

/** A media file of this worker, made by `make` on its first use; the worker's folder is removed when the worker ends. */
function workerMedia(name: string, make: (file: string) => void): string {
  let file = media.get(name);
  if (!file) {
    if (!mediaFolder) {
      const folder = mkdtempSync(path.join(tmpdir(), 'sutura-e2e-media-'));
      process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
      mediaFolder = folder;
    }
    file = path.join(mediaFolder, name);
    make(file);
    media.set(name, file);
  }
  return file;
}

/** A test clip of `seconds` (makeClip), made once per worker. */
export function caseClip(seconds = 8): string {
  return workerMedia(`case-${seconds}s.mp4`, (file) => makeClip(file, seconds));
}

/** A docking picture (a 640×480 JPEG of a test pattern), made once per worker. */
export function casePicture(): string {
  return workerMedia('docking.jpg', (file) =>
    execFileSync(
      'ffmpeg',
      ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=640x480', '-frames:v', '1', file],
      { stdio: 'ignore' },
    ),
  );
}

export type CaseStep = { name: string; start: number; end: number };

export interface CaseOptions {
  /** The clip's length in seconds (8 unless given). */
  seconds?: number;
  /** Sent as a priority. */
  priority?: boolean;
  /** Docking pictures sent with the case. */
  pictures?: string[];
  /** The prepared case's steps: unless given two, Dissection from 1 s, Suture from a second after the middle (5 s of 8). */
  steps?: CaseStep[];
  /** The part the editor keeps: the whole clip unless given. */
  keep?: { start: number; end: number };
}

/** The people a case goes through: a spec's cast, or people of its own. */
export interface CasePeople {
  learner: Person;
  editor: Person;
  expert: Person;
}

/** Two steps across a clip of `seconds` (4 at least): 1 s to its middle, then a second later to half a second before its end. */
function twoSteps(seconds: number): CaseStep[] {
  return [
    { name: 'Dissection', start: 1, end: seconds / 2 },
    { name: 'Suture', start: seconds / 2 + 1, end: seconds - 0.5 },
  ];
}

/** A case the learner has sent, its video ready: waiting for an editor. */
export function sentCase(request: APIRequestContext, people: Pick<CasePeople, 'learner'>, opts: CaseOptions = {}): Promise<string> {
  return sendVideo(request, people.learner.email, caseClip(opts.seconds), opts.priority, { pictures: opts.pictures });
}

/** A case sent, then prepared by the editor and rendered: waiting for an expert. */
export async function preparedCase(
  request: APIRequestContext,
  people: Pick<CasePeople, 'learner' | 'editor'>,
  opts: CaseOptions = {},
): Promise<string> {
  const videoId = await sentCase(request, people, opts);
  const seconds = opts.seconds ?? 8;
  const keep = opts.keep ?? { start: 0, end: seconds };
  await prepareVideo(request, people.editor.email, people.learner.email, videoId, opts.steps ?? twoSteps(seconds), keep);
  return videoId;
}

/**
 * A case prepared, then analysed by the expert (analyseVideo: every skill and the whole case at
 * `rating`, none when it is null); with `skipSelfAssessment` the learner then declines to rate it
 * first, so that opening it shows the result at once.
 */
export async function analysedCase(
  request: APIRequestContext,
  people: CasePeople,
  opts: CaseOptions & { rating?: number | null; analysis?: AnalysisInput; skipSelfAssessment?: boolean } = {},
): Promise<string> {
  const videoId = await preparedCase(request, people, opts);
  await analyseVideo(request, people.expert.email, videoId, opts.rating ?? null, opts.analysis);
  if (opts.skipSelfAssessment) await skipSelfAssessment(request, people.learner.email, videoId);
  return videoId;
}

/**
 * A browser window of its own (a French desktop at 1440×900 unless `options` say otherwise) where
 * `person` has signed in, with the browser permissions given; on no page yet. Signed in by the API
 * as the sign-in page does it (a session cookie), without drawing that page and the dashboard
 * first: the sign-in form has specs of its own.
 */
export async function signedIn(
  browser: Browser,
  person: Person,
  options: BrowserContextOptions & { permissions?: string[] } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const { permissions, ...contextOptions } = options;
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'fr-FR', ...contextOptions });
  if (permissions) await context.grantPermissions(permissions);
  // Signing in hashes the password: slow when several sign in at once on a busy machine.
  const session = await context.request.post('/v1/auth', {
    data: { email: person.email, password: person.password },
    headers: { 'x-sutura-session': 'cookie' },
    timeout: 60_000,
  });
  expect(session.status(), await session.text()).toBe(200);
  return { context, page: await context.newPage() };
}

/**
 * How long a page may take to be drawn the first time in a window: its data comes at once, but
 * loading and running its code on a busy machine may take a while.
 */
export const firstDraw = { timeout: 60_000 };

/** Opens `address` (a full load, as a fresh window or a link from elsewhere does) and waits until `shown` is drawn. */
export async function openPage(page: Page, address: string, shown: Locator): Promise<void> {
  await page.goto(address);
  await expect(shown).toBeVisible(firstDraw);
}
