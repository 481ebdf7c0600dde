import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '@sutura/domain/errors';
import { createTestContext, SAMPLE_PEOPLE, type TestContext } from './harness.ts';

let ctx: TestContext;
let port: number;
beforeAll(async () => {
  ctx = await createTestContext({ listen: true, workers: false, env: { REQUEST_TIMEOUT_SECONDS: '8', HEADERS_TIMEOUT_SECONDS: '2' } });
  port = (ctx.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await ctx?.close();
});

/** Sends raw bytes, returns everything the server answered until it closed (or the timeout). */
function rawExchange(chunks: { data: string; delayMs?: number }[], timeoutMs = 10_000): Promise<{ text: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`still open after ${timeoutMs} ms: ${text}`));
    }, timeoutMs);
    socket.on('data', (d) => (text += d.toString('utf8')));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closedAfterMs: Date.now() - started });
    });
    void (async () => {
      for (const chunk of chunks) {
        if (chunk.delayMs) await new Promise((r) => setTimeout(r, chunk.delayMs));
        if (socket.destroyed) return;
        socket.write(chunk.data);
      }
    })();
  });
}

function envelopeOf(raw: string): { status: number; body: unknown } {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), body: JSON.parse(body) };
}

const NUL = 'a\u0000b';
const LONE = 'a\ud800b';

describe('NUL and lone surrogates in text fields', () => {
  it('are refused with 400 and the catalogue message on every kind of form, and change nothing', async () => {
    const person = await ctx.createUser('learner');
    const surgery = (await ctx.inject({ method: 'GET', url: '/v1/vocabularies/surgeries', token: person.token })).json().data[0];
    const cases: { url: string; method: 'POST' | 'PUT'; body: Record<string, unknown>; token?: string }[] = [];
    for (const bad of [NUL, LONE]) {
      cases.push(
        { method: 'PUT', url: '/v1/users/profile/me', body: { information: { city: bad } }, token: person.token },
        { method: 'PUT', url: '/v1/users/save/pushtoken', body: { pushToken: bad }, token: person.token },
        { method: 'POST', url: '/v1/contact', body: { subject: bad, message: 'hello' }, token: person.token },
        { method: 'POST', url: '/v1/auth', body: { email: 'x@example.org', password: `pass${bad}1234` } },
        {
          method: 'POST',
          url: '/v1/users',
          body: await ctx.signUpBody(SAMPLE_PEOPLE[0], 'nul@example.org', { city: bad }),
        },
        {
          method: 'POST',
          url: '/v1/videos',
          body: { kind: 'video', surgeryId: surgery.id, keyStepIds: [], messageToProctor: bad },
          token: person.token,
        },
      );
    }
    for (const c of cases) {
      const res = await ctx.inject({ method: c.method, url: `${c.url}?langCode=en`, body: c.body, token: c.token });
      expect(res.statusCode, `${c.method} ${c.url}`).toBe(400);
      expect(res.json().error.code, `${c.method} ${c.url}`).toBe('TEXT_INVALID_CHARACTERS');
      expect(res.json().error.message).toBe(ERRORS.TEXT_INVALID_CHARACTERS.en);
    }
    const profile = (await ctx.inject({ method: 'GET', url: '/v1/users/profile/me', token: person.token })).json().data;
    expect(profile.information.city).toBeNull();
    expect(profile.pushToken).toBeNull();
  });

  it('are refused in a path parameter and in the query too', async () => {
    const res = await ctx.inject({ method: 'GET', url: '/v1/rppsUsers/check/10999901019/a%00b/c' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('TEXT_INVALID_CHARACTERS');
  });
});

describe('malformed requests answer 4xx in the envelope', () => {
  it('a malformed multipart body is a 400, not a 500', async () => {
    const person = await ctx.createUser('learner');
    const res = await ctx.inject({
      method: 'POST',
      url: '/v1/common/medias/create/upload',
      token: person.token,
      headers: { 'content-type': 'multipart/form-data; boundary=XYZ' },
      body: '--XYZ\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc',
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.json().success).toBe(false);
  });

  it('a too-long path parameter is a 414 in the envelope that does not echo the address', async () => {
    const long = 'x'.repeat(5000);
    const res = await ctx.inject({ method: 'GET', url: `/v1/rppsUsers/check/${long}/a/b?langCode=en` });
    expect(res.statusCode).toBe(414);
    expect(res.json()).toEqual({ success: false, error: { code: 'URI_TOO_LONG', message: expect.any(String) } });
    expect(res.body).not.toContain(long.slice(0, 200));
  });

  it('oversized headers are a 431 in the envelope', async () => {
    const { text } = await rawExchange([{ data: `GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n` }]);
    const { status, body } = envelopeOf(text);
    expect(status).toBe(431);
    expect(body).toEqual({ success: false, error: { code: 'HEADERS_TOO_LARGE', message: expect.any(String) } });
  });

  it('a JSON body over the limit of its route is a 413 in the envelope', async () => {
    const res = await ctx.inject({ method: 'POST', url: '/v1/auth', body: { email: 'a@example.org', password: 'x'.repeat(200_000) } });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('PAYLOAD_TOO_LARGE');
  });
});

describe('slow clients', () => {
  it('a body sent one byte at a time is cut at the request deadline with a 408', async () => {
    const body = JSON.stringify({ email: 'slow@example.org', password: 'password123' });
    const head = `POST /v1/auth HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const chunks = [{ data: head }, ...[...body].map((c) => ({ data: c, delayMs: 500 }))];
    const { text, closedAfterMs } = await rawExchange(chunks, 30_000);
    // The deadline is 8 s here (room for a loaded machine's sign-ins): the body would need ~25 s.
    expect(closedAfterMs).toBeLessThan(20_000);
    const { status, body: answer } = envelopeOf(text);
    expect(status).toBe(408);
    expect((answer as { error: { code: string } }).error.code).toBe('REQUEST_TIMEOUT');
  });

  it('headers sent one line at a time are cut too', async () => {
    const lines = Array.from({ length: 40 }, (_, i) => ({ data: `X-Slow-${i}: y\r\n`, delayMs: 500 }));
    const { closedAfterMs } = await rawExchange([{ data: 'GET /v1/health HTTP/1.1\r\nHost: x\r\n' }, ...lines], 60_000);
    expect(closedAfterMs).toBeLessThan(19_000);
  });
});

describe('error logs', () => {
  it('keep the kind of an unexpected error, never the values the person sent', async () => {
    const lines: string[] = [];
    const log = pino(
      { level: 'info' },
      new Writable({
        write(chunk: Buffer, _enc, done) {
          lines.push(chunk.toString('utf8'));
          done();
        },
      }),
    );
    const { redactedError } = await import('../src/http/hardening.ts');
    const failure = new Error('Failed query: insert into "users" params: secret-value@example.org,hunter2', {
      cause: Object.assign(new Error('duplicate key'), { code: '23505' }),
    });
    log.error({ err: redactedError(failure) }, 'unexpected error');
    const written = lines.join('');
    expect(written).toContain('23505');
    expect(written).not.toContain('secret-value');
    expect(written).not.toContain('hunter2');
  });
});
