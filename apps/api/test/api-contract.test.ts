import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ROUTE_ANSWERS, registerRouteAnswers, routeKey, type RouteAnswer } from '../src/http/route-responses.ts';
import { createTestContext, type TestContext } from './harness.ts';
import { tusMetadata, videoForm } from './video-fixtures.ts';

interface OpenApiOperation {
  responses?: Record<
    string,
    { description?: string; headers?: Record<string, unknown>; content?: Record<string, { schema?: Record<string, unknown> }> }
  >;
  requestBody?: { content?: Record<string, { schema?: unknown }> };
}
type OpenApiDocument = { paths: Record<string, Record<string, OpenApiOperation>> };

let ctx: TestContext;
let doc: OpenApiDocument;
let base: string;

beforeAll(async () => {
  ctx = await createTestContext({ workers: false, listen: true, env: { MAX_UPLOAD_BYTES: String(1024 * 1024) } });
  base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  const res = await ctx.inject({ method: 'GET', url: '/v1/docs/json' });
  expect(res.statusCode).toBe(200);
  doc = res.json();
});
afterAll(async () => {
  await ctx?.close();
});

/** `/v1/videos/:id` as OpenAPI writes it: `/v1/videos/{id}`. */
const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');
const operation = (method: string, url: string) => doc.paths[openApiPath(url)]?.[method.toLowerCase()];

