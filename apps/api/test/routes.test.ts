import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, isErrorCode } from '@sutura/domain/errors';
import { DEFAULT_PREFERENCES } from '@sutura/domain/preferences';
import { ROLES, type Role } from '@sutura/domain/roles';
import { registerAccessControl } from '../src/http/access.ts';
import { createTestContext, type TestContext } from './harness.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type Person = Awaited<ReturnType<TestContext['createUser']>>;

let ctx: TestContext;
const people = {} as Record<Role, Person>;

beforeAll(async () => {
  ctx = await createTestContext({ workers: false });
  for (const role of ROLES) people[role] = await ctx.createUser(role);
});
afterAll(async () => {
  await ctx?.close();
});

const key = (route: { method: string; url: string }) => `${route.method} ${route.url}`;
const fill = (url: string, value: string) => url.replace(/:\w+/g, value);

// Each request comes from its own address, so a per-address rate limit (the contact form's)
// does not turn one check's request into another check's 429.
let address = 0;
function inject(opts: { method: string; url: string; token?: string | undefined; body?: unknown; headers?: Record<string, string> }) {
  address++;
  return ctx.inject({
    ...opts,
    method: opts.method as Method,
    ...(opts.body === undefined && (opts.method === 'POST' || opts.method === 'PUT') ? { body: {} } : {}),
    headers: { 'x-forwarded-for': `10.1.${Math.floor(address / 250)}.${(address % 250) + 1}`, ...opts.headers },
  });
}

/** A token of someone the route lets in: no one for public routes, the first allowed role otherwise. */
function allowedToken(access: TestContext['routes'][number]['access']): string | undefined {
  if (access === 'public') return undefined;
  if (access === 'authenticated') return people.learner.token;
  return people[access[0]!].token;
}

/** Routes anyone may call without signing in; adding one to the API is a decision this list records. */
const PUBLIC_ROUTES = [
  'GET /v1/health',
  // Readiness for a load balancer: which dependencies answer, nothing about any person.
  'GET /v1/ready',
  'GET /v1/legal/operator',
  'POST /v1/auth',
  'POST /v1/users',
  'POST /v1/users/verify',
  'POST /v1/users/verify/resend',
  'POST /v1/users/reset/send',
  'POST /v1/users/reset/check',
  'POST /v1/users/reset/checkAndSet',
  'PUT /v1/users/language',
  'GET /v1/rppsUsers/check/:rpps/:lastName/:firstName',
  // Single sign-on: the providers offered, the round trip to one, and the identity it proved
  // (its http-only cookie is the access check of the pending routes).
  'GET /v1/auth/sso',
  'GET /v1/auth/sso/:provider/start',
  'GET /v1/auth/sso/:provider/callback',
  'GET /v1/auth/sso/pending',
  'DELETE /v1/auth/sso/pending',
  'POST /v1/auth/sso/pending/complete',
  'POST /v1/auth/sso/pending/code',
  'POST /v1/auth/sso/pending/link',
  // The signature in the URL is the access check.
  'GET /v1/media/:id',
  'GET /v1/media/:id/hls/:file',
  'GET /v1/media/:id/hls/:rung/:file',
  'GET /v1/vocabularies/specialties',
  'GET /v1/vocabularies/organs',
  'GET /v1/vocabularies/surgeries',
];

