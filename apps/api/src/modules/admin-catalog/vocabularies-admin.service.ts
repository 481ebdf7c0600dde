import { randomUUID } from 'node:crypto';
import { asc, eq, sql, type SQL } from 'drizzle-orm';
import type { AdminVocabularies, NamesBody, OrganBody, SurgeryBody, VocabularyKind } from '@sutura/domain/admin-catalog';
import type { Db } from '../../db/client.ts';
import { organs, specialties, surgeries, surgerySteps } from '../../db/schema.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { Audit, AuditAction } from '../audit/audit.service.ts';

/** The table of each list, and the audit log's name for one of its terms. */
const LISTS = {
  organs: { table: 'organs', entity: 'organ' },
  surgeries: { table: 'surgeries', entity: 'surgery' },
  steps: { table: 'surgery_steps', entity: 'surgery_step' },
  specialties: { table: 'specialties', entity: 'specialty' },
} as const satisfies Record<VocabularyKind, { table: string; entity: string }>;

/**
 * Whether something refers to the term `alias.id`: a case, a person's specialty, a step of a
 * rendered video or of an editor's draft, a case's key steps, a surgery's organ. Each is an
 * indexed lookup (docs/admin-catalog.md).
 */
const stepInUse = (id: SQL) => sql`(
  exists (select 1 from video_steps vs where vs.surgery_step_id = ${id})
  or exists (select 1 from videos v where v.key_step_ids @> array[${id}]::uuid[])
  or exists (select 1 from preparations p where p.steps @> jsonb_build_array(jsonb_build_object('surgeryStepId', ${id}::text)))
)`;
const IN_USE: Record<VocabularyKind, (id: SQL) => SQL> = {
  organs: (id) =>
    sql`(exists (select 1 from videos v where v.organ_id = ${id}) or exists (select 1 from surgeries s where s.organ_id = ${id}))`,
  surgeries: (id) =>
    sql`(exists (select 1 from videos v where v.surgery_id = ${id})
      or exists (select 1 from surgery_steps st where st.surgery_id = ${id} and ${stepInUse(sql`st.id`)}))`,
  steps: stepInUse,
  specialties: (id) => sql`exists (select 1 from users u where u.specialty_id = ${id})`,
};

/** The PostgreSQL error code and constraint under drizzle's wrapper, if any. */
function pgError(err: unknown): { code?: string; constraint?: string } {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
      return { code, ...(typeof constraint === 'string' ? { constraint } : {}) };
    }
  }
  return {};
}

