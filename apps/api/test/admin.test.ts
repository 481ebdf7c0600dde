import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvCell, csvLine, type AdminCounts, type AdminUser, type AuditEntry } from '@sutura/domain/admin';
import { ERRORS } from '@sutura/domain/errors';
import { ADMIN_ROLES, ADMIN_WRITE_ROLES, ROLES, type Role } from '@sutura/domain/roles';
import { formatZoned } from '@sutura/domain/time-zone';
import { auditLog, bestCases, media, organs, sessions, specialties, surgeries, surgerySteps, users, videos } from '../src/db/schema.ts';
import { createAdminService } from '../src/modules/admin/admin.service.ts';
import { mediaAccessRecorder } from '../src/modules/media/media.routes.ts';
import { codeFromMail, createTestContext, type TestContext } from './harness.ts';

type Person = Awaited<ReturnType<TestContext['createUser']>>;

let ctx: TestContext;
let port: number;
const sockets: Socket[] = [];
const people = {} as Record<Role, Person>;

beforeAll(async () => {
  ctx = await createTestContext({ listen: true });
  port = (ctx.app.server.address() as AddressInfo).port;
  for (const role of ROLES) people[role] = await ctx.createUser(role);
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await ctx?.close();
});

const admin = () => people.administrator;
/** createUser signs the person in: a deactivated or unvalidated one is made so afterwards. */
async function createUser(role: Role, overrides: Partial<typeof users.$inferInsert> = {}): Promise<Person> {
  const { deactivatedAt, emailVerifiedAt, ...rest } = overrides;
  const person = await ctx.createUser(role, rest);
  const later: Partial<typeof users.$inferInsert> = {};
  if (deactivatedAt !== undefined) later.deactivatedAt = deactivatedAt;
  if (emailVerifiedAt !== undefined) later.emailVerifiedAt = emailVerifiedAt;
  if (Object.keys(later).length) await ctx.database.db.update(users).set(later).where(eq(users.id, person.id));
  return person;
}
let address = 0;
/** Each call says it comes from its own address (only read behind a trusted proxy). */
function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string | undefined, body?: unknown) {
  address++;
  return ctx.inject({
    method,
    url,
    token,
    body,
    headers: { 'x-forwarded-for': `10.9.${Math.floor(address / 250)}.${(address % 250) + 1}` },
  });
}
async function lastAudit(action: string, entityId?: string) {
  const rows = await ctx.database.db.select().from(auditLog).where(eq(auditLog.action, action));
  return rows.filter((r) => entityId === undefined || r.entityId === entityId).sort((a, b) => +b.createdAt - +a.createdAt)[0];
}

describe('the admin routes in the route table', () => {
  const adminRoutes = () => ctx.routes.filter((r) => r.url.startsWith('/v1/admin'));

  it('opens every admin read to administrators and copil, and every admin write to administrators only', () => {
    expect(adminRoutes().length).toBeGreaterThanOrEqual(7);
    for (const route of adminRoutes()) {
      const expected = route.method === 'GET' ? ADMIN_ROLES : ADMIN_WRITE_ROLES;
      expect([...(route.access as Role[])].sort(), `${route.method} ${route.url}`).toEqual([...expected].sort());
    }
  });

  it('refuses every admin write to copil, learner, editor and expert (403) and to anonymous callers (401), changing nothing', async () => {
    const writes = adminRoutes().filter((r) => r.method !== 'GET');
    expect(writes.length).toBeGreaterThanOrEqual(3);
    const target = await ctx.createUser('learner');
    const before = await ctx.database.db.select().from(users).where(eq(users.id, target.id));
    const auditsBefore = (await ctx.database.db.select().from(auditLog)).length;
    for (const route of writes) {
      const url = route.url.replace(/:\w+/g, target.id);
      for (const role of ['copil', 'learner', 'editor', 'expert'] as const) {
        const res = await call(route.method as 'PUT', url, people[role].token, { roles: ['administrator'], active: false });
        expect(res.statusCode, `${route.method} ${route.url} as ${role}`).toBe(403);
        expect(res.json().error.code).toBe('FORBIDDEN');
      }
      const anonymous = await call(route.method as 'PUT', url, undefined, { roles: ['administrator'], active: false });
      expect(anonymous.statusCode, `${route.method} ${route.url} anonymous`).toBe(401);
    }
    expect(await ctx.database.db.select().from(users).where(eq(users.id, target.id))).toEqual(before);
    // Nothing was recorded: nothing happened.
    expect((await ctx.database.db.select().from(auditLog)).length).toBe(auditsBefore);
  });

  it('lets copil read every admin page but refuses the same reads to the practice roles', async () => {
    for (const url of ['/v1/admin/counts', '/v1/admin/users', '/v1/admin/audit', '/v1/admin/audit/export']) {
      expect((await call('GET', url, people.copil.token)).statusCode, url).toBe(200);
      for (const role of ['learner', 'editor', 'expert'] as const)
        expect((await call('GET', url, people[role].token)).statusCode).toBe(403);
      expect((await call('GET', url, undefined)).statusCode).toBe(401);
    }
  });
});

