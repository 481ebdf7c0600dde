import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '@sutura/domain/errors';
import { DEFAULT_PREFERENCES } from '@sutura/domain/preferences';
import { createTestContext, type TestContext } from './harness.ts';

/**
 * How the server sends the web app and the API's JSON: the files the build compressed, as they
 * are, cached for as long as their name says; JSON compressed above a threshold; nothing else.
 */
let ctx: TestContext;
let webDist: string;
const METRICS_TOKEN = 'metrics-token-of-the-delivery-test';
const script = `export const greeting = ${JSON.stringify('bonjour '.repeat(400))};\n`;
const page = `<!doctype html><html><head><title>Sutura</title></head><body><div id="root"></div>${'<!-- -->'.repeat(100)}</body></html>`;

/** A build as the web app's writes it: each text file with its .br and .gz beside it. */
async function writeBuilt(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  await writeFile(`${file}.br`, brotliCompressSync(text));
  await writeFile(`${file}.gz`, gzipSync(text));
}

beforeAll(async () => {
  webDist = await mkdtemp(path.join(tmpdir(), 'sutura-web-dist-'));
  await writeBuilt(path.join(webDist, 'index.html'), page);
  await writeBuilt(path.join(webDist, 'assets/greeting-Bx3Yz9aQ.js'), script);
  await writeBuilt(path.join(webDist, 'sw.js'), `self.addEventListener('fetch', () => {});\n${'//\n'.repeat(300)}`);
  await writeFile(path.join(webDist, 'manifest.webmanifest'), '{"name":"Sutura"}');
  ctx = await createTestContext({ env: { WEB_DIST: webDist, METRICS_TOKEN }, serveWeb: true, workers: false });
});

