import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './harness.ts';

/**
 * How the server sends the web app and the API's JSON: the files the build compressed, as they
 * are, cached for as long as their name says; JSON compressed above a threshold; nothing else.
 */
let ctx: TestContext;
let webDist: string;
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
  ctx = await createTestContext({ env: { WEB_DIST: webDist }, serveWeb: true, workers: false });
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