/** A name already used in the list (either language, whatever the case) is VOCABULARY_NAME_TAKEN on its field. */
async function uniqueNames<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    const { code, constraint } = pgError(err);
    if (code === '23505' && constraint?.includes('_name_')) {
      const path = constraint.includes('_name_fr') ? 'nameFr' : 'nameEn';
      throw new AppError('VOCABULARY_NAME_TAKEN', {}, [{ path, code: 'VOCABULARY_NAME_TAKEN' }]);
    }
    throw err;
  }
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function createVocabularyAdmin(deps: { db: Db; audit: Audit; clock: () => Date }) {
  const { db, audit, clock } = deps;
  type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

  /** One writer at a time per list (a surgery's steps are a list of their own): creation, reorder and deletion queue up. */
  const lockList = (tx: Tx, kind: VocabularyKind, surgeryId?: string) =>
    tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`vocabulary:${kind}:${surgeryId ?? ''}`}))`);

  /** The surgery a step belongs to, or 404. */
  async function surgeryOf(stepId: string): Promise<string> {
    const [row] = await db.select({ surgeryId: surgerySteps.surgeryId }).from(surgerySteps).where(eq(surgerySteps.id, stepId));
    if (!row) throw notFound();
    return row.surgeryId;
  }

  /** A surgery's organ must exist; a retired one only if the surgery already had it. */
  async function checkOrgan(organId: string | null, current: string | null = null) {
    if (!organId) return;
    const [organ] = await db.select({ retiredAt: organs.retiredAt }).from(organs).where(eq(organs.id, organId));
    if (!organ || (organ.retiredAt && organId !== current)) {
      throw new AppError('VALIDATION', {}, [{ path: 'organId', code: 'INVALID_VALUE' }]);
    }
  }

  async function record(actorId: string, action: AuditAction, kind: VocabularyKind, id: string | null, ip: string, details: object) {
    await audit(actorId, action, LISTS[kind].entity, id, ip, details as Record<string, unknown>);
  }

  /** Sets `retired_at` (now, or null to restore); returns whether the term exists. Idempotent. */
  async function setRetired(kind: VocabularyKind, id: string, retired: boolean): Promise<{ changed: boolean }> {
    const table = sql.identifier(LISTS[kind].table);
    const result = await db.execute<{ changed: boolean }>(sql`
      update ${table} t set retired_at = ${retired ? sql`coalesce(t.retired_at, ${clock()})` : sql`null`}
      from (select id, retired_at is not null as was from ${table} where id = ${id} for update) before
      where t.id = before.id
      returning (before.was <> ${retired}) as changed`);
    const row = result.rows[0];
    if (!row) throw notFound();
    return row;
  }

  return {
    /** Every term of every list, retired ones included, with whether it is in use. */
    async list(): Promise<AdminVocabularies> {
      const term = <T extends { id: unknown }>(t: T, kind: VocabularyKind) => sql<boolean>`${IN_USE[kind](sql`${t.id}`)}`;
      const [organRows, surgeryRows, stepRows, specialtyRows] = await Promise.all([
        db
          .select({ row: organs, inUse: term(organs, 'organs') })
          .from(organs)
          .orderBy(asc(organs.position), asc(organs.nameEn)),
        db
          .select({ row: surgeries, inUse: term(surgeries, 'surgeries') })
          .from(surgeries)
          .orderBy(asc(surgeries.position), asc(surgeries.nameEn)),
        db
          .select({ row: surgerySteps, inUse: term(surgerySteps, 'steps') })
          .from(surgerySteps)
          .orderBy(asc(surgerySteps.position), asc(surgerySteps.nameEn)),
        db
          .select({ row: specialties, inUse: term(specialties, 'specialties') })
          .from(specialties)
          .orderBy(asc(specialties.position), asc(specialties.nameEn)),
      ]);
      const base = (
        r: { id: string; code: string; nameFr: string; nameEn: string; position: number; retiredAt: Date | null },
        inUse: boolean,
      ) => ({
        id: r.id,
        code: r.code,
        nameFr: r.nameFr,
        nameEn: r.nameEn,
        position: r.position,
        retiredAt: iso(r.retiredAt),
        inUse: Boolean(inUse),
      });
      return {
        organs: organRows.map(({ row, inUse }) => ({ ...base(row, inUse), icon: row.icon as AdminVocabularies['organs'][number]['icon'] })),
        surgeries: surgeryRows.map(({ row, inUse }) => ({
          ...base(row, inUse),
          organId: row.organId,
          steps: stepRows.filter((s) => s.row.surgeryId === row.id).map((s) => base(s.row, s.inUse)),
        })),
        specialties: specialtyRows.map(({ row, inUse }) => base(row, inUse)),
      };
    },

    async createOrgan(actorId: string, body: OrganBody, ip: string) {
      const row = await uniqueNames(() =>
        db.transaction(async (tx) => {
          await lockList(tx, 'organs');
          const [{ next } = { next: 0 }] = await tx
            .select({ next: sql<number>`coalesce(max(${organs.position}) + 1, 0)::int` })
            .from(organs);
          const [created] = await tx
            .insert(organs)
            .values({
              code: `custom_${randomUUID().slice(0, 8)}`,
              nameFr: body.nameFr,
              nameEn: body.nameEn,
              icon: body.icon,
              position: next,
            })
            .returning();
          return created!;
        }),
      );
      await record(actorId, 'vocabulary.created', 'organs', row.id, ip, { nameFr: row.nameFr, nameEn: row.nameEn, icon: row.icon });
      return { id: row.id };
    },

    async createSurgery(actorId: string, body: SurgeryBody, ip: string) {
      await checkOrgan(body.organId);
      const row = await uniqueNames(() =>
        db.transaction(async (tx) => {
          await lockList(tx, 'surgeries');
          const [{ next } = { next: 0 }] = await tx
            .select({ next: sql<number>`coalesce(max(${surgeries.position}) + 1, 0)::int` })
            .from(surgeries);
          const [created] = await tx
            .insert(surgeries)
            .values({
              code: `custom_${randomUUID().slice(0, 8)}`,
              nameFr: body.nameFr,
              nameEn: body.nameEn,
              organId: body.organId,
              position: next,
            })
            .returning();
          return created!;
        }),
      );
      await record(actorId, 'vocabulary.created', 'surgeries', row.id, ip, {
        nameFr: row.nameFr,
        nameEn: row.nameEn,
        organId: row.organId,
      });
      return { id: row.id };
    },

    /** A new last step of the surgery. */
    async createStep(actorId: string, surgeryId: string, body: NamesBody, ip: string) {
      const [surgery] = await db.select({ id: surgeries.id }).from(surgeries).where(eq(surgeries.id, surgeryId));
      if (!surgery) throw notFound();
      const row = await uniqueNames(() =>
        db.transaction(async (tx) => {
          await lockList(tx, 'steps', surgeryId);
          const [{ next } = { next: 0 }] = await tx
            .select({ next: sql<number>`coalesce(max(${surgerySteps.position}) + 1, 0)::int` })
            .from(surgerySteps)
            .where(eq(surgerySteps.surgeryId, surgeryId));
          const [created] = await tx
            .insert(surgerySteps)
            .values({ surgeryId, code: `custom_${randomUUID().slice(0, 8)}`, nameFr: body.nameFr, nameEn: body.nameEn, position: next })
            .returning();
          return created!;
        }),
      );
      await record(actorId, 'vocabulary.created', 'steps', row.id, ip, { surgeryId, nameFr: row.nameFr, nameEn: row.nameEn });
      return { id: row.id };
    },

    async createSpecialty(actorId: string, body: NamesBody, ip: string) {
      const row = await uniqueNames(() =>
        db.transaction(async (tx) => {
          await lockList(tx, 'specialties');
          const [{ next } = { next: 0 }] = await tx
            .select({ next: sql<number>`coalesce(max(${specialties.position}) + 1, 0)::int` })
            .from(specialties);
          const [created] = await tx
            .insert(specialties)
            .values({ code: `custom_${randomUUID().slice(0, 8)}`, nameFr: body.nameFr, nameEn: body.nameEn, position: next })
            .returning();
          return created!;
        }),
      );
      await record(actorId, 'vocabulary.created', 'specialties', row.id, ip, { nameFr: row.nameFr, nameEn: row.nameEn });
      return { id: row.id };
    },

    /** Renames a term (an organ's icon, a surgery's organ with it); the audit keeps the former names. */
    async update(
      actorId: string,
      kind: VocabularyKind,
      id: string,
      body: NamesBody & { icon?: string; organId?: string | null },
      ip: string,
    ) {
      const table = { organs, surgeries, steps: surgerySteps, specialties }[kind];
      const [before] = await db.select().from(table).where(eq(table.id, id));
      if (!before) throw notFound();
      const changes: Record<string, unknown> = { nameFr: body.nameFr, nameEn: body.nameEn };
      if (kind === 'organs' && body.icon) changes.icon = body.icon;
      if (kind === 'surgeries' && body.organId !== undefined) {
        await checkOrgan(body.organId, (before as { organId: string | null }).organId);
        changes.organId = body.organId;
      }
      await uniqueNames(() => db.update(table).set(changes).where(eq(table.id, id)));
      const from: Record<string, unknown> = { nameFr: before.nameFr, nameEn: before.nameEn };
      if ('icon' in before) from.icon = before.icon;
      if ('organId' in before) from.organId = before.organId;
      await record(actorId, 'vocabulary.renamed', kind, id, ip, { from, to: changes });
      return { id };
    },

    /**
     * Puts the list (a surgery's steps with `surgeryId`) in the order of `ids`, in one
     * transaction under the list's lock. Refused (VOCABULARY_ORDER_STALE) unless `ids` names
     * exactly the list's current terms, retired ones included: someone added or deleted one meanwhile.
     */
    async reorder(actorId: string, kind: VocabularyKind, ids: readonly string[], ip: string, surgeryId?: string) {
      if (kind === 'steps') {
        const [surgery] = await db.select({ id: surgeries.id }).from(surgeries).where(eq(surgeries.id, surgeryId!));
        if (!surgery) throw notFound();
      }
      const table = sql.identifier(LISTS[kind].table);
      const scope = kind === 'steps' ? sql`where surgery_id = ${surgeryId}` : sql``;
      await db.transaction(async (tx) => {
        await lockList(tx, kind, surgeryId);
        const current = await tx.execute<{ id: string }>(sql`select id from ${table} ${scope} for update`);
        const known = new Set(current.rows.map((r) => r.id));
        if (new Set(ids).size !== ids.length || ids.length !== known.size || ids.some((i) => !known.has(i))) {
          throw new AppError('VOCABULARY_ORDER_STALE');
        }
        await tx.execute(sql`
          update ${table} t set position = o.position - 1
          from unnest(${`{${ids.join(',')}}`}::uuid[]) with ordinality as o(id, position)
          where t.id = o.id`);
      });
      await record(actorId, 'vocabulary.reordered', kind, surgeryId ?? null, ip, { ids });
      return { ids };
    },

    async retire(actorId: string, kind: VocabularyKind, id: string, ip: string) {
      const { changed } = await setRetired(kind, id, true);
      if (changed) await record(actorId, 'vocabulary.retired', kind, id, ip, {});
      return { id, retired: true };
    },

    async restore(actorId: string, kind: VocabularyKind, id: string, ip: string) {
      const { changed } = await setRetired(kind, id, false);
      if (changed) await record(actorId, 'vocabulary.restored', kind, id, ip, {});
      return { id, retired: false };
    },

    /**
     * Deletes a term nothing uses (a surgery with its steps, none of them in use); VOCABULARY_IN_USE
     * otherwise — retire it instead. The check and the deletion are one statement.
     */
    async remove(actorId: string, kind: VocabularyKind, id: string, ip: string) {
      const table = sql.identifier(LISTS[kind].table);
      const surgeryId = kind === 'steps' ? await surgeryOf(id) : undefined;
      const deleted = await db.transaction(async (tx) => {
        await lockList(tx, kind, surgeryId);
        const found = await tx.execute<{ id: string }>(sql`select id from ${table} where id = ${id} for update`);
        if (!found.rows.length) throw notFound();
        const result = await tx.execute<{ id: string; name_fr: string; name_en: string }>(
          sql`delete from ${table} t where t.id = ${id} and not ${IN_USE[kind](sql`t.id`)} returning t.id, t.name_fr, t.name_en`,
        );
        const row = result.rows[0];
        if (!row) throw new AppError('VOCABULARY_IN_USE');
        return row;
      });
      await record(actorId, 'vocabulary.deleted', kind, id, ip, {
        nameFr: deleted.name_fr,
        nameEn: deleted.name_en,
        ...(surgeryId ? { surgeryId } : {}),
      });
      return { id, deleted: true };
    },
  };
}
export type VocabularyAdmin = ReturnType<typeof createVocabularyAdmin>;