afterAll(async () => {
  await ctx?.close();
  await rm(webDist, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) =>
  ctx.app.inject({ method: 'GET', url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

describe('web app files', () => {
  it('are sent pre-compressed, brotli first, gzip otherwise, plain to a client that takes neither', async () => {
    const br = await get('/assets/greeting-Bx3Yz9aQ.js', 'gzip, deflate, br, zstd');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);

    const gzip = await get('/assets/greeting-Bx3Yz9aQ.js', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(script);

    const plain = await get('/assets/greeting-Bx3Yz9aQ.js', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('with a hash in their name are cached for a year without revalidation', async () => {
    const response = await get('/assets/greeting-Bx3Yz9aQ.js', 'br');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('the page and the service worker are revalidated at every load, so a deployment shows at once', async () => {
    for (const url of ['/', '/dashboard', '/videos/123']) {
      const response = await get(url, 'br, gzip');
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe('no-cache');
      expect(response.headers['content-encoding'], url).toBe('br');
      expect(brotliDecompressSync(response.rawPayload).toString(), url).toBe(page);
    }
    const worker = await get('/sw.js', 'gzip');
    expect(worker.headers['cache-control']).toBe('no-cache');
    expect(worker.headers['content-encoding']).toBe('gzip');
    // Files without a hash in their name: an hour.
    expect((await get('/manifest.webmanifest')).headers['cache-control']).toBe('public, max-age=3600');
  });

  it('a built file that does not exist (a chunk of an older deployment) is a 404, not the page', async () => {
    const response = await get('/assets/greeting-OLDHASH1.js', 'br');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
  });
});

describe('API answers', () => {
  it('JSON above the threshold is compressed with what the client takes', async () => {
    const plain = await get('/v1/vocabularies/surgeries', 'identity');
    expect(plain.statusCode).toBe(200);
    expect(plain.body.length).toBeGreaterThan(1024);

    const br = await get('/v1/vocabularies/surgeries', 'br, gzip');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(br.rawPayload.length).toBeLessThan(plain.body.length / 2);

    const gzip = await get('/v1/vocabularies/surgeries', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
  });

  it('small JSON goes as it is', async () => {
    const response = await get('/v1/health', 'br, gzip');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
  });

  it('uploads are not touched: tus answers carry no encoding, compressed request bodies are not inflated', async () => {
    const user = await ctx.createUser('learner');
    const options = await ctx.app.inject({
      method: 'OPTIONS',
      url: '/v1/uploads/',
      headers: { 'tus-resumable': '1.0.0', 'accept-encoding': 'br, gzip', authorization: `Bearer ${user.token}` },
    });
    expect(options.headers['content-encoding']).toBeUndefined();
    const gzipped = await ctx.app.inject({
      method: 'POST',
      url: '/v1/auth',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify({ email: user.email, password: user.password })),
    });
    expect(gzipped.statusCode).toBeGreaterThanOrEqual(400);
    expect(gzipped.statusCode).toBeLessThan(500);
  });
});

describe('paths that are never the web app', () => {
  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, headers: Record<string, string> = {}) =>
    ctx.app.inject({ method, url, headers, ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }) });
  const notFound = (lang: 'fr' | 'en') => ({ success: false, error: { code: 'NOT_FOUND', message: ERRORS.NOT_FOUND[lang] } });

  it('answer with a trailing slash as without one: /metrics/, /v1/health/, a route with an id', async () => {
    for (const headers of [{}, { authorization: `Bearer ${METRICS_TOKEN}` }] as Record<string, string>[]) {
      const bare = await call('GET', '/metrics', headers);
      const slashed = await call('GET', '/metrics/', headers);
      expect(slashed.statusCode).toBe(bare.statusCode);
      expect(slashed.headers['content-type']).toBe(bare.headers['content-type']);
      expect(slashed.body).not.toContain('<html');
    }
    expect((await call('GET', '/metrics/')).json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    expect((await call('GET', '/metrics/', { authorization: `Bearer ${METRICS_TOKEN}` })).statusCode).toBe(200);

    const health = await call('GET', '/v1/health/');
    expect(health.statusCode).toBe(200);
    expect(health.json().data).toEqual((await call('GET', '/v1/health')).json().data);
    const vocabulary = await call('GET', '/v1/vocabularies/surgeries/');
    expect(vocabulary.statusCode).toBe(200);
    expect(vocabulary.json().data).toEqual((await call('GET', '/v1/vocabularies/surgeries')).json().data);
    // A protected route with a slash is the same route: the same rule.
    expect((await call('GET', '/v1/dashboard/')).statusCode).toBe(401);
  });

  it('unknown, are a 404 in the envelope for every method, in the caller’s language, never the page', async () => {
    const paths = [
      '/health',
      '/health/',
      '/ready',
      '/v1',
      '/v1/',
      '/v1/auth/login',
      '/v1/nothing/here/',
      '/api/videos',
      '/metrics/extra',
      '/socket.io/x',
    ];
    for (const url of paths) {
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const) {
        const res = await call(method, url, { 'accept-language': 'en-GB,en;q=0.9' });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json(), `${method} ${url}`).toEqual(notFound('en'));
      }
    }
    expect((await call('GET', '/health', { 'accept-language': 'fr-FR,fr;q=0.9' })).json()).toEqual(notFound('fr'));
  });

  it('a write to a page of the web app (POST /auth/login) is a 404 in the caller’s language, signed in or not, never 401', async () => {
    const person = await ctx.createUser('learner', { preferences: { ...DEFAULT_PREFERENCES, langCode: 'en' } });
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      const anonymous = await call(method, '/auth/login', { 'accept-language': 'en-US,en;q=0.8', 'content-type': 'application/json' });
      expect(anonymous.statusCode, method).toBe(404);
      expect(anonymous.json(), method).toEqual(notFound('en'));
      // A token that no longer signs anyone in changes nothing: the route does not exist.
      const stale = await call(method, '/auth/login', { authorization: 'Bearer expired.token.value', 'accept-language': 'en' });
      expect(stale.statusCode, method).toBe(404);
      expect(stale.json(), method).toEqual(notFound('en'));
      const signedIn = await call(method, '/auth/login', { authorization: `Bearer ${person.token}` });
      expect(signedIn.statusCode, method).toBe(404);
      expect(signedIn.json(), method).toEqual(notFound('en'));
    }
    // Nor does a body it could not read: the route is unknown before the body is wrong.
    const garbled = await ctx.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json', 'accept-language': 'en' },
      payload: '{"email": ',
    });
    expect(garbled.statusCode).toBe(404);
    expect(garbled.json()).toEqual(notFound('en'));
    // Its page is still the web app's, as every client route.
    for (const url of ['/auth/login', '/auth/login/', '/dashboard/', '/healthy-habits']) {
      const page = await call('GET', url);
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-type'], url).toMatch(/^text\/html/);
    }
  });
});
