import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTIFICATION_KINDS } from '@sutura/domain/notifications';
import { users } from '../src/db/schema.ts';
import { createTestContext, type TestContext } from './harness.ts';
import { readableMail } from './mail-text.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
}, 180_000);
afterAll(async () => {
  await ctx?.close();
});

type Person = Awaited<ReturnType<TestContext['createUser']>>;

/** The person's mails, oldest first, as they read them. */
async function mailsOf(email: string): Promise<string[]> {
  const dir = path.join(ctx.dataDir, 'outbox');
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith(`-${email}.eml`)).sort();
  return Promise.all(files.map(async (f) => readableMail(await readFile(path.join(dir, f), 'utf8'))));
}

async function nextMail(email: string, before: number): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const mails = await mailsOf(email);
    if (mails.length > before) return mails.at(-1)!;
    if (Date.now() > deadline) throw new Error(`no mail for ${email}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function readsAppIn(person: Person, langCode: 'fr' | 'en') {
  const res = await ctx.inject({ method: 'GET', url: `/v1/users/profile/me?langCode=${langCode}`, token: person.token });
  expect(res.statusCode, res.body).toBe(200);
}

async function appLanguageOf(person: Person) {
  const [row] = await ctx.database.db.select({ appLanguage: users.appLanguage }).from(users).where(eq(users.id, person.id));
  return row!.appLanguage;
}

describe('a person’s mails follow the language they read the app in', () => {
  it('with the language "set by the browser", mails follow the language of their requests', async () => {
    const person = await ctx.createUser('learner', { preferences: { langCode: 'auto', theme: 'auto', showRatings: true } });
    await readsAppIn(person, 'en');
    expect(await appLanguageOf(person)).toBe('en');
    let before = (await mailsOf(person.email)).length;
    await ctx.services.notifications.notify(person.id, 'passwordChanged');
    const english = await nextMail(person.email, before);
    expect(english).toContain(NOTIFICATION_KINDS.passwordChanged.en);
    expect(english).not.toContain(NOTIFICATION_KINDS.passwordChanged.fr);

    // The browser now reads French (Accept-Language, no langCode): the next mail is French.
    const res = await ctx.inject({
      method: 'GET',
      url: '/v1/users/profile/me',
      token: person.token,
      headers: { 'accept-language': 'fr-FR,fr;q=0.9' },
    });
    expect(res.statusCode).toBe(200);
    expect(await appLanguageOf(person)).toBe('fr');
    before = (await mailsOf(person.email)).length;
    await ctx.services.notifications.notify(person.id, 'passwordChanged');
    expect(await nextMail(person.email, before)).toContain(NOTIFICATION_KINDS.passwordChanged.fr);
  });

  it('a language the person chose wins over the one they happen to read in', async () => {
    const person = await ctx.createUser('learner', { preferences: { langCode: 'en', theme: 'auto', showRatings: true } });
    await readsAppIn(person, 'fr');
    const before = (await mailsOf(person.email)).length;
    await ctx.services.notifications.notify(person.id, 'passwordChanged');
    expect(await nextMail(person.email, before)).toContain(NOTIFICATION_KINDS.passwordChanged.en);
  });

  it('a validation mail an administrator sends again is in the person’s language, not the administrator’s', async () => {
    const admin = await ctx.createUser('administrator', { preferences: { langCode: 'fr', theme: 'auto', showRatings: true } });
    const person = await ctx.createUser('learner');
    await ctx.database.db.update(users).set({ appLanguage: 'en', emailVerifiedAt: null }).where(eq(users.id, person.id));
    const before = (await mailsOf(person.email)).length;
    const res = await ctx.inject({ method: 'POST', url: `/v1/admin/users/${person.id}/validation-mail`, token: admin.token, body: {} });
    expect(res.statusCode, res.body).toBe(200);
    const mail = await nextMail(person.email, before);
    expect(mail).toContain('Hello ');
    expect(mail).not.toContain('Bonjour ');
  });
});

describe('the seeded digestive surgeries have their organ', () => {
  const surgeryOrgan = async (code: string) => {
    const rows = await ctx.database.pool.query('SELECT o.code FROM surgeries s LEFT JOIN organs o ON o.id = s.organ_id WHERE s.code = $1', [
      code,
    ]);
    return (rows.rows[0] as { code: string | null } | undefined)?.code ?? null;
  };

  it('on a new installation, and on one seeded before, without undoing an administrator’s choice', async () => {
    expect(await surgeryOrgan('colectomy')).toBe('colon');
    expect(await surgeryOrgan('cholecystectomy')).toBe('gallbladder');

    // An installation seeded before: both surgeries without an organ, the link never seeded.
    const { pool } = ctx.database;
    await pool.query("UPDATE surgeries SET organ_id = NULL WHERE code IN ('colectomy', 'cholecystectomy')");
    await pool.query("DELETE FROM vocabulary_seeds WHERE kind = 'surgery_organ'");
    // Meanwhile an administrator gave the cholecystectomy another organ.
    await pool.query("UPDATE surgeries SET organ_id = (SELECT id FROM organs WHERE code = 'kidney') WHERE code = 'cholecystectomy'");
    await ctx.services.vocabularies.seed();
    expect(await surgeryOrgan('colectomy')).toBe('colon');
    expect(await surgeryOrgan('cholecystectomy')).toBe('kidney');

    // An administrator takes the colectomy's organ away: the next start leaves it so.
    await pool.query("UPDATE surgeries SET organ_id = NULL WHERE code = 'colectomy'");
    await ctx.services.vocabularies.seed();
    expect(await surgeryOrgan('colectomy')).toBeNull();
  });
});