/** For every route that reads an entity by id: a request that is valid apart from the id. */
const BY_ID: Record<string, (id: string, viewer: Person) => { query?: string; body?: unknown }> = {
  'GET /v1/users/:id': () => ({}),
  'DELETE /v1/users/profile/me/identities/:id': () => ({}),
  'GET /v1/admin/users/:id/identities': () => ({}),
  'PUT /v1/notification/:id': (id) => ({ body: { id, status: 'read' } }),
  'DELETE /v1/notification/:id': () => ({}),
  'GET /v1/media/:id': (id, viewer) => ({ query: ctx.services.urls.url(id, viewer.id).split('?')[1] }),
  'GET /v1/media/:id/hls/:file': (id, viewer) => ({ query: ctx.services.urls.url(id, viewer.id).split('?')[1] }),
  'GET /v1/media/:id/hls/:rung/:file': (id, viewer) => ({ query: ctx.services.urls.url(id, viewer.id).split('?')[1] }),
  'GET /v1/videos/:id': () => ({}),
  'PUT /v1/videos/:id': () => ({ body: { equipmentBrand: 'Intuitive' } }),
  'DELETE /v1/videos/:id': () => ({}),
  'POST /v1/videos/:id/send': () => ({ body: { priority: false } }),
  'PUT /v1/videos/:id/favourite': () => ({ body: { favourite: true } }),
  'PUT /v1/videos/:id/operation-day': () => ({ body: { operatedOn: '2026-01-01' } }),
  'GET /v1/admin/programmes/:id': () => ({}),
  'PUT /v1/admin/programmes/:id': () => ({ body: { name: 'Residents' } }),
  'DELETE /v1/admin/programmes/:id': () => ({}),
  'POST /v1/admin/programmes/:id/members': () => ({ body: { userId: people.learner.id } }),
  'DELETE /v1/admin/programmes/:id/members/:userId': () => ({}),
  'POST /v1/admin/programmes/:id/directors': () => ({ body: { userId: people.expert.id } }),
  'DELETE /v1/admin/programmes/:id/directors/:userId': () => ({}),
  'GET /v1/programmes/:id/cohort': () => ({}),
  'GET /v1/programmes/:id/cohort/export': () => ({}),
  'GET /v1/programmes/:id/learners/:learnerId': () => ({}),
  'POST /v1/videos/:id/shares': () => ({ body: { email: people.editor.email } }),
  'DELETE /v1/videos/:id/shares/:userId': () => ({}),
  'POST /v1/videos/:id/retry': () => ({ body: {} }),
  'DELETE /v1/videos/:id/pictures/:pictureId': () => ({}),
  'GET /v1/best-cases/:id': () => ({}),
  'GET /v1/admin/best-cases/:id': () => ({}),
  'PUT /v1/admin/best-cases/:id': () => ({ body: { titleEn: 'A title' } }),
  'PUT /v1/admin/best-cases/:id/published': () => ({ body: { published: true } }),
  'PUT /v1/admin/best-cases/:id/steps': () => ({ body: { steps: [] } }),
  'DELETE /v1/admin/best-cases/:id': () => ({}),
  'PUT /v1/admin/best-cases/:id/step-notes': () => ({ body: { notes: [] } }),
  'GET /v1/videos/:id/comparison': () => ({}),
  'GET /v1/videos/:id/comparison/:bestCaseId': () => ({}),
  'GET /v1/best-cases/:id/comparison': () => ({}),
  'GET /v1/best-cases/:id/comparison/:bestCaseId': () => ({}),
  'GET /v1/best-cases/:id/drawings': () => ({}),
  'POST /v1/admin/best-cases/:id/drawings': () => ({
    body: { note: 'Here', drawing: { time: 1, shapes: [{ kind: 'line', color: 'white', from: [0, 0], to: [1, 1] }] } },
  }),
  'DELETE /v1/admin/best-cases/:id/drawings/:drawingId': () => ({}),
  'GET /v1/videos/:id/best-case': () => ({}),
  'PUT /v1/videos/:id/best-case/consent': () => ({ body: { accept: true } }),
  'POST /v1/editor/videos/:id/claim': () => ({ body: {} }),
  'POST /v1/editor/videos/:id/release': () => ({ body: { fencingToken: 1 } }),
  'GET /v1/editor/videos/:id': () => ({}),
  'PUT /v1/editor/videos/:id/trims': () => ({ body: { fencingToken: 1, trims: [{ start: 0, end: 2 }] } }),
  'PUT /v1/editor/videos/:id/phase': () => ({ body: { fencingToken: 1, phase: 'steps' } }),
  'PUT /v1/editor/videos/:id/steps': () => ({ body: { fencingToken: 1, steps: [] } }),
  'POST /v1/editor/videos/:id/submit': () => ({ body: { fencingToken: 1 } }),
  'PATCH /v1/uploads/:id': () => ({}),
  'POST /v1/expert/videos/:id/claim': () => ({ body: {} }),
  'POST /v1/expert/videos/:id/release': () => ({ body: { fencingToken: 1 } }),
  'GET /v1/expert/videos/:id': () => ({}),
  'PUT /v1/expert/videos/:id/analysis': () => ({ body: { fencingToken: 1, advice: 'Keep the camera steady.' } }),
  'POST /v1/expert/videos/:id/finalize': () => ({ body: { fencingToken: 1 } }),
  'POST /v1/expert/videos/:id/comments': () => ({ body: { fencingToken: 1, start: 3, text: 'Here' } }),
  'PUT /v1/expert/videos/:id/comments/:commentId': () => ({ body: { fencingToken: 1, start: 3, text: 'Here' } }),
  'DELETE /v1/expert/videos/:id/comments/:commentId': () => ({ body: { fencingToken: 1 } }),
  'POST /v1/expert/videos/:id/voice': () => ({}),
  'DELETE /v1/expert/videos/:id/voice': () => ({ body: { fencingToken: 1 } }),
  'GET /v1/videos/:id/analysis': () => ({}),
  'GET /v1/videos/:id/analysis/report': () => ({}),
  'GET /v1/videos/:id/self-assessment': () => ({}),
  'PUT /v1/videos/:id/self-assessment': () => ({
    body: { kpiRatings: { depthPerception: 3, bimanualDexterity: 3, efficiency: 3, tissueHandling: 3, autonomy: 3 } },
  }),
  'POST /v1/videos/:id/self-assessment/skip': () => ({ body: {} }),
  'DELETE /v1/uploads/:id': () => ({}),
  'POST /v1/admin/vocabularies/surgeries/:id/steps': () => ({ body: { nameFr: 'Étape', nameEn: 'Step' } }),
  'PUT /v1/admin/vocabularies/surgeries/:id/steps/order': (id) => ({ body: { ids: [id] } }),
  ...Object.fromEntries(
    (['organs', 'surgeries', 'steps', 'specialties'] as const).flatMap((kind) => [
      [
        `PUT /v1/admin/vocabularies/${kind}/:id`,
        () => ({ body: { nameFr: 'Nom', nameEn: 'Name', ...(kind === 'organs' ? { icon: 'kidney' } : {}) } }),
      ],
      [`POST /v1/admin/vocabularies/${kind}/:id/retire`, () => ({ body: {} })],
      [`POST /v1/admin/vocabularies/${kind}/:id/restore`, () => ({ body: {} })],
      [`DELETE /v1/admin/vocabularies/${kind}/:id`, () => ({})],
    ]),
  ),
  'POST /v1/admin/surgery-videos/:id/release': () => ({ body: {} }),
  'DELETE /v1/admin/surgery-videos/:id': () => ({}),
  'PUT /v1/admin/users/:id/roles': () => ({ body: { roles: ['editor'] } }),
  'PUT /v1/admin/users/:id/active': () => ({ body: { active: false } }),
  'POST /v1/admin/users/:id/validation-mail': () => ({ body: {} }),
  'PUT /v1/admin/review-settings/surgeries/:id': () => ({ body: { secondReviewShare: 50 } }),
  'PUT /v1/admin/retention/holds/:id': () => ({ body: { reason: 'Inquiry' } }),
  'DELETE /v1/admin/retention/holds/:id': () => ({}),
  'POST /v1/admin/videos/:id/reviews': () => ({ body: {} }),
  'POST /v1/admin/disagreements/:id/discussed': () => ({ body: { note: 'Discussed with both experts.' } }),
};