describe('the dashboard counts', () => {
  const PARIS = 'Europe/Paris';
  /** The counts at a fixed instant of the installation's clock (they never move anyone's sockets). */
  const countsAt = (at: Date, timeZone = PARIS) =>
    createAdminService({
      db: ctx.database.db,
      audit: ctx.services.audit,
      auth: ctx.services.auth,
      users: ctx.services.users,
      hub: { rolesChanged: async () => undefined },
      clock: () => at,
      timeZone,
    }).counts();

  it('counts people, editors, experts, the files that arrived this month and the videos waiting, each as computed by hand', async () => {
    const db = ctx.database.db;
    // A second editor who is also an expert, a deactivated editor (not counted), an unvalidated learner (counted).
    await ctx.createUser('editor', { roles: ['editor', 'expert'] });
    await createUser('editor', { deactivatedAt: new Date() });
    await createUser('learner', { emailVerifiedAt: null });
    const author = people.learner.id;
    // Mid-November in Paris: the month began at 2026-11-01 00:00 Paris time, 2026-10-31T23:00Z.
    const now = new Date('2026-11-15T12:00:00Z');
    const hour = 3_600_000;
    const october = new Date('2026-10-05T10:00:00Z');
    const seed: Partial<typeof videos.$inferInsert>[] = [
      // Uploaded this month: 5.
      { status: 'saved', mediaStatus: 'ready', createdAt: october, receivedAt: new Date('2026-11-14T09:00:00Z') }, // created last month, file this month
      { status: 'pending_preparation', mediaStatus: 'ready', receivedAt: new Date('2026-10-31T23:30:00Z') }, // 00:30 on 1 November in Paris
      { status: 'saved', mediaStatus: 'processing', receivedAt: new Date(now.getTime() - hour) },
      { status: 'saved', mediaStatus: 'failed', failureReason: 'MEDIA_PROCESSING_FAILED', receivedAt: new Date(now.getTime() - hour) },
      { status: 'saved', mediaStatus: 'ready', kind: 'pictures', receivedAt: new Date('2026-11-02T08:00:00Z') },
      // Not uploaded this month.
      { status: 'saved', mediaStatus: 'uploading', createdAt: now }, // the file has not arrived
      { status: 'saved', mediaStatus: 'failed', failureReason: 'MEDIA_NOT_A_VIDEO', receivedAt: new Date(now.getTime() - hour) }, // refused
      { status: 'saved', mediaStatus: 'failed', failureReason: 'MEDIA_TRUNCATED', receivedAt: new Date(now.getTime() - hour) }, // refused
      { status: 'pending_preparation', mediaStatus: 'ready', createdAt: now, receivedAt: new Date('2026-10-31T22:30:00Z') }, // 23:30 on 31 October in Paris
      { status: 'saved', mediaStatus: 'ready', purpose: 'best_case', receivedAt: new Date(now.getTime() - hour) }, // not a case
      // Waiting for preparation: the pool (3 above and this one), a hold that ran out, a render under way.
      { status: 'pending_preparation', mediaStatus: 'ready', receivedAt: october },
      { status: 'in_preparation', mediaStatus: 'ready', receivedAt: october, leaseEndsAt: new Date(now.getTime() - hour) },
      { status: 'processing', mediaStatus: 'ready', receivedAt: october },
      { status: 'in_preparation', mediaStatus: 'ready', receivedAt: october, leaseEndsAt: new Date(now.getTime() + hour) }, // held: not waiting
      // Waiting for analysis: the pool and a hold that ran out.
      { status: 'pending_analysis', mediaStatus: 'ready', receivedAt: october },
      { status: 'in_analysis', mediaStatus: 'ready', receivedAt: october, leaseEndsAt: new Date(now.getTime() - 1000) },
      { status: 'in_analysis', mediaStatus: 'ready', receivedAt: october, leaseEndsAt: new Date(now.getTime() + hour) }, // held
      { status: 'analysed', mediaStatus: 'ready', receivedAt: october },
    ];
    await db.insert(videos).values(seed.map((v) => ({ ...v, authorId: author })));

    const all = await db.select().from(users);
    const live = all.filter((u) => !u.deactivatedAt);
    const expected: AdminCounts = {
      users: live.length,
      editors: live.filter((u) => u.roles.includes('editor')).length,
      experts: live.filter((u) => u.roles.includes('expert')).length,
      uploadedThisMonth: 5,
      waitingPreparation: 5,
      waitingAnalysis: 2,
      month: '2026-11',
      timeZone: PARIS,
    };
    // By hand: the editor of beforeAll and the editor-expert above; the deactivated editor is not counted.
    expect(expected.editors).toBe(2);
    expect(expected.experts).toBe(2);
    expect(await countsAt(now)).toEqual(expected);
    // On a UTC clock, 23:30Z on 31 October is still October.
    expect(await countsAt(now, 'UTC')).toMatchObject({ uploadedThisMonth: 4, month: '2026-11', timeZone: 'UTC' });
    // In the first minutes of November in Paris (23:40Z), the file of 00:30 already counts.
    expect((await countsAt(new Date('2026-10-31T23:40:00Z'))).uploadedThisMonth).toBe(1);
    // At 23:50 on 31 October in Paris: the file of 23:30 that evening and the eight of 5 October.
    expect(await countsAt(new Date('2026-10-31T22:50:00Z'))).toMatchObject({ uploadedThisMonth: 9, month: '2026-10' });

    // The route answers the same rule on the real clock.
    const res = await call('GET', '/v1/admin/counts', people.copil.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ timeZone: PARIS, month: formatZoned(new Date(), PARIS).slice(0, 7) });
    expect(res.json().data).toMatchObject({ users: expected.users, editors: 2, experts: 2 });
  });

  it('follows summer time: April begins at 22:00Z in Paris', async () => {
    // A file arrived at 00:30 on 1 April, Paris summer time (UTC+2): a winter offset would put it in March.
    await ctx.database.db
      .insert(videos)
      .values({ authorId: people.learner.id, status: 'saved', mediaStatus: 'ready', receivedAt: new Date('2026-03-31T22:30:00Z') });
    expect(await countsAt(new Date('2026-04-10T12:00:00Z'))).toMatchObject({ uploadedThisMonth: 1, month: '2026-04' });
    expect((await countsAt(new Date('2026-04-10T12:00:00Z'), 'UTC')).uploadedThisMonth).toBe(0);
  });

  it('keeps when each file arrived, whatever writes the case: cleared while a new file is received', async () => {
    const db = ctx.database.db;
    const [row] = await db.insert(videos).values({ authorId: people.learner.id, mediaStatus: 'uploading' }).returning();
    expect(row!.receivedAt).toBeNull();
    const [arrived] = await db.update(videos).set({ mediaStatus: 'processing' }).where(eq(videos.id, row!.id)).returning();
    expect(arrived!.receivedAt).toBeInstanceOf(Date);
    const [again] = await db.update(videos).set({ mediaStatus: 'uploading' }).where(eq(videos.id, row!.id)).returning();
    expect(again!.receivedAt).toBeNull();
  });
});

