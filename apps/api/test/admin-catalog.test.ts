// @database-server: the trigram indexes the server's planner picks (EXPLAIN), advisory locks and FOR UPDATE under concurrent reorders, a force release in one transaction
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '@sutura/domain/errors';
import type { AdminVocabularies } from '@sutura/domain/admin-catalog';
import {
  analyses,
  auditLog,
  claims as claimHistory,
  media,
  notifications,
  organs,
  specialties,
  surgeries,
  surgerySteps,
  USER_SEARCH_TEXT,
  users,
  videos,
  vocabularySeeds,
} from '../src/db/schema.ts';
import { createTestContext, type TestContext } from './harness.ts';

type Person = Awaited<ReturnType<TestContext['createUser']>>;
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

let ctx: TestContext;
let admin: Person;
let copil: Person;
let learner: Person;
let editor: Person;
let expert: Person;

const call = (method: Method, url: string, who: Person | null, body?: unknown) =>
  ctx.inject({
    method,
    url: `/v1${url}`,
    token: who?.token,
    ...(body !== undefined ? { body } : method === 'POST' || method === 'PUT' ? { body: {} } : {}),
  });

async function vocabularies(): Promise<AdminVocabularies> {
  const res = await call('GET', '/admin/vocabularies', admin);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

const actions = async (entityId: string) =>
  (await ctx.database.db.select().from(auditLog).where(eq(auditLog.entityId, entityId))).map((r) => r.action);

const unique = (label: string) => `${label} ${randomUUID().slice(0, 6)}`;

/** A case of the learner, straight in the database, optionally with a file in its storage prefix. */
async function aCase(values: Partial<typeof videos.$inferInsert> = {}) {
  const [surgery] = await ctx.database.db.select().from(surgeries).limit(1);
  const [row] = await ctx.database.db
    .insert(videos)
    .values({
      authorId: learner.id,
      kind: 'video',
      status: 'pending_preparation',
      mediaStatus: 'ready',
      surgeryId: surgery!.id,
      sentAt: new Date(),
      duration: 20,
      frameRate: 25,
      width: 320,
      height: 240,
      ...values,
    })
    .returning();
  return row!;
}

beforeAll(async () => {
  ctx = await createTestContext({ workers: false });
  admin = await ctx.createUser('administrator');
  copil = await ctx.createUser('copil');
  learner = await ctx.createUser('learner', { firstName: 'Camille', lastName: 'Zorglub' });
  editor = await ctx.createUser('editor', { firstName: 'Eddie', lastName: 'Holder' });
  expert = await ctx.createUser('expert');
}, 60_000);
afterAll(async () => {
  await ctx?.close();
});

describe('vocabularies', () => {
  it('lists every list with both names, positions and whether a term is in use; copil reads it too', async () => {
    const list = await vocabularies();
    expect(list.organs).toHaveLength(8);
    expect(list.surgeries).toHaveLength(16);
    expect(list.specialties.length).toBeGreaterThan(5);
    expect(list.organs[0]).toMatchObject({ nameFr: 'Vessie', nameEn: 'Bladder', icon: 'bladder', retiredAt: null });
    // Kidney surgeries point at the kidney.
    expect(list.organs.find((o) => o.code === 'kidney')).toMatchObject({ inUse: true });
    expect(list.surgeries[0]!.steps.map((s) => s.position)).toEqual(list.surgeries[0]!.steps.map((_, i) => i));
    expect((await call('GET', '/admin/vocabularies', copil)).statusCode).toBe(200);
    for (const who of [learner, editor, expert]) expect((await call('GET', '/admin/vocabularies', who)).statusCode).toBe(403);
    expect((await call('GET', '/admin/vocabularies', null)).statusCode).toBe(401);
  });

  it('creates, renames, retires, restores and deletes an organ, each change audited', async () => {
    const nameEn = unique('Testis');
    const created = await call('POST', '/admin/vocabularies/organs', admin, {
      nameFr: `  ${unique('Testicule')}  `,
      nameEn,
      icon: 'ureter',
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id as string;
    let organ = (await vocabularies()).organs.find((o) => o.id === id)!;
    expect(organ).toMatchObject({ nameEn, icon: 'ureter', inUse: false, retiredAt: null, position: 8 });
    expect(organ.nameFr).not.toMatch(/^\s|\s$/);

    const renamed = await call('PUT', `/admin/vocabularies/organs/${id}`, admin, {
      nameFr: 'Testicule gauche',
      nameEn: 'Left testis',
      icon: 'kidney',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    organ = (await vocabularies()).organs.find((o) => o.id === id)!;
    expect(organ).toMatchObject({ nameFr: 'Testicule gauche', nameEn: 'Left testis', icon: 'kidney' });

    expect((await call('POST', `/admin/vocabularies/organs/${id}/retire`, admin)).statusCode).toBe(200);
    // Twice is the same thing, recorded once.
    expect((await call('POST', `/admin/vocabularies/organs/${id}/retire`, admin)).statusCode).toBe(200);
    expect((await vocabularies()).organs.find((o) => o.id === id)!.retiredAt).not.toBeNull();
    const picker = (await call('GET', '/vocabularies/organs', null)).json().data as { id: string }[];
    expect(picker.map((o) => o.id)).not.toContain(id);

    expect((await call('POST', `/admin/vocabularies/organs/${id}/restore`, admin)).statusCode).toBe(200);
    expect(((await call('GET', '/vocabularies/organs', null)).json().data as { id: string }[]).map((o) => o.id)).toContain(id);

    const deleted = await call('DELETE', `/admin/vocabularies/organs/${id}`, admin);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await vocabularies()).organs.find((o) => o.id === id)).toBeUndefined();
    expect((await call('DELETE', `/admin/vocabularies/organs/${id}`, admin)).statusCode).toBe(404);
    expect(await actions(id)).toEqual([
      'vocabulary.created',
      'vocabulary.renamed',
      'vocabulary.retired',
      'vocabulary.restored',
      'vocabulary.deleted',
    ]);
  });

  it('creates a surgery with an organ, then its steps in both languages, reorders, retires and deletes them', async () => {
    const [organ] = await ctx.database.db.select().from(organs).where(eq(organs.code, 'kidney'));
    const created = await call('POST', '/admin/vocabularies/surgeries', admin, {
      nameFr: unique('Néphrectomie partielle'),
      nameEn: unique('Partial nephrectomy'),
      organId: organ!.id,
    });
    expect(created.statusCode, created.body).toBe(201);
    const surgeryId = created.json().data.id as string;
    const ids: string[] = [];
    for (const [fr, en] of [
      ['Installation', 'Positioning'],
      ['Clampage', 'Clamping'],
      ['Tumorectomie', 'Tumour excision'],
    ]) {
      const step = await call('POST', `/admin/vocabularies/surgeries/${surgeryId}/steps`, admin, { nameFr: fr, nameEn: en });
      expect(step.statusCode, step.body).toBe(201);
      ids.push(step.json().data.id);
    }
    let surgery = (await vocabularies()).surgeries.find((s) => s.id === surgeryId)!;
    expect(surgery.organId).toBe(organ!.id);
    expect(surgery.steps.map((s) => s.nameEn)).toEqual(['Positioning', 'Clamping', 'Tumour excision']);

    const order = [ids[2]!, ids[0]!, ids[1]!];
    const reordered = await call('PUT', `/admin/vocabularies/surgeries/${surgeryId}/steps/order`, admin, { ids: order });
    expect(reordered.statusCode, reordered.body).toBe(200);
    surgery = (await vocabularies()).surgeries.find((s) => s.id === surgeryId)!;
    expect(surgery.steps.map((s) => s.id)).toEqual(order);
    expect(surgery.steps.map((s) => s.position)).toEqual([0, 1, 2]);
    // The public list gives the steps in the new order.
    const pub = ((await call('GET', '/vocabularies/surgeries', null)).json().data as { id: string; steps: { id: string }[] }[]).find(
      (s) => s.id === surgeryId,
    )!;
    expect(pub.steps.map((s) => s.id)).toEqual(order);

    const renamed = await call('PUT', `/admin/vocabularies/steps/${ids[0]}`, admin, {
      nameFr: 'Installation du patient',
      nameEn: 'Patient positioning',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await call('POST', `/admin/vocabularies/steps/${ids[1]}/retire`, admin)).statusCode).toBe(200);
    const pubAfter = ((await call('GET', '/vocabularies/surgeries', null)).json().data as { id: string; steps: { id: string }[] }[]).find(
      (s) => s.id === surgeryId,
    )!;
    expect(pubAfter.steps.map((s) => s.id)).toEqual([ids[2], ids[0]]);
    expect((await call('POST', `/admin/vocabularies/steps/${ids[1]}/restore`, admin)).statusCode).toBe(200);
    expect((await call('DELETE', `/admin/vocabularies/steps/${ids[2]}`, admin)).statusCode).toBe(200);
    expect((await vocabularies()).surgeries.find((s) => s.id === surgeryId)!.steps.map((s) => s.id)).toEqual([ids[0], ids[1]]);

    expect((await call('POST', `/admin/vocabularies/surgeries/${surgeryId}/retire`, admin)).statusCode).toBe(200);
    expect(((await call('GET', '/vocabularies/surgeries', null)).json().data as { id: string }[]).map((s) => s.id)).not.toContain(
      surgeryId,
    );
    expect((await call('POST', `/admin/vocabularies/surgeries/${surgeryId}/restore`, admin)).statusCode).toBe(200);
    // Unused, with its unused steps: deleted together.
    expect((await call('DELETE', `/admin/vocabularies/surgeries/${surgeryId}`, admin)).statusCode).toBe(200);
    expect(await ctx.database.db.select().from(surgerySteps).where(eq(surgerySteps.surgeryId, surgeryId))).toEqual([]);
    expect(await actions(ids[0]!)).toEqual(['vocabulary.created', 'vocabulary.renamed']);
    expect(await actions(surgeryId)).toEqual([
      'vocabulary.created',
      'vocabulary.reordered',
      'vocabulary.retired',
      'vocabulary.restored',
      'vocabulary.deleted',
    ]);
  });

  it('creates, renames, reorders, retires, restores and deletes a specialty', async () => {
    const created = await call('POST', '/admin/vocabularies/specialties', admin, {
      nameFr: unique('Urologie pédiatrique'),
      nameEn: unique('Paediatric urology'),
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id as string;
    expect(
      (await call('PUT', `/admin/vocabularies/specialties/${id}`, admin, { nameFr: 'Uro-pédiatrie', nameEn: 'Paediatric uro' })).statusCode,
    ).toBe(200);
    const current = (await vocabularies()).specialties.map((s) => s.id);
    const order = [id, ...current.filter((s) => s !== id)];
    expect((await call('PUT', '/admin/vocabularies/specialties/order', admin, { ids: order })).statusCode).toBe(200);
    expect((await vocabularies()).specialties.map((s) => s.id)).toEqual(order);
    expect(((await call('GET', '/vocabularies/specialties', null)).json().data as { id: string }[])[0]!.id).toBe(id);
    expect((await call('POST', `/admin/vocabularies/specialties/${id}/retire`, admin)).statusCode).toBe(200);
    expect(((await call('GET', '/vocabularies/specialties', null)).json().data as { id: string }[]).map((s) => s.id)).not.toContain(id);
    expect((await call('POST', `/admin/vocabularies/specialties/${id}/restore`, admin)).statusCode).toBe(200);
    expect((await call('DELETE', `/admin/vocabularies/specialties/${id}`, admin)).statusCode).toBe(200);
  });

  it('reorders organs and surgeries with the whole list', async () => {
    for (const kind of ['organs', 'surgeries'] as const) {
      const ids = (await vocabularies())[kind].map((t) => t.id);
      const reversed = [...ids].reverse();
      const res = await call('PUT', `/admin/vocabularies/${kind}/order`, admin, { ids: reversed });
      expect(res.statusCode, res.body).toBe(200);
      expect((await vocabularies())[kind].map((t) => t.id)).toEqual(reversed);
      expect((await call('PUT', `/admin/vocabularies/${kind}/order`, admin, { ids })).statusCode).toBe(200);
    }
  });

  it('refuses a stale order (a term missing, one too many, twice the same) and changes nothing', async () => {
    const ids = (await vocabularies()).organs.map((t) => t.id);
    for (const stale of [ids.slice(1), [...ids, randomUUID()], [ids[0]!, ...ids.slice(0, -1)]]) {
      const res = await call('PUT', '/admin/vocabularies/organs/order', admin, { ids: [...stale].reverse() });
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().error).toMatchObject({ code: 'VOCABULARY_ORDER_STALE', message: ERRORS.VOCABULARY_ORDER_STALE.fr });
    }
    expect((await vocabularies()).organs.map((t) => t.id)).toEqual(ids);
    // Two administrators reorder at once from the same list: both whole, the last one wins, never a mix.
    const a = [...ids].reverse();
    const b = [ids[1]!, ids[0]!, ...ids.slice(2)];
    const both = await Promise.all([
      call('PUT', '/admin/vocabularies/organs/order', admin, { ids: a }),
      call('PUT', '/admin/vocabularies/organs/order', admin, { ids: b }),
    ]);
    expect(both.map((r) => r.statusCode)).toEqual([200, 200]);
    const after = (await vocabularies()).organs.map((t) => t.id);
    expect([a, b]).toContainEqual(after);
    expect((await vocabularies()).organs.map((t) => t.position)).toEqual(ids.map((_, i) => i));
    await call('PUT', '/admin/vocabularies/organs/order', admin, { ids });
  });

  it('refuses names that are empty, too long, or already in the list whatever the case, with catalogue messages', async () => {
    const bad = [{ nameFr: '   ', nameEn: 'Something' }, { nameFr: 'Quelque chose', nameEn: 'x'.repeat(201) }, { nameFr: 'Quelque chose' }];
    for (const body of bad) {
      const res = await call('POST', '/admin/vocabularies/specialties', admin, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.details.length).toBeGreaterThan(0);
    }
    expect((await vocabularies()).specialties.map((s) => s.nameFr)).not.toContain('Quelque chose');
    const taken = await call('POST', '/admin/vocabularies/organs?langCode=en', admin, {
      nameFr: 'VESSIE',
      nameEn: unique('Other'),
      icon: 'bladder',
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toMatchObject({ code: 'VOCABULARY_NAME_TAKEN', message: ERRORS.VOCABULARY_NAME_TAKEN.en });
    expect(taken.json().error.details).toEqual([{ path: 'nameFr', code: 'VOCABULARY_NAME_TAKEN', message: expect.any(String) }]);
    const [kidney] = await ctx.database.db.select().from(organs).where(eq(organs.code, 'kidney'));
    const rename = await call('PUT', `/admin/vocabularies/organs/${kidney!.id}`, admin, {
      nameFr: 'Rein',
      nameEn: 'bladder',
      icon: 'kidney',
    });
    expect(rename.statusCode).toBe(409);
    const icon = await call('POST', '/admin/vocabularies/organs', admin, {
      nameFr: unique('Foie'),
      nameEn: unique('Liver'),
      icon: 'liver',
    });
    expect(icon.statusCode).toBe(400);
    // The same step name is fine in another surgery.
    const [a, b] = await ctx.database.db.select().from(surgeries).limit(2);
    const name = { nameFr: unique('Étape commune'), nameEn: unique('Shared step') };
    expect((await call('POST', `/admin/vocabularies/surgeries/${a!.id}/steps`, admin, name)).statusCode).toBe(201);
    expect((await call('POST', `/admin/vocabularies/surgeries/${b!.id}/steps`, admin, name)).statusCode).toBe(201);
    expect((await call('POST', `/admin/vocabularies/surgeries/${a!.id}/steps`, admin, { ...name, nameFr: 'autre' })).statusCode).toBe(409);
  });

  it('never deletes a term in use (409 with the catalogue message): it is retired, still named on the case, gone from the pickers', async () => {
    const form = await ctx.database.db.select().from(surgeries).limit(1);
    const [step] = await ctx.database.db.select().from(surgerySteps).where(eq(surgerySteps.surgeryId, form[0]!.id)).limit(1);
    const [organ] = await ctx.database.db.select().from(organs).where(eq(organs.code, 'prostate'));
    const video = await aCase({ status: 'saved', authorId: learner.id, organId: organ!.id, keyStepIds: [step!.id] });
    const [specialty] = await ctx.database.db.select().from(specialties).where(eq(specialties.code, 'urology'));
    await ctx.database.db.update(users).set({ specialtyId: specialty!.id }).where(eq(users.id, learner.id));

    for (const [kind, id] of [
      ['organs', organ!.id],
      ['surgeries', form[0]!.id],
      ['steps', step!.id],
      ['specialties', specialty!.id],
    ] as const) {
      const res = await call('DELETE', `/admin/vocabularies/${kind}/${id}?langCode=en`, admin);
      expect(res.statusCode, `${kind}: ${res.body}`).toBe(409);
      expect(res.json().error).toEqual({ code: 'VOCABULARY_IN_USE', message: ERRORS.VOCABULARY_IN_USE.en });
      expect((await call('POST', `/admin/vocabularies/${kind}/${id}/retire`, admin)).statusCode).toBe(200);
    }
    // The pickers no longer offer them.
    expect(((await call('GET', '/vocabularies/organs', null)).json().data as { id: string }[]).map((o) => o.id)).not.toContain(organ!.id);
    expect(((await call('GET', '/vocabularies/surgeries', null)).json().data as { id: string }[]).map((o) => o.id)).not.toContain(
      form[0]!.id,
    );
    expect(((await call('GET', '/vocabularies/specialties', null)).json().data as { id: string }[]).map((o) => o.id)).not.toContain(
      specialty!.id,
    );
    // The case still names them.
    const detail = await call('GET', `/videos/${video.id}?langCode=en`, learner);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().data).toMatchObject({
      surgery: { id: form[0]!.id, name: form[0]!.nameEn },
      organ: { id: organ!.id, name: 'Prostate' },
      keySteps: [{ id: step!.id, name: step!.nameEn }],
    });
    // A new case cannot pick them; the existing one keeps them when edited.
    const create = await call('POST', '/videos', learner, { kind: 'pictures', surgeryId: form[0]!.id, organId: organ!.id, keyStepIds: [] });
    expect(create.statusCode, create.body).toBe(400);
    const edit = await call('PUT', `/videos/${video.id}`, learner, { equipmentBrand: 'Intuitive', organId: organ!.id });
    expect(edit.statusCode, edit.body).toBe(200);
    // The person keeps their retired specialty when saving their profile; someone else cannot pick it.
    const keep = await call('PUT', '/users/profile/me', learner, { career: { specialtyId: specialty!.id } });
    expect(keep.statusCode, keep.body).toBe(200);
    const pick = await call('PUT', '/users/profile/me', editor, { career: { specialtyId: specialty!.id } });
    expect(pick.statusCode, pick.body).toBe(400);

    for (const [kind, id] of [
      ['organs', organ!.id],
      ['surgeries', form[0]!.id],
      ['steps', step!.id],
      ['specialties', specialty!.id],
    ] as const) {
      expect((await call('POST', `/admin/vocabularies/${kind}/${id}/restore`, admin)).statusCode).toBe(200);
    }
    expect(((await call('GET', '/vocabularies/organs', null)).json().data as { id: string }[]).map((o) => o.id)).toContain(organ!.id);
    const list = await vocabularies();
    expect(list.organs.find((o) => o.id === organ!.id)!.inUse).toBe(true);
  });

  it('keeps every administrator change when the seed runs again at restart', async () => {
    const db = ctx.database.db;
    const [bladder] = await db.select().from(organs).where(eq(organs.code, 'bladder'));
    const [ureter] = await db.select().from(organs).where(eq(organs.code, 'ureter'));
    const [neuro] = await db.select().from(specialties).where(eq(specialties.code, 'neurosurgery'));
    const [splenectomy] = await db.select().from(surgeries).where(eq(surgeries.code, 'splenectomy'));
    const [firstStep] = await db.select().from(surgerySteps).where(eq(surgerySteps.surgeryId, splenectomy!.id)).limit(1);
    expect(
      (
        await call('PUT', `/admin/vocabularies/organs/${bladder!.id}`, admin, {
          nameFr: 'Vessie urinaire',
          nameEn: 'Urinary bladder',
          icon: 'bladder',
        })
      ).statusCode,
    ).toBe(200);
    expect((await call('POST', `/admin/vocabularies/organs/${ureter!.id}/retire`, admin)).statusCode).toBe(200);
    expect((await call('DELETE', `/admin/vocabularies/specialties/${neuro!.id}`, admin)).statusCode).toBe(200);
    expect((await call('DELETE', `/admin/vocabularies/steps/${firstStep!.id}`, admin)).statusCode).toBe(200);

    await ctx.services.vocabularies.seed();
    await ctx.services.vocabularies.seed();

    const [bladderAfter] = await db.select().from(organs).where(eq(organs.code, 'bladder'));
    expect(bladderAfter).toMatchObject({ nameFr: 'Vessie urinaire', nameEn: 'Urinary bladder' });
    const [ureterAfter] = await db.select().from(organs).where(eq(organs.code, 'ureter'));
    expect(ureterAfter!.retiredAt).not.toBeNull();
    expect(await db.select().from(specialties).where(eq(specialties.code, 'neurosurgery'))).toEqual([]);
    expect(
      await db
        .select()
        .from(surgerySteps)
        .where(and(eq(surgerySteps.surgeryId, splenectomy!.id), eq(surgerySteps.code, firstStep!.code))),
    ).toEqual([]);
    // A term the seed never added before is still added (and recorded).
    await db.delete(vocabularySeeds).where(and(eq(vocabularySeeds.kind, 'specialty'), eq(vocabularySeeds.code, 'neurosurgery')));
    await ctx.services.vocabularies.seed();
    expect(await db.select().from(specialties).where(eq(specialties.code, 'neurosurgery'))).toHaveLength(1);
    await call('PUT', `/admin/vocabularies/organs/${bladder!.id}`, admin, { nameFr: 'Vessie', nameEn: 'Bladder', icon: 'bladder' });
    await call('POST', `/admin/vocabularies/organs/${ureter!.id}/restore`, admin);
  });

  it('hides retired steps from the editor’s names but keeps naming them', async () => {
    const video = await aCase();
    const claim = await call('POST', `/editor/videos/${video.id}/claim`, editor);
    expect(claim.statusCode, claim.body).toBe(200);
    const before = (await call('GET', `/editor/videos/${video.id}`, editor)).json().data.vocabulary as { id: string }[];
    const retired = before[0]!.id;
    expect((await call('POST', `/admin/vocabularies/steps/${retired}/retire`, admin)).statusCode).toBe(200);
    const after = (await call('GET', `/editor/videos/${video.id}`, editor)).json().data.vocabulary as { id: string }[];
    expect(after.map((s) => s.id)).toEqual(before.slice(1).map((s) => s.id));
    expect((await call('POST', `/admin/vocabularies/steps/${retired}/restore`, admin)).statusCode).toBe(200);
    await call('POST', `/editor/videos/${video.id}/release`, editor, { fencingToken: claim.json().data.fencingToken });
  });
});

describe('retired terms in the public lists', () => {
  type Term = { id: string; name: string; retired: boolean; steps?: Term[] };
  const list = async (kind: string, query = '') => {
    const res = await call('GET', `/vocabularies/${kind}${query}`, null);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as Term[];
  };

  it('answers retired terms, marked, only with filter=includeRetired==true, for list filters and saved choices', async () => {
    const db = ctx.database.db;
    const [surgery] = await db.select().from(surgeries).where(eq(surgeries.code, 'pyeloplasty'));
    const [step] = await db.select().from(surgerySteps).where(eq(surgerySteps.surgeryId, surgery!.id)).limit(1);
    const [organ] = await db.select().from(organs).where(eq(organs.code, 'kidney'));
    const [specialty] = await db.select().from(specialties).where(eq(specialties.code, 'endocrine_surgery'));
    for (const [kind, id] of [
      ['surgeries', surgery!.id],
      ['steps', step!.id],
      ['organs', organ!.id],
      ['specialties', specialty!.id],
    ] as const)
      expect((await call('POST', `/admin/vocabularies/${kind}/${id}/retire`, admin)).statusCode).toBe(200);

    // The pickers: nothing retired, and every term says it is not.
    for (const [kind, id] of [
      ['surgeries', surgery!.id],
      ['organs', organ!.id],
      ['specialties', specialty!.id],
    ] as const) {
      const picker = await list(kind);
      expect(picker.map((t) => t.id)).not.toContain(id);
      expect(picker.every((t) => t.retired === false)).toBe(true);
      expect((await list(kind, '?filter=includeRetired==false')).map((t) => t.id)).toEqual(picker.map((t) => t.id));
      // Every term, the retired one marked, in the list's order.
      const every = await list(kind, '?filter=includeRetired==true&langCode=fr');
      expect(every.filter((t) => t.retired).map((t) => t.id)).toEqual([id]);
      expect(every.filter((t) => !t.retired).map((t) => t.id)).toEqual(picker.map((t) => t.id));
    }
    const every = await list('surgeries', '?filter=includeRetired==true&langCode=en');
    const retired = every.find((s) => s.id === surgery!.id)!;
    expect(retired).toMatchObject({ name: 'Pyeloplasty', retired: true });
    // Its retired step too, marked, while the pickers' surgeries leave retired steps out.
    expect(retired.steps!.find((s) => s.id === step!.id)).toMatchObject({ retired: true, name: step!.nameEn });
    expect(retired.steps!.filter((s) => !s.retired)).toHaveLength(8);
    const pickerSteps = (await list('surgeries')).flatMap((s) => s.steps!);
    expect(pickerSteps.some((s) => s.retired)).toBe(false);

    // The filter is checked by the shared query syntax: another key, value or parameter is refused.
    for (const [query, code] of [
      ['?filter=includeRetired==yes', 'VALIDATION'],
      ['?filter=includeRetired==', 'VALIDATION'],
      ['?filter=retired==true', 'QUERY_UNKNOWN_FIELD'],
      ['?filter=includeRetired', 'QUERY_UNKNOWN_FIELD'],
      ['?page=2', 'QUERY_UNKNOWN_FIELD'],
    ] as const) {
      const res = await call('GET', `/vocabularies/organs${query}`, null);
      expect(res.statusCode, `${query}: ${res.body}`).toBe(400);
      expect(res.json().error.code, query).toBe(code);
    }

    for (const [kind, id] of [
      ['surgeries', surgery!.id],
      ['steps', step!.id],
      ['organs', organ!.id],
      ['specialties', specialty!.id],
    ] as const)
      expect((await call('POST', `/admin/vocabularies/${kind}/${id}/restore`, admin)).statusCode).toBe(200);
    expect((await list('organs')).map((o) => o.id)).toContain(organ!.id);
  });

  it('lets an editor’s draft keep a retired step it already names, but not name another step with it', async () => {
    const db = ctx.database.db;
    const video = await aCase();
    const steps = await db.select().from(surgerySteps).where(eq(surgerySteps.surgeryId, video.surgeryId!)).orderBy(surgerySteps.position);
    const [first, second] = steps;
    const claim = await call('POST', `/editor/videos/${video.id}/claim`, editor);
    expect(claim.statusCode, claim.body).toBe(200);
    const fencingToken = claim.json().data.fencingToken as number;
    const write = (part: string, body: object) => call('PUT', `/editor/videos/${video.id}/${part}`, editor, { fencingToken, ...body });
    expect((await write('trims', { trims: [{ start: 0, end: 20 }] })).statusCode).toBe(200);
    expect((await write('phase', { phase: 'steps' })).statusCode).toBe(200);
    const named = (id: string | null, start: number, end: number) => ({ surgeryStepId: id, name: id ? '' : 'Free', start, end });
    expect((await write('steps', { steps: [named(first!.id, 0, 5), named(null, 5, 10)] })).statusCode).toBe(200);

    expect((await call('POST', `/admin/vocabularies/steps/${first!.id}/retire`, admin)).statusCode).toBe(200);
    expect((await call('POST', `/admin/vocabularies/steps/${second!.id}/retire`, admin)).statusCode).toBe(200);
    // The draft still names its step; the names offered leave both out.
    const detail = (await call('GET', `/editor/videos/${video.id}?langCode=en`, editor)).json().data;
    expect(detail.steps[0]).toMatchObject({ surgeryStepId: first!.id, name: first!.nameEn });
    expect((detail.vocabulary as { id: string }[]).map((v) => v.id)).not.toContain(first!.id);
    // Kept as it was: accepted. A retired step the draft did not have: refused, nothing changed.
    expect((await write('steps', { steps: [named(first!.id, 0, 6), named(null, 6, 10)] })).statusCode).toBe(200);
    const refused = await write('steps', { steps: [named(first!.id, 0, 6), named(second!.id, 6, 10)] });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error.details).toEqual([{ path: 'steps.1.surgeryStepId', code: 'INVALID_VALUE', message: expect.any(String) }]);
    const after = (await call('GET', `/editor/videos/${video.id}`, editor)).json().data;
    expect(after.steps.map((s: { surgeryStepId: string | null; end: number }) => [s.surgeryStepId, s.end])).toEqual([
      [first!.id, 6],
      [null, 10],
    ]);

    for (const id of [first!.id, second!.id])
      expect((await call('POST', `/admin/vocabularies/steps/${id}/restore`, admin)).statusCode).toBe(200);
    await call('POST', `/editor/videos/${video.id}/release`, editor, { fencingToken });
  });
});

describe('surgery videos', () => {
  it('lists every case newest first with author, surgery, organ, statuses and the claim holder; filters and searches', async () => {
    const marker = randomUUID().slice(0, 8);
    const searched = await ctx.createUser('learner', { firstName: 'Searchable', lastName: `Author${marker}` });
    const [surgery] = await ctx.database.db.select().from(surgeries).where(eq(surgeries.code, 'pyeloplasty'));
    const older = await aCase({ authorId: searched.id, status: 'saved', createdAt: new Date(Date.now() - 60_000), surgeryId: surgery!.id });
    const held = await aCase({ authorId: searched.id, status: 'pending_preparation', surgeryId: surgery!.id, organId: surgery!.organId });
    const claim = await call('POST', `/editor/videos/${held.id}/claim`, editor);
    expect(claim.statusCode, claim.body).toBe(200);

    const res = await call('GET', `/admin/surgery-videos?langCode=en&filter=search==author${marker}`, copil);
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json().data;
    expect(page.total).toBe(2);
    expect(page.data.map((v: { id: string }) => v.id)).toEqual([held.id, older.id]);
    expect(page.data[0]).toMatchObject({
      status: 'in_preparation',
      mediaStatus: 'ready',
      author: { id: searched.id, firstName: 'Searchable' },
      surgery: { id: surgery!.id, name: 'Pyeloplasty' },
      organ: { name: 'Kidney', icon: 'kidney' },
      claim: { holder: { id: editor.id, firstName: 'Eddie', lastName: 'Holder' }, leaseEndsAt: claim.json().data.leaseEndsAt },
    });
    expect(page.data[1].claim).toBeNull();

    const oldest = await call('GET', `/admin/surgery-videos?filter=search==author${marker}&sort=createdAt`, admin);
    expect(oldest.json().data.data.map((v: { id: string }) => v.id)).toEqual([older.id, held.id]);
    const byStatus = await call('GET', `/admin/surgery-videos?filter=status==in_preparation__search==${marker}&limit=1`, admin);
    expect(byStatus.json().data).toMatchObject({ total: 1, limit: 1, data: [{ id: held.id }] });
    const bySurgery = await call('GET', `/admin/surgery-videos?filter=search==pyélo&limit=100`, admin);
    expect(bySurgery.json().data.data.map((v: { id: string }) => v.id)).toContain(held.id);
    const paged = await call('GET', `/admin/surgery-videos?filter=search==${marker}&limit=1&page=2`, admin);
    expect(paged.json().data.data.map((v: { id: string }) => v.id)).toEqual([older.id]);
    const literal = await call('GET', `/admin/surgery-videos?filter=search==%25`, admin);
    expect(literal.json().data.total).toBe(0);
    // "last first" and part of the email find the author too.
    const reversed = await call('GET', `/admin/surgery-videos?filter=search==${encodeURIComponent(`author${marker} searchable`)}`, admin);
    expect(reversed.json().data.total).toBe(2);

    // Each side of the search is answered by its trigram index, not by reading every row.
    const client = await ctx.database.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL enable_seqscan = off');
      const plan = async (sqlText: string) =>
        (await client.query(`EXPLAIN ${sqlText}`)).rows.map((r: Record<string, string>) => Object.values(r)[0]).join('\n');
      expect(await plan(`SELECT id FROM users WHERE (${USER_SEARCH_TEXT}) ILIKE '%searchable%'`)).toContain('users_search_trgm');
      expect(await plan(`SELECT id FROM surgeries WHERE name_fr ILIKE '%pyélo%'`)).toContain('surgeries_name_fr_trgm');
      expect(await plan(`SELECT id FROM surgeries WHERE name_en ILIKE '%pyelo%'`)).toContain('surgeries_name_en_trgm');
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }

    for (const bad of ['filter=status==lost', 'filter=mediaStatus==gone', 'filter=authorId==x', 'sort=duration']) {
      expect((await call('GET', `/admin/surgery-videos?${bad}`, admin)).statusCode, bad).toBe(400);
    }
    for (const who of [learner, editor, expert]) expect((await call('GET', '/admin/surgery-videos', who)).statusCode).toBe(403);
    expect((await call('GET', '/admin/surgery-videos', null)).statusCode).toBe(401);
  });

  it('force-releases a claim: the holder’s next write is LEASE_LOST, the video is back in the pool, the holder is told', async () => {
    const video = await aCase();
    const claim = (await call('POST', `/editor/videos/${video.id}/claim`, editor)).json().data;
    const released = await call('POST', `/admin/surgery-videos/${video.id}/release`, admin);
    expect(released.statusCode, released.body).toBe(200);
    expect(released.json().data).toMatchObject({ videoId: video.id, stage: 'preparation', released: true });

    const write = await call('PUT', `/editor/videos/${video.id}/trims`, editor, {
      fencingToken: claim.fencingToken,
      trims: [{ start: 0, end: 5 }],
    });
    expect(write.statusCode, write.body).toBe(409);
    expect(write.json().error.code).toBe('LEASE_LOST');
    const [row] = await ctx.database.db.select().from(videos).where(eq(videos.id, video.id));
    expect(row).toMatchObject({ status: 'pending_preparation', claimHolderId: null, leaseEndsAt: null });
    const pool = (await call('GET', '/editor/pool?limit=100', editor)).json().data.data as { id: string }[];
    expect(pool.map((v) => v.id)).toContain(video.id);
    const [history] = await ctx.database.db.select().from(claimHistory).where(eq(claimHistory.videoId, video.id));
    expect(history).toMatchObject({ endReason: 'force_released' });
    const told = await ctx.database.db.select().from(notifications).where(eq(notifications.userId, editor.id));
    expect(told.map((n) => n.key)).toContain('preparationClaimReleased');
    expect(await actions(video.id)).toContain('video.claim_released_by_admin');

    // A second click finds nobody holding it.
    const again = await call('POST', `/admin/surgery-videos/${video.id}/release`, admin);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('CLAIM_NOT_HELD');
    // Anyone of the stage may claim it again.
    expect((await call('POST', `/editor/videos/${video.id}/claim`, editor)).statusCode).toBe(200);
  });

  it('force-releases an expert’s claim back to the analysis pool', async () => {
    const video = await aCase({ status: 'pending_analysis' });
    const claim = await call('POST', `/expert/videos/${video.id}/claim`, expert);
    expect(claim.statusCode, claim.body).toBe(200);
    expect((await call('POST', `/admin/surgery-videos/${video.id}/release`, admin)).statusCode).toBe(200);
    const write = await call('PUT', `/expert/videos/${video.id}/analysis`, expert, {
      fencingToken: claim.json().data.fencingToken,
      advice: 'Steady.',
    });
    expect(write.json().error.code).toBe('LEASE_LOST');
    const [row] = await ctx.database.db.select().from(videos).where(eq(videos.id, video.id));
    expect(row!.status).toBe('pending_analysis');
  });

  it('ends an expert’s claim and deletes the draft together, or neither', async () => {
    const video = await aCase({ status: 'pending_analysis' });
    const claim = await call('POST', `/expert/videos/${video.id}/claim`, expert);
    expect(claim.statusCode, claim.body).toBe(200);
    expect(await ctx.database.db.select().from(analyses).where(eq(analyses.videoId, video.id))).toHaveLength(1);
    // The database refuses to delete this draft: the write after the claim's end fails.
    await ctx.database.pool.query(`
      CREATE FUNCTION keep_draft() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF OLD.video_id = '${video.id}' THEN RAISE EXCEPTION 'refused'; END IF;
        RETURN OLD;
      END $$;
      CREATE TRIGGER keep_draft BEFORE DELETE ON analyses FOR EACH ROW EXECUTE FUNCTION keep_draft();`);
    try {
      expect((await call('POST', `/admin/surgery-videos/${video.id}/release`, admin)).statusCode).toBe(500);
    } finally {
      await ctx.database.pool.query('DROP TRIGGER keep_draft ON analyses; DROP FUNCTION keep_draft();');
    }
    const [row] = await ctx.database.db.select().from(videos).where(eq(videos.id, video.id));
    expect(row).toMatchObject({ status: 'in_analysis', claimHolderId: expert.id, fencingToken: claim.json().data.fencingToken });
    const [history] = await ctx.database.db.select().from(claimHistory).where(eq(claimHistory.videoId, video.id));
    expect(history).toMatchObject({ endedAt: null, endReason: null });

    expect((await call('POST', `/admin/surgery-videos/${video.id}/release`, admin)).statusCode).toBe(200);
    expect(await ctx.database.db.select().from(analyses).where(eq(analyses.videoId, video.id))).toEqual([]);
    const [after] = await ctx.database.db.select().from(videos).where(eq(videos.id, video.id));
    expect(after!.status).toBe('pending_analysis');
  });

  it('deletes a case with its rows and files, audited, its author told; the administrator may watch it first', async () => {
    const video = await aCase();
    const key = `videos/${video.id}/video.mp4`;
    await ctx.storage.put(key, Buffer.from('not really a video'));
    const [file] = await ctx.database.db
      .insert(media)
      .values({ ownerId: learner.id, videoId: video.id, kind: 'video', storageKey: key, contentType: 'video/mp4', size: 18 })
      .returning();
    await ctx.database.db.update(videos).set({ videoMediaId: file!.id }).where(eq(videos.id, video.id));

    // Watching it: the administrator gets a signed URL of the video, and the log keeps that they looked.
    const detail = await call('GET', `/videos/${video.id}`, admin);
    expect(detail.statusCode, detail.body).toBe(200);
    const url = detail.json().data.videoUrl as string;
    const served = await ctx.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(await actions(video.id)).toContain('video.viewed_by_admin');
    // Asked again while the page is open: recorded once.
    expect((await call('GET', `/videos/${video.id}`, admin)).statusCode).toBe(200);
    expect((await actions(video.id)).filter((a) => a === 'video.viewed_by_admin')).toHaveLength(1);
    // Copil reads the list but not the cases themselves.
    expect((await call('GET', `/videos/${video.id}`, copil)).statusCode).toBe(404);

    for (const who of [copil, learner, editor, expert]) {
      expect((await call('DELETE', `/admin/surgery-videos/${video.id}`, who)).statusCode).toBe(403);
    }
    const res = await call('DELETE', `/admin/surgery-videos/${video.id}`, admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(await ctx.database.db.select().from(videos).where(eq(videos.id, video.id))).toEqual([]);
    expect(await ctx.database.db.select().from(media).where(eq(media.videoId, video.id))).toEqual([]);
    expect(await ctx.storage.size(key)).toBeUndefined();
    expect(await actions(video.id)).toContain('video.deleted_by_admin');
    const told = await ctx.database.db.select().from(notifications).where(eq(notifications.userId, learner.id));
    expect(told.map((n) => n.key)).toContain('videoDeletedByAdmin');
    expect((await call('DELETE', `/admin/surgery-videos/${video.id}`, admin)).statusCode).toBe(404);
  });
});

describe('who may write', () => {
  it('refuses every write to copil, learners, editors and experts (403) and to anonymous callers (401), changing nothing', async () => {
    const list = await vocabularies();
    const organ = list.organs[0]!;
    const surgery = list.surgeries[0]!;
    const step = surgery.steps[0]!;
    const specialty = list.specialties[0]!;
    const video = await aCase();
    const names = { nameFr: 'Interdit', nameEn: 'Forbidden' };
    const writes: [Method, string, unknown?][] = [
      ['POST', '/admin/vocabularies/organs', { ...names, icon: 'kidney' }],
      ['POST', '/admin/vocabularies/surgeries', names],
      ['POST', '/admin/vocabularies/specialties', names],
      ['POST', `/admin/vocabularies/surgeries/${surgery.id}/steps`, names],
      ['PUT', '/admin/vocabularies/organs/order', { ids: list.organs.map((o) => o.id) }],
      ['PUT', '/admin/vocabularies/surgeries/order', { ids: list.surgeries.map((o) => o.id) }],
      ['PUT', '/admin/vocabularies/specialties/order', { ids: list.specialties.map((o) => o.id) }],
      ['PUT', `/admin/vocabularies/surgeries/${surgery.id}/steps/order`, { ids: surgery.steps.map((o) => o.id) }],
      ['POST', `/admin/surgery-videos/${video.id}/release`],
      ['DELETE', `/admin/surgery-videos/${video.id}`],
    ];
    for (const [kind, id] of [
      ['organs', organ.id],
      ['surgeries', surgery.id],
      ['steps', step.id],
      ['specialties', specialty.id],
    ] as const) {
      writes.push(
        ['PUT', `/admin/vocabularies/${kind}/${id}`, kind === 'organs' ? { ...names, icon: 'kidney' } : names],
        ['POST', `/admin/vocabularies/${kind}/${id}/retire`],
        ['POST', `/admin/vocabularies/${kind}/${id}/restore`],
        ['DELETE', `/admin/vocabularies/${kind}/${id}`],
      );
    }
    for (const [method, url, body] of writes) {
      for (const who of [copil, learner, editor, expert]) {
        const res = await call(method, url, who, body);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json().error.code).toBe('FORBIDDEN');
      }
      expect((await call(method, url, null, body)).statusCode, `${method} ${url}`).toBe(401);
    }
    expect(await vocabularies()).toEqual(list);
    expect(await ctx.database.db.select().from(videos).where(eq(videos.id, video.id))).toHaveLength(1);
  });
});