/** Routes whose body is not JSON, and the refusal of a JSON body there. */
const MULTIPART_ROUTES: Record<string, { status: number; code: string }> = {
  'POST /v1/common/medias/create/upload': { status: 415, code: 'UNSUPPORTED_MEDIA' },
};
/** Multipart routes about a video: whoever it does not concern gets 404 before the body is read. */
const MULTIPART_BY_ID = ['POST /v1/expert/videos/:id/voice'];
/** tus: a creation carries its file's bytes (or nothing), described by headers. */
const TUS_ROUTES = ['POST /v1/uploads/'];

function expectError(res: { statusCode: number; json(): unknown; body: string }, status: number, code: string) {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json() as { success: boolean; error: { code: string; message: string } };
  expect(body).toMatchObject({ success: false, error: { code } });
  expect(typeof body.error.message).toBe('string');
  expect(body.error.message.length).toBeGreaterThan(0);
}

describe('the route table', () => {
  it('lists every /v1 route with an access rule', () => {
    expect(ctx.routes.length).toBeGreaterThan(20);
    for (const route of ctx.routes) {
      const { access } = route;
      const valid =
        access === 'public' ||
        access === 'authenticated' ||
        (Array.isArray(access) && access.length > 0 && access.every((r) => ROLES.includes(r)));
      expect(valid, key(route)).toBe(true);
    }
    expect(new Set(ctx.routes.map(key)).size).toBe(ctx.routes.length);
  });

  it('opens to anonymous callers only the routes meant for them', () => {
    const open = ctx.routes.filter((r) => r.access === 'public').map(key);
    expect(open.sort()).toEqual([...PUBLIC_ROUTES].sort());
  });

  it('refuses to build an app with a /v1 route that declares no access rule', async () => {
    const app = Fastify();
    registerAccessControl(app, { authenticate: async () => null, sessionEndsAt: async () => null });
    // The rule is checked when the route is added, so the app never becomes ready.
    void app.register(
      async (v1) => {
        v1.get('/with-rule', { config: { access: 'public' } }, async () => ({}));
        v1.get('/without-rule', async () => ({}));
      },
      { prefix: '/v1' },
    );
    await expect(app.ready()).rejects.toThrow(/GET \/v1\/without-rule declares no access rule/);
    await app.close().catch(() => {});
  });
});

