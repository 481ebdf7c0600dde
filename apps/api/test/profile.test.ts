import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { and, eq, ne } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '@sutura/domain/errors';
import { AVATAR_SIZE_PX } from '@sutura/domain/limits';
import { profileSchema, publicUserSchema, type Profile } from '@sutura/domain/users';
import { auditLog, knownDevices, media, notifications, sessions, specialties, users, verificationCodes } from '../src/db/schema.ts';
import { codeFromMail, createTestContext, SAMPLE_PEOPLE, type TestContext } from './harness.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

type Person = Awaited<ReturnType<TestContext['createUser']>>;

/** A person with a complete profile, as sign-up leaves it. */
async function surgeon(overrides: Parameters<TestContext['createUser']>[1] = {}): Promise<Person> {
  return ctx.createUser('learner', {
    phone: '+33 612345678',
    country: 'France',
    city: 'Lyon',
    careCentreType: 'public',
    specialtyId: await ctx.specialtyId(),
    yearsOfExperience: 6,
    yearsOfRoboticExperience: 2,
    robot: 'da Vinci Xi',
    ...overrides,
  });
}

async function profileOf(person: Person, query = ''): Promise<Profile> {
  const res = await ctx.inject({ method: 'GET', url: `/v1/users/profile/me${query}`, token: person.token });
  expect(res.statusCode, res.body).toBe(200);
  return profileSchema.parse(res.json().data);
}

async function otherSpecialty(notId: string | null) {
  const [row] = await ctx.database.db
    .select()
    .from(specialties)
    .where(ne(specialties.id, notId ?? randomUUID()))
    .limit(1);
  return row!;
}