describe('the API documentation (/v1/docs)', () => {
  it('documents the answer of every route the server has, and names no route it does not have', () => {
    const served = ctx.routes.filter((r) => r.url.startsWith('/v1/')).map((r) => routeKey(r.method, r.url));
    // tus' HEAD is a route of its own (not the HEAD Fastify adds to a GET).
    served.push('HEAD /v1/uploads/:id');
    expect(served.filter((key) => !(key in ROUTE_ANSWERS))).toEqual([]);
    expect(Object.keys(ROUTE_ANSWERS).filter((key) => !served.includes(key))).toEqual([]);
  });

  it('gives every operation a described success answer with its body or headers, and its error answers', () => {
    const missing: string[] = [];
    for (const key of Object.keys(ROUTE_ANSWERS)) {
      const [method, url] = key.split(' ') as [string, string];
      const op = operation(method, url);
      if (!op?.responses) {
        missing.push(`${key}: not in the document`);
        continue;
      }
      // A sign-in with a provider answers by sending the browser on (303 with its Location).
      const success = Object.entries(op.responses).filter(([status]) => /^(?:2\d\d|303)$/.test(status));
      if (!success.length) missing.push(`${key}: no 2xx answer`);
      for (const [status, answer] of success) {
        if (!answer.description || answer.description === 'Default Response') missing.push(`${key} ${status}: no description`);
        if (!answer.content && !answer.headers) missing.push(`${key} ${status}: neither a body nor headers`);
      }
      if (!op.responses['5XX']) missing.push(`${key}: no 5XX answer`);
      const answer = ROUTE_ANSWERS[key]!;
      if (answer.kind === 'json') {
        const schema = op.responses[String(answer.status ?? 200)]?.content?.['application/json']?.schema as
          { properties?: Record<string, unknown>; required?: string[] } | undefined;
        if (!schema?.properties?.data || !schema.required?.includes('data')) missing.push(`${key}: the envelope's data is not described`);
        if (!op.responses['4XX']?.content?.['application/json']) missing.push(`${key}: the error envelope is not described`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('describes a trim as a kept range in seconds of the source, snapped to frames', () => {
    const body = operation('PUT', '/v1/editor/videos/:id/trims')?.requestBody?.content?.['application/json']?.schema;
    const text = JSON.stringify(body);
    expect(text).toMatch(/kept range of the source/);
    expect(text).toMatch(/seconds of the source video/);
    expect(text).toMatch(/snapped/);
    const steps = JSON.stringify(operation('PUT', '/v1/editor/videos/:id/steps')?.requestBody);
    expect(steps).toMatch(/seconds of the source \(not of the rendered video\)/);
  });
});

describe('the tus endpoints answer what the documentation says', () => {
  /** The status must be documented for the operation, with each documented header present. */
  function expectDocumented(method: string, url: string, res: Response) {
    const op = operation(method, url);
    const documented = op?.responses?.[String(res.status)];
    expect(documented, `${method} ${url} answered ${res.status}, which is not documented`).toBeDefined();
    for (const header of Object.keys(documented!.headers ?? {})) {
      // Upload-Offset is only sent by a creation that carried bytes.
      if (method === 'POST' && header === 'Upload-Offset') continue;
      expect(res.headers.get(header), `${method} ${url} ${res.status}: header ${header}`).not.toBeNull();
    }
    const type = res.headers.get('content-type');
    if (documented!.content) expect(Object.keys(documented!.content).some((t) => type?.startsWith(t))).toBe(true);
  }

  it('on creating, resuming, sending and terminating an upload, and on each refusal', async () => {
    const author = await ctx.createUser('learner');
    const auth = { authorization: `Bearer ${author.token}`, 'tus-resumable': '1.0.0' };
    const created = await ctx.inject({ method: 'POST', url: '/v1/videos', token: author.token, body: await videoForm(ctx) });
    expect(created.statusCode).toBe(201);
    const videoId = created.json().data.id as string;

    const options = await fetch(`${base}/v1/uploads/`, { method: 'OPTIONS', headers: auth });
    expect(options.status).toBe(204);
    expectDocumented('OPTIONS', '/v1/uploads/', options);
    expect(options.headers.get('tus-max-size')).toBe(String(1024 * 1024));

    const noVersion = await fetch(`${base}/v1/uploads/`, {
      method: 'POST',
      headers: { authorization: auth.authorization, 'upload-length': '100', 'upload-metadata': tusMetadata({ videoId }) },
    });
    expect(noVersion.status).toBe(412);
    expectDocumented('POST', '/v1/uploads/', noVersion);

    const post = await fetch(`${base}/v1/uploads/`, {
      method: 'POST',
      headers: { ...auth, 'upload-length': '100', 'upload-metadata': tusMetadata({ videoId, filename: 'a.mp4' }) },
    });
    expect(post.status).toBe(201);
    expectDocumented('POST', '/v1/uploads/', post);
    const location = new URL(post.headers.get('location')!, base).href;
    const url = '/v1/uploads/:id';

    const head = await fetch(location, { method: 'HEAD', headers: auth });
    expect(head.status).toBe(200);
    expectDocumented('HEAD', url, head);

    const send = (offset: number, extra: Record<string, string> = {}) =>
      fetch(location, {
        method: 'PATCH',
        headers: { ...auth, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream', ...extra },
        body: new Uint8Array(10),
      });
    const patched = await send(0);
    expect(patched.status).toBe(204);
    expectDocumented('PATCH', url, patched);
    expect(patched.headers.get('upload-offset')).toBe('10');

    const conflict = await send(0);
    expect(conflict.status).toBe(409);
    expectDocumented('PATCH', url, conflict);

    const badOffset = await send(10, { 'upload-offset': 'ten' });
    expect(badOffset.status).toBe(400);
    expect(badOffset.headers.get('content-type')).toMatch(/^text\/plain/);
    expectDocumented('PATCH', url, badOffset);

    const noType = await fetch(location, { method: 'PATCH', headers: { ...auth, 'upload-offset': '10' } });
    expect(noType.status).toBe(403);
    expectDocumented('PATCH', url, noType);

    const terminated = await fetch(location, { method: 'DELETE', headers: auth });
    expect(terminated.status).toBe(204);
    expectDocumented('DELETE', url, terminated);

    const gone = await fetch(location, { method: 'HEAD', headers: auth });
    expect(gone.status).toBe(404);
    expectDocumented('HEAD', url, gone);
  });
});

describe('checking answers against the documentation', () => {
  async function appWith(validate: boolean) {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    const answers: Record<string, RouteAnswer> = {
      'GET /v1/thing': { kind: 'json', data: z.object({ name: z.string() }), description: 'A thing.' },
    };
    registerRouteAnswers(app, { validate, answers });
    app.get('/v1/thing', async () => ({ success: true, data: { name: 3, extra: 'kept' } }));
    await app.ready();
    return app;
  }

  it('refuses, in the API tests, an answer its documentation does not describe', async () => {
    const app = await appWith(true);
    const res = await app.inject({ method: 'GET', url: '/v1/thing' });
    expect(res.statusCode).toBe(500);
    await app.close();
  });

  it('sends, in production, the answer as the handler made it: nothing stripped, nothing refused', async () => {
    const app = await appWith(false);
    const res = await app.inject({ method: 'GET', url: '/v1/thing' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { name: 3, extra: 'kept' } });
    await app.close();
  });

  it('refuses to start a /v1 route without a documented answer', async () => {
    const app = Fastify();
    registerRouteAnswers(app, { validate: false, answers: {} });
    expect(() => app.get('/v1/undocumented', async () => ({}))).toThrow(/no documented answer/);
    await app.close();
  });
});