describe('401 without a valid token', () => {
  it('answers every non-public route without a token with 401 UNAUTHORIZED', async () => {
    const guarded = ctx.routes.filter((r) => r.access !== 'public');
    expect(guarded.length).toBeGreaterThan(10);
    for (const route of guarded) {
      const res = await inject({ method: route.method, url: fill(route.url, randomUUID()) });
      expectError(res, 401, 'UNAUTHORIZED');
      expect(res.json().error.message, key(route)).toBe(ERRORS.UNAUTHORIZED.fr);
    }
  });

  it('answers a forged or garbage token with 401, in the language asked for', async () => {
    const forged = `${people.learner.token.slice(0, -4)}AAAA`;
    for (const route of ctx.routes.filter((r) => r.access !== 'public')) {
      for (const token of ['not-a-token', forged]) {
        const res = await inject({ method: route.method, url: `${fill(route.url, randomUUID())}?langCode=en`, token });
        expectError(res, 401, 'UNAUTHORIZED');
        expect(res.json().error.message, key(route)).toBe(ERRORS.UNAUTHORIZED.en);
      }
    }
  });
});

describe('403 for a role the route does not allow', () => {
  it('refuses every role outside the list and lets every role in it through the access check', async () => {
    const restricted = ctx.routes.filter((r) => Array.isArray(r.access));
    expect(restricted.length).toBeGreaterThan(0);
    for (const route of restricted) {
      const allowed = route.access as readonly Role[];
      for (const role of ROLES) {
        const res = await inject({
          method: route.method,
          url: fill(route.url, randomUUID()),
          token: people[role].token,
          body: '"not an object"',
          headers: { 'content-type': 'application/json' },
        });
        if (allowed.includes(role)) {
          expect([401, 403], `${key(route)} as ${role}: ${res.body}`).not.toContain(res.statusCode);
        } else {
          expectError(res, 403, 'FORBIDDEN');
        }
      }
    }
  });
});

describe('400 for a refused request', () => {
  it('refuses an unknown query field on every route', async () => {
    // A provider's answer carries parameters of its own besides code and state (iss, session_state…).
    const providerAnswers = ['GET /v1/auth/sso/:provider/callback'];
    for (const route of ctx.routes.filter((r) => !providerAnswers.includes(key(r)))) {
      const res = await inject({
        method: route.method,
        url: `${fill(route.url, randomUUID())}?langCode=en&colour=blue`,
        token: allowedToken(route.access),
      });
      expectError(res, 400, 'QUERY_UNKNOWN_FIELD');
      expect(res.json().error.message, key(route)).toBe('Unknown field in the query: colour');
    }
  });

  it('refuses a body of the wrong shape on every route that takes one, with details', async () => {
    const doc = (await inject({ method: 'GET', url: '/v1/docs/json' })).json() as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, unknown> } }>>;
    };
    const writes = ctx.routes.filter((r) => r.method === 'POST' || r.method === 'PUT');
    for (const route of writes) {
      const documented = doc.paths[route.url.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
      const multipart = MULTIPART_ROUTES[key(route)];
      if (multipart) {
        // A JSON body where a file is expected is not an image.
        const res = await inject({ method: route.method, url: route.url, token: allowedToken(route.access), body: { file: 'x' } });
        expectError(res, multipart.status, multipart.code);
        continue;
      }
      if (MULTIPART_BY_ID.includes(key(route))) {
        const res = await inject({
          method: route.method,
          url: fill(route.url, randomUUID()),
          token: allowedToken(route.access),
          body: { file: 'x' },
        });
        expectError(res, 404, 'NOT_FOUND');
        continue;
      }
      if (TUS_ROUTES.includes(key(route))) {
        // Without its tus headers, a creation is refused before anything is read.
        const res = await inject({
          method: route.method,
          url: route.url,
          token: allowedToken(route.access),
          body: '"not an object"',
          headers: { 'content-type': 'application/json' },
        });
        expect(res.statusCode, `${key(route)}: ${res.body}`).toBe(400);
        expect(res.json().error.details?.length, key(route)).toBeGreaterThan(0);
        continue;
      }
      expect(documented?.requestBody?.content, `${key(route)} declares its JSON body`).toHaveProperty(['application/json']);
      const res = await inject({
        method: route.method,
        url: fill(route.url, randomUUID()),
        token: allowedToken(route.access),
        body: '"not an object"',
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode, `${key(route)}: ${res.body}`).toBe(400);
      const { error } = res.json();
      expect(isErrorCode(error.code), key(route)).toBe(true);
      expect(error.details?.length, key(route)).toBeGreaterThan(0);
    }
  });

  it('refuses a body that is not JSON', async () => {
    const res = await inject({ method: 'POST', url: '/v1/auth', body: '{"email":', headers: { 'content-type': 'application/json' } });
    expectError(res, 400, 'VALIDATION');
  });
});

