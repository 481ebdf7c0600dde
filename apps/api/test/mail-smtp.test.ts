import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, SAMPLE_PEOPLE, type TestContext } from './harness.ts';
import { mailHeader, readableMail } from './mail-text.ts';

interface Received {
  from: string | undefined;
  to: string[];
  raw: string;
}

let ctx: TestContext;
let smtp: SMTPServer;
const received: Received[] = [];
const FLAKY = 'flaky@example.org';
const refused = new Set<string>();

beforeAll(async () => {
  // A real SMTP listener, so the test covers what nodemailer actually sends over the wire.
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      // A mail server that is briefly unavailable for this address: the first attempt fails.
      if (address.address === FLAKY && !refused.has(FLAKY)) {
        refused.add(FLAKY);
        return callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined;
        received.push({ from, to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  ctx = await createTestContext({ env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
});
afterAll(async () => {
  await ctx?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

async function mailTo(address: string, timeoutMs = 15_000): Promise<Received> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = received.find((m) => m.to.includes(address));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`No mail to ${address} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function signUp(
  person: (typeof SAMPLE_PEOPLE)[number],
  email: string,
  langCode: 'fr' | 'en' | 'auto',
  headers: Record<string, string> = {},
) {
  const res = await ctx.inject({
    method: 'POST',
    url: '/v1/users',
    headers,
    body: await ctx.signUpBody(person, email, {
      city: 'Bordeaux',
      careCentreType: 'private',
      yearsOfExperience: 12,
      yearsOfRoboticExperience: 4,
      robot: 'Hugo RAS',
      preferences: { theme: 'auto', langCode },
    }),
  });
  expect(res.statusCode, res.body).toBe(201);
}

/** The 5-digit code of the mail: in the subject and on its own line of the text. */
function codeOf(mail: string): string {
  const inSubject = /(\d{8})$/.exec(mailHeader(mail, 'Subject') ?? '')?.[1];
  const inText = /^\s{4}(\d{8})\s*$/m.exec(mail)?.[1];
  expect(inSubject).toMatch(/^\d{8}$/);
  expect(inText).toBe(inSubject);
  return inSubject!;
}

describe('mail over SMTP', () => {
  it('sends the validation code of a sign-up in English to the address given, and the code validates it', async () => {
    const email = 'helene.smtp@example.org';
    await signUp(SAMPLE_PEOPLE[0], email, 'en');
    const message = await mailTo(email);
    expect(message.to).toEqual([email]);
    expect(message.from).toBe('no-reply@sutura.local');
    const mail = readableMail(message.raw);
    expect(mailHeader(mail, 'From')).toBe(ctx.config.mailFrom);
    const code = codeOf(mail);
    expect(mailHeader(mail, 'Subject')).toBe(`Your Sutura validation code: ${code}`);
    expect(mail).toContain('Hello Hélène,');
    expect(mail).toContain('This code is valid for 15 minutes.');

    const verified = await ctx.inject({ method: 'POST', url: '/v1/users/verify', body: { email, code } });
    expect(verified.statusCode, verified.body).toBe(200);
  });

  it('writes in French to a person who chose French, whatever the browser says', async () => {
    const email = 'jf.smtp@example.org';
    await signUp(SAMPLE_PEOPLE[1], email, 'fr', { 'accept-language': 'en-US,en' });
    const mail = readableMail((await mailTo(email)).raw);
    const code = codeOf(mail);
    expect(mailHeader(mail, 'Subject')).toBe(`Votre code de validation Sutura : ${code}`);
    expect(mail).toContain('Bonjour Jean-François,');
    expect(mail).toContain('Ce code est valable 15 minutes.');
  });

  it('follows the browser’s language when the person left the choice automatic', async () => {
    const email = 'eloise.smtp@example.org';
    await signUp(SAMPLE_PEOPLE[2], email, 'auto', { 'accept-language': 'en-GB,en;q=0.9,fr;q=0.5' });
    const mail = readableMail((await mailTo(email)).raw);
    expect(mailHeader(mail, 'Subject')).toBe(`Your Sutura validation code: ${codeOf(mail)}`);
  });

  it('writes nothing to the outbox folder when SMTP is configured', () => {
    expect(received.length).toBeGreaterThanOrEqual(3);
    expect(existsSync(path.join(ctx.dataDir, 'outbox'))).toBe(false);
  });

  it('retries a mail the server could not take, and delivers it once', { timeout: 60_000 }, async () => {
    await ctx.queue.send('mail.send', {
      to: FLAKY,
      lang: 'en',
      template: { name: 'notification', params: { subject: 'Sutura: your video is ready', content: 'Your video is ready.', link: null } },
    });
    // pg-boss waits 10 to 20 s before the first retry (5 s delay with backoff).
    const message = await mailTo(FLAKY, 45_000);
    expect(refused.has(FLAKY)).toBe(true);
    expect(readableMail(message.raw)).toContain('Your video is ready.');
    await new Promise((r) => setTimeout(r, 1000));
    expect(received.filter((m) => m.to.includes(FLAKY))).toHaveLength(1);
  });
});