/** A multipart body as a browser sends it. */
async function multipart(
  file: { bytes: Buffer; name: string; type: string } | undefined,
  fields: Record<string, string> = { purpose: 'avatar' },
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  const encoded = new Response(form);
  return { payload: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type')! };
}

async function upload(person: Person, file: { bytes: Buffer; name: string; type: string } | undefined, fields?: Record<string, string>) {
  const { payload, contentType } = await multipart(file, fields);
  return ctx.app.inject({
    method: 'POST',
    url: '/v1/common/medias/create/upload',
    headers: { authorization: `Bearer ${person.token}`, 'content-type': contentType },
    payload,
  });
}

/** A photo straight from a phone: JPEG with EXIF that names the patient. */
function photoWithExif(): Promise<Buffer> {
  return sharp({ create: { width: 800, height: 600, channels: 3, background: '#17C7A4' } })
    .jpeg()
    .withMetadata({ exif: { IFD0: { Artist: 'Patient Jean Dupont', ImageDescription: 'secret' } } })
    .toBuffer();
}

const mediaRowsOf = (userId: string) => ctx.database.db.select().from(media).where(eq(media.ownerId, userId));
const userFolder = (userId: string) => path.join(ctx.dataDir, 'media', 'users', userId);

describe('GET and PUT /v1/users/profile/me', () => {
  let person: Person;
  beforeAll(async () => {
    person = await surgeon();
  });

  it('answers the profile of the signed-in person', async () => {
    const profile = await profileOf(person);
    const specialtyId = await ctx.specialtyId();
    expect(profile).toMatchObject({
      id: person.id,
      email: person.email,
      roles: ['learner'],
      information: {
        firstName: 'Test',
        lastName: 'learner',
        phone: '+33 612345678',
        country: 'France',
        city: 'Lyon',
        careCentreType: 'public',
      },
      career: { specialtyId, yearsOfExperience: 6, yearsOfRoboticExperience: 2, robot: 'da Vinci Xi', recorderBrand: null },
      preferences: { langCode: 'auto', theme: 'auto', showRatings: true },
      notificationSettings: { security: true, videos: true, preparation: true, analysis: true, sharing: true },
      mediaId: null,
      avatarUrl: null,
      pushToken: null,
    });
    expect(profile.career.specialty?.id).toBe(specialtyId);
  });

  it('changes only the group of fields that is sent', async () => {
    const before = await profileOf(person);

    const info = await ctx.inject({
      method: 'PUT',
      url: '/v1/users/profile/me',
      token: person.token,
      body: { information: { city: 'Paris' } },
    });
    expect(info.statusCode, info.body).toBe(200);
    const afterInfo = profileSchema.parse(info.json().data);
    expect(afterInfo.information).toEqual({ ...before.information, city: 'Paris' });
    expect(afterInfo.career).toEqual(before.career);
    expect(afterInfo.preferences).toEqual(before.preferences);

    const specialty = await otherSpecialty(before.career.specialtyId);
    const career = await ctx.inject({
      method: 'PUT',
      url: '/v1/users/profile/me?langCode=en',
      token: person.token,
      body: { career: { specialtyId: specialty.id, yearsOfExperience: '7' } },
    });
    expect(career.statusCode, career.body).toBe(200);
    const afterCareer = profileSchema.parse(career.json().data);
    expect(afterCareer.career).toEqual({
      ...before.career,
      specialtyId: specialty.id,
      specialty: { id: specialty.id, name: specialty.nameEn },
      yearsOfExperience: 7,
    });
    expect(afterCareer.information).toEqual(afterInfo.information);

    const prefs = await ctx.inject({
      method: 'PUT',
      url: '/v1/users/profile/me',
      token: person.token,
      body: { preferences: { theme: 'dark' } },
    });
    expect(prefs.statusCode, prefs.body).toBe(200);
    const afterPrefs = profileSchema.parse(prefs.json().data);
    expect(afterPrefs.preferences).toEqual({ ...before.preferences, theme: 'dark' });
    expect(afterPrefs.information).toEqual(afterInfo.information);
    expect(afterPrefs.career.specialtyId).toBe(specialty.id);

    // What was answered is what is stored.
    expect(await profileOf(person)).toEqual({
      ...afterPrefs,
      career: { ...afterPrefs.career, specialty: { id: specialty.id, name: specialty.nameFr } },
    });
  });

  it('refuses a bad body with field details and changes nothing', async () => {
    const before = await profileOf(person);
    const refused: [unknown, string, string][] = [
      [{ information: { phone: '0612345678', city: 'Nice' } }, 'information.phone', 'PHONE_FORMAT'],
      [{ information: { city: '' } }, 'information.city', 'FIELD_REQUIRED'],
      [{ career: { yearsOfExperience: 'many' } }, 'career.yearsOfExperience', 'YEARS_FORMAT'],
      [{ preferences: { theme: 'blue' } }, 'preferences.theme', 'INVALID_VALUE'],
      [{ career: { specialtyId: randomUUID() } }, 'career.specialtyId', 'INVALID_VALUE'],
      // More years of robotic surgery than of practice: sent together, or one against the other as stored (6).
      [{ career: { yearsOfExperience: 3, yearsOfRoboticExperience: 4 } }, 'career.yearsOfRoboticExperience', 'ROBOTIC_YEARS_OVER_PRACTICE'],
      [{ career: { yearsOfRoboticExperience: 9 } }, 'career.yearsOfRoboticExperience', 'ROBOTIC_YEARS_OVER_PRACTICE'],
      [{ career: { yearsOfExperience: 1 } }, 'career.yearsOfRoboticExperience', 'ROBOTIC_YEARS_OVER_PRACTICE'],
    ];
    for (const [body, pathName, code] of refused) {
      const res = await ctx.inject({ method: 'PUT', url: '/v1/users/profile/me?langCode=en', token: person.token, body });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.details, JSON.stringify(body)).toContainEqual({
        path: pathName,
        code,
        message: ERRORS[code as keyof typeof ERRORS].en,
      });
    }
    // The schemas are strict: a key the API does not know is refused, not ignored.
    for (const body of [
      { nickname: 'Doc' },
      { information: { nickname: 'Doc' } },
      { career: { rpps: '10999901019' } },
      { roles: ['administrator'] },
    ]) {
      const res = await ctx.inject({ method: 'PUT', url: '/v1/users/profile/me', token: person.token, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.details.length).toBeGreaterThan(0);
    }
    expect(await profileOf(person)).toEqual(before);
  });
});

describe('preferences, push token and language', () => {
  it('reads and replaces the whole preferences object, and refuses a part or a bad value', async () => {
    const person = await ctx.createUser('learner');
    const get = await ctx.inject({ method: 'GET', url: '/v1/users/preferences', token: person.token });
    expect(get.json()).toEqual({ success: true, data: { preferences: { langCode: 'auto', theme: 'auto', showRatings: true } } });

    const full = { langCode: 'en', theme: 'light', showRatings: false };
    const put = await ctx.inject({ method: 'PUT', url: '/v1/users/preferences', token: person.token, body: full });
    expect(put.json()).toEqual({ success: true, data: { preferences: full } });

    for (const body of [{ theme: 'dark' }, { ...full, theme: 'blue' }, { ...full, langCode: 'de' }, { ...full, showRatings: 'yes' }]) {
      const res = await ctx.inject({ method: 'PUT', url: '/v1/users/preferences', token: person.token, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.details.length).toBeGreaterThan(0);
    }
    const after = await ctx.inject({ method: 'GET', url: '/v1/users/preferences', token: person.token });
    expect(after.json().data.preferences).toEqual(full);
    // The person's language now applies to their messages, whatever the browser says.
    const refused = await ctx.inject({
      method: 'PUT',
      url: '/v1/users/preferences',
      token: person.token,
      body: {},
      headers: { 'accept-language': 'fr' },
    });
    expect(refused.json().error).toMatchObject({ code: 'INVALID_VALUE', message: ERRORS.INVALID_VALUE.en });
  });

  it('saves the push token', async () => {
    const person = await ctx.createUser('learner');
    const res = await ctx.inject({
      method: 'PUT',
      url: '/v1/users/save/pushtoken',
      token: person.token,
      body: { pushToken: 'ExponentPushToken[abc123]' },
    });
    expect(res.json()).toEqual({ success: true, data: {} });
    expect((await profileOf(person)).pushToken).toBe('ExponentPushToken[abc123]');
    const empty = await ctx.inject({ method: 'PUT', url: '/v1/users/save/pushtoken', token: person.token, body: { pushToken: '  ' } });
    expect(empty.statusCode).toBe(400);
    expect((await profileOf(person)).pushToken).toBe('ExponentPushToken[abc123]');
  });

  it('remembers an anonymous visitor’s language in a cookie that later messages follow', async () => {
    const res = await ctx.inject({ method: 'PUT', url: '/v1/users/language', body: { langCode: 'en' } });
    expect(res.json()).toEqual({ success: true, data: { langCode: 'en' } });
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^lang=en;/);
    expect(cookie).toContain('Path=/');
    const langCookie = cookie.split(';')[0]!;

    const login = { email: 'nobody@example.org', password: 'wrongpass1' };
    // The saved choice beats the browser's Accept-Language; an explicit langCode beats both.
    const en = await ctx.inject({
      method: 'POST',
      url: '/v1/auth',
      body: login,
      headers: { cookie: langCookie, 'accept-language': 'fr-FR' },
    });
    expect(en.json().error.message).toBe(ERRORS.INVALID_CREDENTIALS.en);
    const fr = await ctx.inject({ method: 'POST', url: '/v1/auth?langCode=fr', body: login, headers: { cookie: langCookie } });
    expect(fr.json().error.message).toBe(ERRORS.INVALID_CREDENTIALS.fr);

    const back = await ctx.inject({ method: 'PUT', url: '/v1/users/language', body: { langCode: 'fr' }, headers: { cookie: langCookie } });
    const frCookie = String(back.headers['set-cookie']).split(';')[0]!;
    expect(frCookie).toBe('lang=fr');
    const again = await ctx.inject({ method: 'GET', url: '/v1/nothing', headers: { cookie: frCookie, 'accept-language': 'en' } });
    expect(again.json().error.message).toBe(ERRORS.NOT_FOUND.fr);

    const bad = await ctx.inject({ method: 'PUT', url: '/v1/users/language', body: { langCode: 'de' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['set-cookie']).toBeUndefined();
  });
});

describe('GET /v1/users/{id}', () => {
  it('answers what one person may read of another, with select and populate', async () => {
    const viewer = await ctx.createUser('expert', { preferences: { langCode: 'en', theme: 'auto', showRatings: true } });
    const target = await surgeon();
    const [specialty] = await ctx.database.db
      .select()
      .from(specialties)
      .where(eq(specialties.id, await ctx.specialtyId()));

    const plain = await ctx.inject({ method: 'GET', url: `/v1/users/${target.id}`, token: viewer.token });
    expect(plain.statusCode, plain.body).toBe(200);
    const data = publicUserSchema.strict().parse(plain.json().data);
    expect(data).toEqual({
      id: target.id,
      information: { firstName: 'Test', lastName: 'learner' },
      career: { specialtyId: specialty!.id },
      mediaId: null,
    });
    // Contact details stay private.
    expect(plain.body).not.toContain(target.email);
    expect(plain.body).not.toContain('+33');

    const selected = await ctx.inject({ method: 'GET', url: `/v1/users/${target.id}?select=information`, token: viewer.token });
    expect(selected.json().data).toEqual({ id: target.id, information: { firstName: 'Test', lastName: 'learner' } });

    const populated = await ctx.inject({
      method: 'GET',
      url: `/v1/users/${target.id}?populate=career.specialty,media`,
      token: viewer.token,
    });
    expect(publicUserSchema.parse(populated.json().data)).toMatchObject({
      career: { specialtyId: specialty!.id, specialty: { id: specialty!.id, name: specialty!.nameEn } },
      media: null,
    });
    const fr = await ctx.inject({
      method: 'GET',
      url: `/v1/users/${target.id}?populate=career.specialty&langCode=fr`,
      token: viewer.token,
    });
    expect(fr.json().data.career.specialty.name).toBe(specialty!.nameFr);

    for (const query of ['select=email', 'populate=passwordHash', 'select=information,phone', 'sort=-email']) {
      const res = await ctx.inject({ method: 'GET', url: `/v1/users/${target.id}?${query}`, token: viewer.token });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code).toBe('QUERY_UNKNOWN_FIELD');
    }
  });
});

describe('the avatar', () => {
  it('re-encodes an uploaded photo as a square WebP without its metadata, behind a signed URL', async () => {
    const person = await ctx.createUser('learner');
    const photo = await photoWithExif();
    // The photo really carries the metadata that must not leak.
    expect((await sharp(photo).metadata()).exif?.toString('latin1')).toContain('Patient Jean Dupont');

    const res = await upload(person, { bytes: photo, name: 'IMG_0001.jpg', type: 'image/jpeg' });
    expect(res.statusCode, res.body).toBe(200);
    const { id, url, kind } = res.json().data;
    expect(kind).toBe('avatar');
    expect(url).toMatch(new RegExp(`^/v1/media/${id}\\?u=${person.id}&exp=\\d+&sig=[\\w-]+$`));

    const profile = await profileOf(person);
    expect(profile.mediaId).toBe(id);
    expect(profile.avatarUrl).toMatch(new RegExp(`^/v1/media/${id}\\?`));

    const file = await ctx.app.inject({ method: 'GET', url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/webp');
    expect(file.headers['cache-control']).toContain('private');
    const meta = await sharp(file.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: AVATAR_SIZE_PX, height: AVATAR_SIZE_PX });
    expect(meta.exif).toBeUndefined();
    expect(file.rawPayload.toString('latin1')).not.toContain('Jean Dupont');

    const range = await ctx.app.inject({ method: 'GET', url, headers: { range: 'bytes=0-99' } });
    expect(range.statusCode).toBe(206);
    expect(range.headers['content-range']).toBe(`bytes 0-99/${file.rawPayload.length}`);
    expect(range.rawPayload).toHaveLength(100);
    expect(range.rawPayload.equals(file.rawPayload.subarray(0, 100))).toBe(true);

    const tampered = url.replace(/sig=([\w-])/, (_: string, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`);
    expect(tampered).not.toBe(url);
    const otherViewer = url.replace(`u=${person.id}`, `u=${randomUUID()}`);
    const later = url.replace(/exp=(\d+)/, (_: string, exp: string) => `exp=${Number(exp) + 3600}`);
    for (const bad of [tampered, otherViewer, later]) {
      const r = await ctx.app.inject({ method: 'GET', url: bad });
      expect(r.statusCode, bad).toBe(404);
      expect(r.json().error.code).toBe('NOT_FOUND');
    }
    // Without its signature the URL is not a media URL at all.
    const bare = await ctx.app.inject({ method: 'GET', url: `/v1/media/${id}` });
    expect(bare.statusCode).toBe(400);
    expect(bare.headers['content-type']).toContain('application/json');

    ctx.clock.advance((ctx.config.signedUrlTtlSeconds + 60) * 1000);
    try {
      const expired = await ctx.app.inject({ method: 'GET', url });
      expect(expired.statusCode).toBe(404);
    } finally {
      ctx.clock.advance(-(ctx.config.signedUrlTtlSeconds + 60) * 1000);
    }
  });

  it('refuses a file that is not an image with 415 and stores nothing', async () => {
    const person = await ctx.createUser('learner');
    const text = Buffer.from('This is not a photo, just some text pretending to be one.\n'.repeat(20));
    const res = await upload(person, { bytes: text, name: 'holiday.jpg', type: 'image/jpeg' });
    expect(res.statusCode, res.body).toBe(415);
    expect(res.json()).toEqual({ success: false, error: { code: 'UNSUPPORTED_MEDIA', message: ERRORS.UNSUPPORTED_MEDIA.fr } });
    expect(await mediaRowsOf(person.id)).toEqual([]);
    expect(existsSync(userFolder(person.id))).toBe(false);
    expect((await profileOf(person)).mediaId).toBeNull();

    const noFile = await upload(person, undefined);
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().error.details).toContainEqual(expect.objectContaining({ path: 'file', code: 'FIELD_REQUIRED' }));
    const json = await ctx.inject({ method: 'POST', url: '/v1/common/medias/create/upload', token: person.token, body: { file: 'x' } });
    expect(json.statusCode).toBe(415);
  });

  it('refuses a file over the size limit with 413', async () => {
    const person = await ctx.createUser('learner');
    // Noise does not compress, so the PNG is as big as its pixels.
    const width = 1024;
    const height = Math.ceil(ctx.config.avatarMaxBytes / (width * 3)) + 8;
    const big = await sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(big.length).toBeGreaterThan(ctx.config.avatarMaxBytes);
    const res = await upload(person, { bytes: big, name: 'scan.png', type: 'image/png' });
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json().error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await mediaRowsOf(person.id)).toEqual([]);
  });

  it('removes the old file when the avatar is replaced, and all of it when it is deleted', async () => {
    const person = await ctx.createUser('learner');
    const first = await upload(person, { bytes: await photoWithExif(), name: 'a.jpg', type: 'image/jpeg' });
    const [firstRow] = await mediaRowsOf(person.id);
    expect(await ctx.storage.size(firstRow!.storageKey)).toBeGreaterThan(0);

    const png = await sharp({ create: { width: 300, height: 900, channels: 4, background: '#1D69EE' } })
      .png()
      .toBuffer();
    const second = await upload(person, { bytes: png, name: 'b.png', type: 'image/png' });
    expect(second.statusCode, second.body).toBe(200);
    expect(await ctx.storage.size(firstRow!.storageKey)).toBeUndefined();
    const rows = await mediaRowsOf(person.id);
    expect(rows.map((r) => r.id)).toEqual([second.json().data.id]);
    expect((await ctx.app.inject({ method: 'GET', url: first.json().data.url })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'GET', url: second.json().data.url })).statusCode).toBe(200);

    const removed = await ctx.inject({ method: 'DELETE', url: '/v1/users/profile/me/avatar', token: person.token });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(profileSchema.parse(removed.json().data)).toMatchObject({ mediaId: null, avatarUrl: null });
    expect(await mediaRowsOf(person.id)).toEqual([]);
    expect(await ctx.storage.size(rows[0]!.storageKey)).toBeUndefined();
    expect((await ctx.app.inject({ method: 'GET', url: second.json().data.url })).statusCode).toBe(404);
  });
});

describe('an account from sign-up to deletion', () => {
  it('records each step in the audit log and deletes everything of the person', async () => {
    const person = SAMPLE_PEOPLE[0];
    const email = 'helene.audit@example.org';
    const signUp = await ctx.inject({
      method: 'POST',
      url: '/v1/users',
      body: await ctx.signUpBody(person, email),
    });
    expect(signUp.statusCode, signUp.body).toBe(201);
    const userId: string = signUp.json().data.userId;
    const code = codeFromMail((await ctx.waitForMail(email)).text);
    const verified = await ctx.inject({ method: 'POST', url: '/v1/users/verify', body: { email, code } });
    expect(verified.statusCode, verified.body).toBe(200);

    const failed = await ctx.inject({ method: 'POST', url: '/v1/auth', body: { email, password: 'wrongpass1' } });
    expect(failed.statusCode).toBe(401);
    const changed = await ctx.inject({
      method: 'POST',
      url: '/v1/users/reset/setNewPassword',
      token: verified.json().data.token,
      body: { currentPassword: 'robotic2026', password: 'robotic2027', confirmPassword: 'robotic2027' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const login = await ctx.inject({ method: 'POST', url: '/v1/auth', body: { email, password: 'robotic2027' } });
    expect(login.statusCode).toBe(200);
    const token: string = login.json().data.token;
    const updated = await ctx.inject({ method: 'PUT', url: '/v1/users/profile/me', token, body: { information: { city: 'Bron' } } });
    expect(updated.statusCode).toBe(200);
    const avatar = await upload(
      { id: userId, email, password: 'robotic2027', token, session: login.json().data },
      {
        bytes: await photoWithExif(),
        name: 'me.jpg',
        type: 'image/jpeg',
      },
    );
    expect(avatar.statusCode, avatar.body).toBe(200);

    const actions = (await ctx.database.db.select().from(auditLog).where(eq(auditLog.actorId, userId))).map((r) => r.action);
    for (const action of [
      'user.sign_up',
      'user.email_validated',
      'auth.sign_in_failed',
      'user.password_changed',
      'auth.sign_in',
      'user.profile_updated',
      'user.avatar_changed',
    ])
      expect(actions, action).toContain(action);
    const [failedRow] = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorId, userId), eq(auditLog.action, 'auth.sign_in_failed')));
    expect(failedRow).toMatchObject({ entity: 'user', entityId: userId, ip: '127.0.0.1' });

    // Refused: wrong password, then wrong confirmation word. Nothing is deleted.
    const wrongPassword = await ctx.inject({
      method: 'POST',
      url: '/v1/users/me/delete?langCode=en',
      token,
      body: { password: 'robotic2026', confirmation: 'DELETE' },
    });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json().error).toEqual({ code: 'CURRENT_PASSWORD_INCORRECT', message: ERRORS.CURRENT_PASSWORD_INCORRECT.en });
    const wrongWord = await ctx.inject({
      method: 'POST',
      url: '/v1/users/me/delete',
      token,
      body: { password: 'robotic2027', confirmation: 'EFFACER' },
    });
    expect(wrongWord.statusCode).toBe(400);
    expect(wrongWord.json().error).toEqual({ code: 'DELETE_CONFIRMATION', message: ERRORS.DELETE_CONFIRMATION.fr });
    expect((await ctx.inject({ method: 'GET', url: '/v1/users/profile/me', token })).statusCode).toBe(200);
    expect(existsSync(userFolder(userId))).toBe(true);

    const counts = async () => {
      const db = ctx.database.db;
      return {
        users: (await db.select().from(users).where(eq(users.id, userId))).length,
        sessions: (await db.select().from(sessions).where(eq(sessions.userId, userId))).length,
        notifications: (await db.select().from(notifications).where(eq(notifications.userId, userId))).length,
        media: (await db.select().from(media).where(eq(media.ownerId, userId))).length,
        codes: (await db.select().from(verificationCodes).where(eq(verificationCodes.userId, userId))).length,
        devices: (await db.select().from(knownDevices).where(eq(knownDevices.userId, userId))).length,
      };
    };
    const before = await counts();
    expect(before).toMatchObject({ users: 1, media: 1 });
    expect(before.sessions).toBeGreaterThan(1);
    expect(before.notifications).toBeGreaterThan(0);

    const deleted = await ctx.inject({
      method: 'POST',
      url: '/v1/users/me/delete',
      token,
      body: { password: 'robotic2027', confirmation: 'supprimer' },
    });
    // The answer is the receipt of the deletion (docs/personal-data.md).
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().data).toMatchObject({ erased: expect.arrayContaining([{ item: 'profile', count: 1 }]) });
    expect(await counts()).toEqual({ users: 0, sessions: 0, notifications: 0, media: 0, codes: 0, devices: 0 });
    expect(existsSync(userFolder(userId))).toBe(false);
    expect((await ctx.inject({ method: 'GET', url: '/v1/users/profile/me', token })).statusCode).toBe(401);
    expect((await ctx.inject({ method: 'POST', url: '/v1/auth', body: { email, password: 'robotic2027' } })).statusCode).toBe(401);
    const [gone] = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorId, userId), eq(auditLog.action, 'user.deleted')));
    expect(gone).toMatchObject({ entity: 'user', entityId: userId });

    // The RPPS number is free again for its owner.
    const rpps = await ctx.inject({
      method: 'GET',
      url: `/v1/rppsUsers/check/${person.rpps}/${encodeURIComponent(person.lastName)}/${encodeURIComponent(person.firstName)}`,
    });
    expect(rpps.statusCode).toBe(200);
  });

  it('accepts the English confirmation word too', async () => {
    const person = await ctx.createUser('editor');
    const res = await ctx.inject({
      method: 'POST',
      url: '/v1/users/me/delete',
      token: person.token,
      body: { password: person.password, confirmation: 'DELETE' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await ctx.database.db.select().from(users).where(eq(users.id, person.id))).length).toBe(0);
  });

  it('records a sign-in failure for an unknown email with the address tried', async () => {
    await ctx.inject({ method: 'POST', url: '/v1/auth', body: { email: 'Ghost@Example.org', password: 'whatever1' } });
    const rows = await ctx.database.db.select().from(auditLog).where(eq(auditLog.action, 'auth.sign_in_failed'));
    expect(rows).toContainEqual(expect.objectContaining({ actorId: null, details: { email: 'ghost@example.org' } }));
  });
});