describe('404 for what does not exist', () => {
  it('answers an id that names nothing with 404 on every route that reads by id', async () => {
    const byId = ctx.routes.filter((r) => r.url.includes('/:id'));
    expect(byId.map(key).sort()).toEqual(Object.keys(BY_ID).sort());
    for (const route of byId) {
      const viewer = route.access === 'public' ? people.learner : people[route.access === 'authenticated' ? 'learner' : route.access[0]!];
      const id = randomUUID();
      const example = BY_ID[key(route)]!(id, viewer);
      const url = `${fill(route.url, id)}${example.query ? `?${example.query}` : ''}`;
      const res = await inject({ method: route.method, url, token: viewer.token, body: example.body });
      expectError(res, 404, 'NOT_FOUND');
    }
  });

  it('answers a malformed id with 404 on every route with an id', async () => {
    for (const route of ctx.routes.filter((r) => r.url.includes('/:id'))) {
      for (const bad of ['not-a-uuid', '123', "1'%20OR%201=1"]) {
        const res = await inject({
          method: route.method,
          url: fill(route.url, bad),
          token: allowedToken(route.access) ?? people.learner.token,
        });
        expectError(res, 404, 'NOT_FOUND');
      }
    }
  });

  it('answers a path whose id names nothing with 404 before any access rule, for any method, in the caller’s language', async () => {
    const english = await ctx.createUser('learner', { preferences: { ...DEFAULT_PREFERENCES, langCode: 'en' } });
    const withId = ctx.routes.filter((r) => r.url.includes('/:id') && r.access !== 'public');
    expect(withId.length).toBeGreaterThan(10);
    for (const route of withId) {
      const url = fill(route.url, 'login');
      // Nobody signed in: not "your session has expired", the path is unknown; told in English when asked.
      const anonymous = await inject({ method: route.method, url, headers: { 'accept-language': 'en-GB,en;q=0.9' } });
      expectError(anonymous, 404, 'NOT_FOUND');
      expect(anonymous.json().error.message, key(route)).toBe(ERRORS.NOT_FOUND.en);
      // A token that no longer signs in changes nothing.
      const stale = await inject({ method: route.method, url, token: 'expired.token.value', headers: { 'accept-language': 'en' } });
      expectError(stale, 404, 'NOT_FOUND');
      // A signed-in person reads it in their own language, whatever role the route wants.
      const signedIn = await inject({ method: route.method, url, token: english.token });
      expectError(signedIn, 404, 'NOT_FOUND');
      expect(signedIn.json().error.message, key(route)).toBe(ERRORS.NOT_FOUND.en);
    }
    // A well-formed id still meets the access rule first: an anonymous caller learns nothing of it.
    expectError(await inject({ method: 'GET', url: `/v1/videos/${randomUUID()}` }), 401, 'UNAUTHORIZED');
  });

  it('answers an unknown /v1 path with 404 in the envelope, in the caller’s language', async () => {
    for (const [method, url] of [
      ['GET', '/v1/nothing-here'],
      ['POST', '/v1/users/nothing/here'],
      ['DELETE', '/v1/notification'],
      ['GET', '/v1'],
    ] as const) {
      const res = await inject({ method, url, token: people.learner.token });
      expectError(res, 404, 'NOT_FOUND');
    }
    const en = await inject({ method: 'GET', url: '/v1/nothing-here?langCode=en' });
    expect(en.json()).toEqual({ success: false, error: { code: 'NOT_FOUND', message: ERRORS.NOT_FOUND.en } });
  });
});