describe('the people', () => {
  it('searches by name, email and RPPS, filters by role and state, pages and sorts', async () => {
    const tag = randomUUID().slice(0, 6);
    const a = await ctx.createUser('editor', { firstName: 'Zélie', lastName: `Quaresma${tag}`, rpps: '10999909999' });
    const b = await ctx.createUser('expert', { firstName: 'Amaury', lastName: `Quaresma${tag}`, email: `amaury.${tag}@example.org` });
    await createUser('learner', { firstName: 'Other', lastName: `Quaresma${tag}`, deactivatedAt: new Date() });
    const list = async (query: string) => {
      const res = await call('GET', `/v1/admin/users?${query}`, admin().token);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as { data: AdminUser[]; total: number; page: number; limit: number };
    };
    const byName = await list(`filter=q==quaresma${tag}&sort=email`);
    expect(byName.total).toBe(3);
    expect(byName.data.map((u) => u.email)).toEqual([...byName.data.map((u) => u.email)].sort());
    expect((await list(`filter=q==${encodeURIComponent(`amaury.${tag}`)}`)).data.map((u) => u.id)).toEqual([b.id]);
    expect((await list('filter=q==109999099')).data.map((u) => u.id)).toEqual([a.id]);
    expect((await list(`filter=q==${encodeURIComponent(`Zélie Quaresma${tag}`)}`)).data.map((u) => u.id)).toEqual([a.id]);
    expect((await list(`filter=q==quaresma${tag}__role==expert`)).data.map((u) => u.id)).toEqual([b.id]);
    const deactivated = await list(`filter=q==quaresma${tag}__state==deactivated`);
    expect(deactivated.data).toHaveLength(1);
    expect(deactivated.data[0]!.state).toBe('deactivated');
    expect((await list(`filter=q==quaresma${tag}__state==active`)).total).toBe(2);
    // A wildcard is a character like any other.
    expect((await list('filter=q==%25')).total).toBe(0);
    const pageTwo = await list(`filter=q==quaresma${tag}&sort=email&limit=2&page=2`);
    expect(pageTwo.data.map((u) => u.email)).toEqual([byName.data[2]!.email]);
    // Bad filters are the caller's error, never a 500.
    expect((await call('GET', '/v1/admin/users?filter=role==king', admin().token)).statusCode).toBe(400);
    expect((await call('GET', '/v1/admin/users?filter=state==asleep', admin().token)).statusCode).toBe(400);
    expect((await call('GET', `/v1/admin/users?filter=q==${'x'.repeat(101)}`, admin().token)).statusCode).toBe(400);
    expect((await call('GET', '/v1/admin/users?sort=password', admin().token)).json().error.code).toBe('QUERY_UNKNOWN_FIELD');
  });

  it('gives and removes roles, audited with what changed, and refuses an empty or unknown list', async () => {
    const person = await ctx.createUser('learner');
    const url = `/v1/admin/users/${person.id}/roles`;
    const res = await call('PUT', url, admin().token, { roles: ['learner', 'editor'] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.roles).toEqual(['learner', 'editor']);
    // The new role works at once, on the token the person already holds.
    expect((await call('GET', '/v1/editor/held', person.token)).statusCode).toBe(200);
    const row = await lastAudit('user.roles_changed', person.id);
    expect(row).toMatchObject({ actorId: admin().id, entity: 'user', details: { from: ['learner'], to: ['learner', 'editor'] } });
    // The same list again changes nothing and records nothing.
    await call('PUT', url, admin().token, { roles: ['editor', 'learner'] });
    expect(
      (await ctx.database.db.select().from(auditLog).where(eq(auditLog.entityId, person.id))).filter(
        (r) => r.action === 'user.roles_changed',
      ),
    ).toHaveLength(1);
    for (const body of [{ roles: [] }, { roles: ['king'] }, { roles: ['learner', 'learner'] }, {}, { roles: ['learner'], extra: 1 }]) {
      const bad = await call('PUT', url, admin().token, body);
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await ctx.database.db.select().from(users).where(eq(users.id, person.id)))[0]!.roles).toEqual(['learner', 'editor']);
    expect((await call('PUT', `/v1/admin/users/${randomUUID()}/roles`, admin().token, { roles: ['learner'] })).statusCode).toBe(404);
  });

  it('keeps the administrator’s own role and one active administrator', async () => {
    const self = await call('PUT', `/v1/admin/users/${admin().id}/roles`, admin().token, { roles: ['copil'] });
    expect(self.statusCode).toBe(409);
    expect(self.json().error).toMatchObject({ code: 'ADMIN_SELF', message: ERRORS.ADMIN_SELF.fr });
    const deactivateSelf = await call('PUT', `/v1/admin/users/${admin().id}/active`, admin().token, { active: false });
    expect(deactivateSelf.json().error.code).toBe('ADMIN_SELF');

    // A second administrator may remove the first one's role only while another active one remains.
    const second = await ctx.createUser('administrator');
    const third = await ctx.createUser('administrator');
    expect((await call('PUT', `/v1/admin/users/${third.id}/active`, second.token, { active: false })).statusCode).toBe(200);
    const svc = ctx.services.admin;
    // Through the service, as if the acting administrator were someone else: the last active one stays.
    const actor = {
      id: randomUUID(),
      sessionId: 'x',
      roles: ['administrator' as const],
      preferences: people.learner.session.preferences,
      sessionEndsAt: new Date(8.64e15),
    };
    const remaining = (await ctx.database.db.select().from(users)).filter((u) => u.roles.includes('administrator') && !u.deactivatedAt);
    expect(remaining.map((u) => u.id).sort()).toEqual([admin().id, second.id].sort());
    await svc.setRoles(actor, second.id, ['copil'], '127.0.0.1');
    await expect(svc.setRoles(actor, admin().id, ['copil'], '127.0.0.1')).rejects.toMatchObject({ code: 'LAST_ADMINISTRATOR' });
    await expect(svc.setActive(actor, admin().id, false, '127.0.0.1')).rejects.toMatchObject({ code: 'LAST_ADMINISTRATOR' });
    expect((await ctx.database.db.select().from(users).where(eq(users.id, admin().id)))[0]).toMatchObject({
      roles: ['administrator'],
      deactivatedAt: null,
    });
  });

  it('deactivates a person: sessions revoked, socket closed, sign-in and refresh refused; reactivation lets them back', async () => {
    const person = await ctx.createUser('expert');
    const other = await ctx.createUser('learner');
    const socket = io(`http://127.0.0.1:${port}`, { auth: { token: person.token }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    const closed = new Promise<string>((resolve) => socket.once('disconnect', resolve));

    const res = await call('PUT', `/v1/admin/users/${person.id}/active`, admin().token, { active: false });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ state: 'deactivated' });
    expect(await closed).toBe('io server disconnect');
    const live = (await ctx.database.db.select().from(sessions).where(eq(sessions.userId, person.id))).filter((s) => !s.revokedAt);
    expect(live).toHaveLength(0);
    expect((await call('GET', '/v1/auth', person.token)).statusCode).toBe(401);
    expect((await call('GET', '/v1/users/profile/me', person.token)).statusCode).toBe(401);
    const signIn = await call('POST', '/v1/auth?langCode=en', undefined, { email: person.email, password: person.password });
    expect(signIn.statusCode).toBe(403);
    expect(signIn.json().error).toMatchObject({ code: 'ACCOUNT_DEACTIVATED', message: ERRORS.ACCOUNT_DEACTIVATED.en });
    // A wrong password still says only that: the state is told to whoever knows the password.
    expect((await call('POST', '/v1/auth', undefined, { email: person.email, password: 'wrong-password1' })).json().error.code).toBe(
      'INVALID_CREDENTIALS',
    );
    // Nobody else was signed out.
    expect((await call('GET', '/v1/users/profile/me', other.token)).statusCode).toBe(200);
    expect(await lastAudit('user.deactivated', person.id)).toMatchObject({ actorId: admin().id, ip: expect.any(String) });
    // Once is enough: a second deactivation records nothing more.
    await call('PUT', `/v1/admin/users/${person.id}/active`, admin().token, { active: false });
    expect(
      (await ctx.database.db.select().from(auditLog).where(eq(auditLog.entityId, person.id))).filter(
        (r) => r.action === 'user.deactivated',
      ),
    ).toHaveLength(1);

    const back = await call('PUT', `/v1/admin/users/${person.id}/active`, admin().token, { active: true });
    expect(back.json().data).toMatchObject({ state: 'active', deactivatedAt: null });
    expect((await call('POST', '/v1/auth', undefined, { email: person.email, password: person.password })).statusCode).toBe(200);
    expect(await lastAudit('user.reactivated', person.id)).toMatchObject({ actorId: admin().id });
  });

  it('sends the validation mail again to an unvalidated account, under the code’s own limits', async () => {
    const email = `unvalidated-${randomUUID().slice(0, 8)}@example.org`;
    const person = await createUser('learner', { email, emailVerifiedAt: null });
    const url = `/v1/admin/users/${person.id}/validation-mail`;
    const res = await call('POST', url, admin().token, {});
    expect(res.statusCode, res.body).toBe(200);
    const mail = await ctx.waitForMail(email);
    const code = codeFromMail(mail.text);
    expect(await lastAudit('user.validation_resent', person.id)).toMatchObject({ actorId: admin().id });
    // The code works: the person validates their address and is signed in.
    const verified = await call('POST', '/v1/users/verify', undefined, { email, code });
    expect(verified.statusCode, verified.body).toBe(200);
    const again = await call('POST', url, admin().token, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('ALREADY_VALIDATED');
  });

  it('writes no password, code or token into the audit rows of these actions', async () => {
    const rows = await ctx.database.db.select().from(auditLog);
    const text = JSON.stringify(rows.filter((r) => r.action.startsWith('user.') || r.action.startsWith('audit.')));
    expect(text).not.toContain('password123');
    expect(text).not.toMatch(/eyJ[\w-]+\.[\w-]+/); // a JWT
    expect(text).not.toMatch(/"code"/);
  });
});

describe('the audit log', () => {
  it('searches by actor, action, entity id and dates, newest first, with the actor resolved or the raw id', async () => {
    const db = ctx.database.db;
    const person = await ctx.createUser('learner', { firstName: 'Audrey', lastName: 'Journal' });
    const ghost = randomUUID();
    const entity = randomUUID();
    await db.insert(auditLog).values([
      {
        actorId: person.id,
        action: 'video.created',
        entity: 'video',
        entityId: entity,
        ip: '10.0.0.1',
        createdAt: new Date('2026-01-10T10:00:00Z'),
      },
      {
        actorId: person.id,
        action: 'video.sent',
        entity: 'video',
        entityId: entity,
        ip: '10.0.0.1',
        createdAt: new Date('2026-01-11T10:00:00Z'),
      },
      { actorId: ghost, action: 'video.deleted', entity: 'video', entityId: entity, ip: null, createdAt: new Date('2026-01-12T23:59:59Z') },
    ]);
    const list = async (filter: string, token = people.copil.token) => {
      const res = await call('GET', `/v1/admin/audit?filter=${encodeURIComponent(filter)}`, token);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as { data: AuditEntry[]; total: number };
    };
    const byEntity = await list(`entityId==${entity}`);
    expect(byEntity.data.map((e) => e.action)).toEqual(['video.deleted', 'video.sent', 'video.created']);
    expect(byEntity.data[0]).toMatchObject({ actorId: ghost, actor: null, ip: null });
    expect(byEntity.data[1]).toMatchObject({ actor: { email: person.email, firstName: 'Audrey', lastName: 'Journal' }, ip: '10.0.0.1' });
    expect((await list(`entityId==${entity}__actor==audrey journal`)).total).toBe(2);
    expect((await list(`entityId==${entity}__actor==${person.email.toUpperCase()}`)).total).toBe(2);
    expect((await list(`entityId==${entity}__actor==${ghost}`)).total).toBe(1);
    expect((await list(`entityId==${entity}__action==video.sent`)).total).toBe(1);
    expect((await list(`entityId==${entity}__action==video.`)).total).toBe(3);
    // Days of the installation's clock (Paris): 23:59:59Z on the 12th is already the 13th there.
    expect((await list(`entityId==${entity}__from==2026-01-11__to==2026-01-12`)).data.map((e) => e.action)).toEqual(['video.sent']);
    expect((await list(`entityId==${entity}__from==2026-01-13`)).data.map((e) => e.action)).toEqual(['video.deleted']);
    expect((await list(`entityId==${entity}__to==2026-01-10`)).total).toBe(1);
    // Pages by keyset: a row written between two pages shifts nothing; the last page has no next.
    const pageAt = async (cursor?: string) => {
      const query = `filter=${encodeURIComponent(`entityId==${entity}`)}&limit=1${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await call('GET', `/v1/admin/audit?${query}`, admin().token);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as { data: AuditEntry[]; total: number; limit: number; nextCursor: string | null };
    };
    const first = await pageAt();
    expect(first).toMatchObject({ total: 3, limit: 1, data: [{ action: 'video.deleted' }] });
    await db.insert(auditLog).values({ actorId: person.id, action: 'video.viewed_by_admin', entity: 'video', entityId: entity, ip: null });
    const second = await pageAt(first.nextCursor!);
    expect(second).toMatchObject({ total: 4, data: [{ action: 'video.sent' }] });
    const third = await pageAt(second.nextCursor!);
    expect(third).toMatchObject({ data: [{ action: 'video.created' }], nextCursor: null });
    const forged = (time: string) => Buffer.from(JSON.stringify([time, randomUUID()])).toString('base64url');
    for (const bad of [
      'not-a-cursor',
      forged('yesterday'),
      forged('2026-13-01 00:00:00+00'),
      forged('2026-02-30 10:00:00+00'),
      'x'.repeat(300),
    ]) {
      const res = await call('GET', `/v1/admin/audit?limit=1&cursor=${bad}`, admin().token);
      expect(res.statusCode, bad).toBe(400);
    }
    const inverted = await call('GET', `/v1/admin/audit?filter=${encodeURIComponent('from==2026-02-01__to==2026-01-01')}`, admin().token);
    expect(inverted.statusCode).toBe(400);
    expect(inverted.json().error.code).toBe('DATE_RANGE_INVERTED');
    expect((await call('GET', `/v1/admin/audit?filter=from==yesterday`, admin().token)).statusCode).toBe(400);
  });

  it('names what each entry is about in the reader’s language, says when it is deleted, in a few queries whatever the page', async () => {
    const db = ctx.database.db;
    const author = await ctx.createUser('learner', { firstName: 'Bérénice', lastName: 'Sujet' });
    const actor = await ctx.createUser('administrator', { firstName: 'Agathe', lastName: 'Auditrice' });
    const [surgery] = await db.select().from(surgeries).orderBy(surgeries.position).limit(1);
    const [step] = await db.select().from(surgerySteps).where(eq(surgerySteps.surgeryId, surgery!.id)).limit(1);
    const [organ] = await db.select().from(organs).limit(1);
    const [specialty] = await db.select().from(specialties).limit(1);
    const [caseRow] = await db
      .insert(videos)
      .values({ authorId: author.id, surgeryId: surgery!.id, status: 'pending_preparation', sentAt: new Date('2026-03-14T09:00:00Z') })
      .returning();
    const [bare] = await db
      .insert(videos)
      .values({ authorId: author.id, createdAt: new Date('2026-03-15T09:00:00Z') })
      .returning();
    const [voice] = await db
      .insert(media)
      .values({
        ownerId: author.id,
        videoId: caseRow!.id,
        kind: 'voice',
        storageKey: `tests/${randomUUID()}.m4a`,
        contentType: 'audio/mp4',
        size: 1,
      })
      .returning();
    const [best] = await db
      .insert(bestCases)
      .values({
        videoId: caseRow!.id,
        origin: 'converted',
        titleFr: 'Une dissection exemplaire',
        titleEn: 'An exemplary dissection',
        descriptionFr: '-',
        descriptionEn: '-',
        consent: 'accepted',
      })
      .returning();
    const gone = { user: randomUUID(), video: randomUUID(), surgery: randomUUID() };
    const entries: [string, string | null][] = [
      ['video', caseRow!.id],
      ['video', bare!.id],
      ['user', author.id],
      ['media', voice!.id],
      ['best_case', best!.id],
      ['surgery', surgery!.id],
      ['surgery_step', step!.id],
      ['organ', organ!.id],
      ['specialty', specialty!.id],
      ['user', gone.user],
      ['video', gone.video],
      ['surgery', gone.surgery],
      ['audit_log', null],
      ['surgery', 'not-an-id'],
    ];
    await db.insert(auditLog).values(
      entries.map(([entity, entityId], i) => ({
        actorId: actor.id,
        action: 'video.viewed_by_admin',
        entity,
        entityId,
        ip: null,
        createdAt: new Date(Date.UTC(2026, 3, 1, 0, 0, entries.length - i)),
      })),
    );
    const page = async (lang: 'fr' | 'en', limit = 100) => {
      const filter = encodeURIComponent(`actor==${actor.id}__action==video.viewed_by_admin`);
      const res = await call('GET', `/v1/admin/audit?langCode=${lang}&limit=${limit}&filter=${filter}`, people.copil.token);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().data as { data: AuditEntry[] }).data;
    };
    const en = (await page('en')).map((e) => e.subject);
    const fr = (await page('fr')).map((e) => e.subject);
    const surgeryEn = surgery!.nameEn;
    expect(en).toEqual([
      { label: `${surgeryEn} · Mar 14, 2026 · Bérénice Sujet`, deleted: false },
      { label: 'Case without a surgery · Mar 15, 2026 · Bérénice Sujet', deleted: false },
      { label: `Bérénice Sujet (${author.email})`, deleted: false },
      { label: `Voice note — ${surgeryEn} · Mar 14, 2026 · Bérénice Sujet`, deleted: false },
      { label: 'An exemplary dissection', deleted: false },
      { label: surgeryEn, deleted: false },
      { label: `${step!.nameEn} (${surgeryEn})`, deleted: false },
      { label: organ!.nameEn, deleted: false },
      { label: specialty!.nameEn, deleted: false },
      { label: 'Deleted account', deleted: true },
      { label: 'Deleted case', deleted: true },
      { label: 'Deleted surgery', deleted: true },
      null,
      null,
    ]);
    expect(fr[0]).toEqual({ label: `${surgery!.nameFr} · 14 mars 2026 · Bérénice Sujet`, deleted: false });
    expect(fr[6]).toEqual({ label: `${step!.nameFr} (${surgery!.nameFr})`, deleted: false });
    expect(fr[4]).toEqual({ label: 'Une dissection exemplaire', deleted: false });
    expect(fr[9]).toEqual({ label: 'Compte supprimé', deleted: true });
    expect(fr[10]).toEqual({ label: 'Cas supprimé', deleted: true });

    // As many reads of the cases for a page of two as for a page of fourteen: one per kind on the page.
    const pool = ctx.database.pool;
    const original = pool.query.bind(pool) as (...args: unknown[]) => unknown;
    let caseReads = 0;
    (pool as { query: unknown }).query = (config: unknown, ...rest: unknown[]) => {
      const text = typeof config === 'string' ? config : (config as { text?: string }).text;
      if (text?.includes('from "videos"')) caseReads++;
      return original(config, ...rest);
    };
    try {
      await page('en', 2);
      const small = caseReads;
      caseReads = 0;
      await page('en', 100);
      expect(small).toBe(1);
      expect(caseReads).toBe(1);
    } finally {
      (pool as { query: unknown }).query = original;
    }
  });

  it('takes whole days of the installation’s clock, the 25 hours of the day summer time ends included, and exports in that zone', async () => {
    const entity = randomUUID();
    const at = (iso: string, action: string) => ({ action, entity: 'video', entityId: entity, createdAt: new Date(iso) });
    await ctx.database.db.insert(auditLog).values([
      at('2026-10-24T21:30:00Z', 'video.created'), // 23:30 on the 24th in Paris (summer time)
      at('2026-10-24T22:30:00Z', 'video.sent'), // 00:30 on the 25th (summer time)
      at('2026-10-25T22:30:00Z', 'video.updated'), // 23:30 on the 25th (winter time)
      at('2026-10-25T23:30:00Z', 'video.deleted'), // 00:30 on the 26th
    ]);
    const filter = encodeURIComponent(`entityId==${entity}__from==2026-10-25__to==2026-10-25`);
    const res = await call('GET', `/v1/admin/audit?filter=${filter}`, admin().token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ total: 2, timeZone: 'Europe/Paris' });
    expect((res.json().data.data as AuditEntry[]).map((e) => e.action)).toEqual(['video.updated', 'video.sent']);
    const csv = await call('GET', `/v1/admin/audit/export?langCode=en&filter=${filter}`, admin().token);
    const lines = csv.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toMatch(/^Date \(Europe\/Paris\),/);
    expect(lines[1]).toMatch(/^2026-10-25T23:30:00\+01:00,/);
    expect(lines[2]).toMatch(/^2026-10-25T00:30:00\+02:00,/);
  });

  it('exports the filtered log as CSV with escaping and no formula, headers in the caller’s language', async () => {
    const db = ctx.database.db;
    const entity = randomUUID();
    const person = await ctx.createUser('learner', { firstName: '=HYPERLINK("http://evil")', lastName: 'Dupont, "Jr"' });
    await db.insert(auditLog).values([
      {
        actorId: person.id,
        action: 'video.created',
        entity: 'video',
        entityId: entity,
        ip: '+10.0.0.9',
        createdAt: new Date('2026-02-01T10:00:00Z'),
      },
      {
        actorId: null,
        action: 'preparation.rendered',
        entity: 'video',
        entityId: entity,
        ip: null,
        createdAt: new Date('2026-02-02T10:00:00Z'),
      },
      // A row whose action no longer exists keeps its identifier as its label; every cell is protected alike.
      {
        actorId: null,
        action: 'video.gone_away',
        entity: '-x',
        entityId: entity,
        ip: null,
        createdAt: new Date('2026-02-03T10:00:00Z'),
      },
    ]);
    const url = (lang: string) => `/v1/admin/audit/export?langCode=${lang}&filter=${encodeURIComponent(`entityId==${entity}`)}`;
    const en = await call('GET', url('en'), people.copil.token);
    expect(en.statusCode, en.body).toBe(200);
    expect(en.headers['content-type']).toMatch(/^text\/csv/);
    expect(en.headers['content-disposition']).toMatch(/^attachment; filename="sutura-audit-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = en.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe(
      'Date (Europe/Paris),Actor id,Actor email,Actor name,Action,Action label,Entity,Entity label,About,Entity id,Address',
    );
    // Dates on the installation's clock, with their offset (Paris is UTC+1 in February).
    expect(lines[1]).toBe(`2026-02-03T11:00:00+01:00,,,,video.gone_away,video.gone_away,'-x,'-x,,${entity},`);
    expect(lines[2]).toBe(`2026-02-02T11:00:00+01:00,,,,preparation.rendered,Prepared video rendered,video,Video,Deleted case,${entity},`);
    expect(lines[3]).toBe(
      `2026-02-01T11:00:00+01:00,${person.id},${person.email},"'=HYPERLINK(""http://evil"") Dupont, ""Jr""",video.created,Video created,video,Video,Deleted case,${entity},'+10.0.0.9`,
    );
    expect(lines).toHaveLength(5);
    expect(lines[4]).toBe('');
    const fr = await call('GET', url('fr'), admin().token);
    const frLines = fr.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(frLines[0]).toBe(
      'Date (Europe/Paris);Id de l’auteur;E-mail de l’auteur;Nom de l’auteur;Action;Libellé de l’action;Entité;Libellé de l’entité;Objet;Id de l’entité;Adresse',
    );
    expect(frLines[2]).toBe(`2026-02-02T11:00:00+01:00;;;;preparation.rendered;Vidéo préparée rendue;video;Vidéo;Cas supprimé;${entity};`);
    expect(frLines[3]).toContain(`"'=HYPERLINK(""http://evil"") Dupont, ""Jr""";video.created;Vidéo créée;video;Vidéo;Cas supprimé;`);
    expect(await lastAudit('audit.exported')).toMatchObject({ actorId: admin().id, details: { filters: ['entityId'] } });
    // A bad filter is refused before the file starts.
    const bad = await call('GET', '/v1/admin/audit/export?filter=from==nope', admin().token);
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toMatch(/json/);
  });

  it('streams an export longer than one batch whole, in order, without a row twice', async () => {
    const entity = randomUUID();
    // Rows that share their millisecond but not their microsecond (a Date would lose the difference),
    // and rows that share their instant, across the batches' edges.
    await ctx.database.db.execute(sql`
      insert into audit_log (action, entity, entity_id, created_at)
      select 'video.uploaded', 'video', ${entity}, timestamptz '2025-06-01 00:00:00+00' + (g / 2) * interval '1 microsecond'
      from generate_series(1, 2100) g`);
    const res = await call('GET', `/v1/admin/audit/export?langCode=en&filter=${encodeURIComponent(`entityId==${entity}`)}`, admin().token);
    const lines = res.body.split('\r\n').filter(Boolean);
    expect(lines).toHaveLength(2101);
    const dates = lines.slice(1).map((l) => l.split(',')[0]!);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it('quotes a CSV cell only when needed and neutralises formulas', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('a;b', ';')).toBe('"a;b"');
    expect(csvCell('a;b', ',')).toBe('a;b');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    for (const start of ['=', '+', '-', '@', '\t', '\r'])
      expect(csvCell(`${start}1+1`).startsWith(`'`) || csvCell(`${start}1+1`).startsWith(`"'`)).toBe(true);
    expect(csvCell(null)).toBe('');
    expect(csvLine(['a', null, 3])).toBe('a,,3\r\n');
  });
});

describe('the audit of states and media', () => {
  it('records a preparation’s claim, saves and release, with the editor and their address', async () => {
    const db = ctx.database.db;
    const [video] = await db
      .insert(videos)
      .values({
        authorId: people.learner.id,
        status: 'pending_preparation',
        mediaStatus: 'ready',
        duration: 60,
        frameRate: 25,
        cutSuggestions: [],
      })
      .returning();
    const id = video!.id;
    const editor = people.editor;
    const claim = await call('POST', `/v1/editor/videos/${id}/claim`, editor.token, {});
    expect(claim.statusCode, claim.body).toBe(200);
    const { fencingToken } = claim.json().data as { fencingToken: number };
    const saved = await call('PUT', `/v1/editor/videos/${id}/trims`, editor.token, { fencingToken, trims: [{ start: 0, end: 30 }] });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await call('POST', `/v1/editor/videos/${id}/release`, editor.token, { fencingToken })).statusCode).toBe(200);
    const rows = (await db.select().from(auditLog).where(eq(auditLog.entityId, id))).sort((a, b) => +a.createdAt - +b.createdAt);
    expect(rows.map((r) => r.action)).toEqual(['preparation.claimed', 'preparation.saved', 'preparation.released']);
    for (const row of rows) expect(row).toMatchObject({ actorId: editor.id, entity: 'video', ip: '127.0.0.1' });
    expect(rows[1]!.details).toEqual({ part: 'trims', count: 1 });
  });

  it('records a case video’s reading once per signed URL, with the case, and nothing for an avatar', async () => {
    const recorded: unknown[][] = [];
    const record = mediaAccessRecorder(async (...args) => {
      recorded.push(args);
    });
    const video = { id: randomUUID(), kind: 'prepared-video', videoId: randomUUID() };
    await record(video, people.expert.id, 2_000_000_000, '10.0.0.2');
    await record(video, people.expert.id, 2_000_000_000, '10.0.0.2');
    await record(video, people.expert.id, 2_000_000_100, '10.0.0.2');
    await record({ id: randomUUID(), kind: 'avatar', videoId: null }, people.expert.id, 2_000_000_000, '10.0.0.2');
    expect(recorded).toEqual([
      [people.expert.id, 'media.accessed', 'media', video.id, '10.0.0.2', { videoId: video.videoId, kind: 'prepared-video' }],
      [people.expert.id, 'media.accessed', 'media', video.id, '10.0.0.2', { videoId: video.videoId, kind: 'prepared-video' }],
    ]);
  });

  it('records a real read of a case video through its signed URL, not its range requests', async () => {
    const db = ctx.database.db;
    const [caseRow] = await db.insert(videos).values({ authorId: people.learner.id, status: 'saved', mediaStatus: 'ready' }).returning();
    const key = `tests/${randomUUID()}.mp4`;
    await ctx.storage.put(key, Buffer.from('0123456789'));
    const [file] = await db
      .insert(media)
      .values({ ownerId: people.learner.id, videoId: caseRow!.id, kind: 'video', storageKey: key, contentType: 'video/mp4', size: 10 })
      .returning();
    const url = ctx.services.urls.url(file!.id, people.learner.id);
    for (const range of ['bytes=0-', 'bytes=2-5', 'bytes=6-']) {
      const res = await ctx.inject({ method: 'GET', url, headers: { range } });
      expect(res.statusCode).toBe(206);
    }
    const rows = (await db.select().from(auditLog).where(eq(auditLog.entityId, file!.id))).filter((r) => r.action === 'media.accessed');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actorId: people.learner.id, entity: 'media', details: { videoId: caseRow!.id, kind: 'video' } });
  });
});
