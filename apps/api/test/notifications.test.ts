import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '@sutura/domain/errors';
import { NOTIFICATION_KINDS, notificationListResponse, notificationSchema } from '@sutura/domain/notifications';
import { notifications } from '../src/db/schema.ts';
import { aboutCase } from '../src/modules/notifications/notifications.service.ts';
import { createTestContext, type TestContext } from './harness.ts';
import { mailHeader, readableMail } from './mail-text.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

type Person = Awaited<ReturnType<TestContext['createUser']>>;
const english = { langCode: 'en', theme: 'auto', showRatings: true } as const;

async function mailCount(to: string): Promise<number> {
  const files = await readdir(path.join(ctx.dataDir, 'outbox')).catch(() => [] as string[]);
  return files.filter((f) => f.endsWith(`-${to}.eml`)).length;
}

async function list(person: Person, query = '') {
  const res = await ctx.inject({ method: 'GET', url: `/v1/notification/list${query}`, token: person.token });
  expect(res.statusCode, res.body).toBe(200);
  return notificationListResponse.parse(res.json().data);
}

describe('the notification list', () => {
  let person: Person;
  let stranger: Person;
  beforeAll(async () => {
    // Mails are off here so that this block does not fill the outbox; the mail block turns them on.
    const quiet = { security: false, videos: false, preparation: false, analysis: false, sharing: false };
    person = await ctx.createUser('learner', { preferences: english, notificationSettings: quiet });
    stranger = await ctx.createUser('learner', { notificationSettings: quiet });
  });

  it('lists the person’s notifications newest first, rendered in their language', async () => {
    await ctx.services.notifications.notify(person.id, 'passwordChanged');
    await ctx.services.notifications.notify(person.id, 'contactSent', { subject: 'X' });
    await ctx.services.notifications.notify(stranger.id, 'contactSent', { subject: 'not yours' });

    const page = await list(person);
    expect(page).toMatchObject({ total: 2, unread: 2, page: 1, limit: 20 });
    expect(page.data.map((n) => n.key)).toEqual(['contactSent', 'passwordChanged']);
    expect(page.data[0]).toMatchObject({
      content: 'Your message "X" was sent to the support team, who will answer by email.',
      type: 'success',
      status: 'unread',
      link: null,
    });
    expect(page.data[1]!.content).toBe(NOTIFICATION_KINDS.passwordChanged.en);
    expect(Date.parse(page.data[0]!.createdAt)).toBeGreaterThanOrEqual(Date.parse(page.data[1]!.createdAt));

    const fr = await list(person, '?langCode=fr');
    expect(fr.data[0]!.content).toBe("Votre message « X » a été envoyé à l'équipe support, qui vous répondra par e-mail.");
  });

  it('marks a notification read', async () => {
    const [first] = (await list(person)).data;
    const res = await ctx.inject({
      method: 'PUT',
      url: `/v1/notification/${first!.id}`,
      token: person.token,
      body: { id: first!.id, status: 'read' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(notificationSchema.parse(res.json().data)).toMatchObject({ id: first!.id, status: 'read', content: first!.content });
    const after = await list(person);
    expect(after.unread).toBe(1);
    expect(after.data.find((n) => n.id === first!.id)!.status).toBe('read');

    const bad = await ctx.inject({
      method: 'PUT',
      url: `/v1/notification/${first!.id}`,
      token: person.token,
      body: { status: 'archived' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details).toContainEqual(expect.objectContaining({ path: 'status', code: 'INVALID_VALUE' }));
  });

  it('answers 404 for another person’s notification and leaves it untouched', async () => {
    const [theirs] = (await list(stranger)).data;
    const put = await ctx.inject({
      method: 'PUT',
      url: `/v1/notification/${theirs!.id}?langCode=en`,
      token: person.token,
      body: { status: 'read' },
    });
    expect(put.statusCode).toBe(404);
    expect(put.json()).toEqual({ success: false, error: { code: 'NOT_FOUND', message: ERRORS.NOT_FOUND.en } });
    const del = await ctx.inject({ method: 'DELETE', url: `/v1/notification/${theirs!.id}`, token: person.token });
    expect(del.statusCode).toBe(404);
    expect((await list(stranger)).data).toEqual([theirs]);
  });

  it('deletes a notification', async () => {
    const before = await list(person);
    const target = before.data.find((n) => n.status === 'unread')!;
    const res = await ctx.inject({ method: 'DELETE', url: `/v1/notification/${target.id}`, token: person.token });
    expect(res.json()).toEqual({ success: true, data: {} });
    const after = await list(person);
    expect(after.total).toBe(before.total - 1);
    expect(after.unread).toBe(before.unread - 1);
    expect(after.data.map((n) => n.id)).not.toContain(target.id);
    const again = await ctx.inject({ method: 'DELETE', url: `/v1/notification/${target.id}`, token: person.token });
    expect(again.statusCode).toBe(404);
  });

  it('pages through the list and refuses a page size over the limit', async () => {
    const pager = await ctx.createUser('learner', {
      notificationSettings: { security: false, videos: true, preparation: true, analysis: true, sharing: true },
    });
    for (let i = 1; i <= 5; i++) await ctx.services.notifications.notify(pager.id, 'contactSent', { subject: `S${i}` });
    const all = await list(pager, '?limit=100');
    expect(all.total).toBe(5);
    expect(all.data.map((n) => n.content.match(/S\d/)![0])).toEqual(['S5', 'S4', 'S3', 'S2', 'S1']);

    const pages = [await list(pager, '?page=1&limit=2'), await list(pager, '?page=2&limit=2'), await list(pager, '?page=3&limit=2')];
    expect(pages.map((p) => p.data.length)).toEqual([2, 2, 1]);
    expect(pages.flatMap((p) => p.data.map((n) => n.id))).toEqual(all.data.map((n) => n.id));
    expect(pages[1]).toMatchObject({ page: 2, limit: 2, total: 5, unread: 5 });
    expect((await list(pager, '?page=4&limit=2')).data).toEqual([]);

    for (const query of ['limit=1000', 'limit=0', 'page=0', 'page=-1', 'limit=abc', 'sort=-createdAt', 'filter=status==read']) {
      const res = await ctx.inject({ method: 'GET', url: `/v1/notification/list?${query}&langCode=en`, token: pager.token });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code, query).toBe('QUERY_UNKNOWN_FIELD');
    }
  });
});

describe('notification mails', () => {
  it('mails a notification when the person asked for it, and stops when they opt out', async () => {
    const person = await ctx.createUser('learner', { preferences: english });
    await ctx.services.notifications.notify(person.id, 'contactSent', { subject: 'First' }, '/dashboard');
    const mail = readableMail((await ctx.waitForMail(person.email)).text);
    expect(mailHeader(mail, 'To')).toBe(person.email);
    expect(mailHeader(mail, 'Subject')).toBe('Your message to the Sutura support team was sent');
    expect(mail).toContain('Your message "First" was sent to the support team, who will answer by email.');
    expect(mail).toContain(`Open Sutura: ${new URL('/dashboard', ctx.config.publicUrl).href}`);

    const off = await ctx.inject({
      method: 'PUT',
      url: '/v1/users/profile/me',
      token: person.token,
      body: { notificationSettings: { security: false } },
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().data.notificationSettings).toEqual({
      security: false,
      videos: true,
      preparation: true,
      analysis: true,
      sharing: true,
    });

    await ctx.services.notifications.notify(person.id, 'contactSent', { subject: 'Second' });
    expect((await list(person)).total).toBe(2);
    await new Promise((r) => setTimeout(r, 2000));
    expect(await mailCount(person.email)).toBe(1);

    // Back on: the next mail is the next notification's, and the muted one never comes.
    await ctx.inject({
      method: 'PUT',
      url: '/v1/users/profile/me',
      token: person.token,
      body: { notificationSettings: { security: true } },
    });
    await ctx.services.notifications.notify(person.id, 'contactSent', { subject: 'Third' });
    const third = readableMail((await ctx.waitForMail(person.email, { after: 1 })).text);
    expect(third).toContain('"Third"');
    // Another kind, another subject, with its own words filled in.
    await ctx.services.notifications.notify(person.id, 'videoShared', { name: 'Claire Dubois', surgery: 'Pyeloplasty' });
    const shared = readableMail((await ctx.waitForMail(person.email, { after: 2 })).text);
    expect(mailHeader(shared, 'Subject')).toBe('Sutura: Claire Dubois shared a video of Pyeloplasty with you');
    expect(await mailCount(person.email)).toBe(3);
  });

  it('gives every kind of notification a subject of its own, in both languages', () => {
    for (const lang of ['en', 'fr'] as const) {
      const subjects = Object.values(NOTIFICATION_KINDS).map((kind) => kind.subject[lang]);
      expect(new Set(subjects).size).toBe(subjects.length);
    }
  });
});

describe('a notification about a case', () => {
  const pyeloplasty = { fr: 'Pyéloplastie', en: 'Pyeloplasty' };

  it('names the case by its surgery and the day it was added, in the list, the live push and the mail, in both languages', async () => {
    const person = await ctx.createUser('learner', { preferences: english });
    const first = { createdAt: new Date('2026-03-04T10:00:00Z') };
    const second = { createdAt: new Date('2026-09-21T10:00:00Z') };
    const pushed = await ctx.services.notifications.notify(person.id, 'videoPrepared', aboutCase(pyeloplasty, first), '/videos/a');
    await ctx.services.notifications.notify(person.id, 'videoPrepared', aboutCase(pyeloplasty, second), '/videos/b');
    // What goes live (socket and push) is the rendered text.
    expect(pushed?.content).toBe('Your video of Pyeloplasty (4 March 2026) was prepared: it now waits for an expert.');

    const en = await list(person);
    expect(en.data.map((n) => n.content)).toEqual([
      'Your video of Pyeloplasty (21 September 2026) was prepared: it now waits for an expert.',
      'Your video of Pyeloplasty (4 March 2026) was prepared: it now waits for an expert.',
    ]);
    const fr = await list(person, '?langCode=fr');
    expect(fr.data.map((n) => n.content)).toEqual([
      'Votre vidéo de Pyéloplastie (21 septembre 2026) a été préparée : elle attend maintenant un expert.',
      'Votre vidéo de Pyéloplastie (4 mars 2026) a été préparée : elle attend maintenant un expert.',
    ]);

    const mail = readableMail((await ctx.waitForMail(person.email)).text);
    expect(mailHeader(mail, 'Subject')).toBe('Sutura: your video of Pyeloplasty (4 March 2026) was prepared');
    expect(mail).toContain('Your video of Pyeloplasty (4 March 2026) was prepared');
  });

  it('keeps reading notifications stored before they named the day', async () => {
    const person = await ctx.createUser('learner', {
      preferences: english,
      notificationSettings: { security: true, videos: false, preparation: true, analysis: true, sharing: true },
    });
    await ctx.database.db.insert(notifications).values({ userId: person.id, key: 'videoReady', params: { surgery: pyeloplasty } });
    expect((await list(person)).data[0]!.content).toBe('Your video of Pyeloplasty is ready.');
    expect((await list(person, '?langCode=fr')).data[0]!.content).toBe('Votre vidéo de Pyéloplastie est prête.');
  });
});

describe('POST /v1/contact', () => {
  it('mails the message to the support address and tells the sender it was sent', async () => {
    const person = await ctx.createUser('expert', { preferences: english, firstName: 'Claire', lastName: 'Dubois' });
    const message = 'The video player freezes at 12:30 on the\nsecond step — could you look at it?';
    const res = await ctx.inject({ method: 'POST', url: '/v1/contact', token: person.token, body: { subject: 'technical', message } });
    expect(res.json()).toEqual({ success: true, data: {} });

    const mail = readableMail((await ctx.waitForMail(ctx.config.supportEmail)).text);
    expect(mailHeader(mail, 'To')).toBe(ctx.config.supportEmail);
    expect(mailHeader(mail, 'Subject')).toBe('[Sutura contact] Technical problem — Claire Dubois');
    expect(mail).toContain(message);
    expect(mail).toContain(person.email);
    expect(mail).toContain(person.id);

    const [notification] = (await list(person)).data;
    expect(notification).toMatchObject({
      key: 'contactSent',
      content: 'Your message "Technical problem" was sent to the support team, who will answer by email.',
    });

    const bad = await ctx.inject({
      method: 'POST',
      url: '/v1/contact?langCode=en',
      token: person.token,
      body: { subject: 'complaint', message: '' },
    });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .error.details.map((d: { path: string }) => d.path)
        .sort(),
    ).toEqual(['message', 'subject']);
  });

  it('sends a message once when it is sent twice at once (a double click), and a different one again', async () => {
    const person = await ctx.createUser('learner', { preferences: english });
    const before = await mailCount(ctx.config.supportEmail);
    const body = { subject: 'question', message: `Double click ${person.id}` };
    const send = (b: typeof body) => ctx.inject({ method: 'POST', url: '/v1/contact', token: person.token, body: b });
    const answers = await Promise.all([send(body), send(body), send(body)]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    await ctx.waitForMail(ctx.config.supportEmail, { after: before });
    expect((await send({ ...body, message: `${body.message} (follow-up)` })).statusCode).toBe(200);
    await ctx.waitForMail(ctx.config.supportEmail, { after: before + 1 });
    // Give a duplicate mail job the time it would need to show up.
    await new Promise((r) => setTimeout(r, 500));
    expect(await mailCount(ctx.config.supportEmail)).toBe(before + 2);
    const sent = (await list(person)).data.filter((n) => n.key === 'contactSent');
    expect(sent).toHaveLength(2);
  });

  it('is not open to someone who runs the platform rather than practises on it', async () => {
    const admin = await ctx.createUser('administrator');
    const res = await ctx.inject({
      method: 'POST',
      url: '/v1/contact',
      token: admin.token,
      body: { subject: 'question', message: 'Hello' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('FORBIDDEN');
    expect(await ctx.database.db.select().from(notifications).where(eq(notifications.userId, admin.id))).toEqual([]);
  });
});
