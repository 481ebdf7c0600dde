import { and, count, eq, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { adminUserFilterSchema, type AdminCounts, type AdminUser, type AdminUserList, type UserState } from '@sutura/domain/admin';
import type { ListQuery } from '@sutura/domain/query';
import type { Role } from '@sutura/domain/roles';
import { zonedMonthKey, zonedMonthStart } from '@sutura/domain/time-zone';
import type { Db } from '../../db/client.ts';
import { users, videos } from '../../db/schema.ts';
import type { RequestUser } from '../../http/access.ts';
import { AppError } from '../../http/errors.ts';
import type { Audit } from '../audit/audit.service.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { RoleRooms } from '../notifications/notifications.service.ts';
import type { UserService } from '../users/users.service.ts';

type UserRow = typeof users.$inferSelect;

/** A search text as a LIKE pattern that matches it anywhere, its wildcards taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function stateOf(row: Pick<UserRow, 'deactivatedAt' | 'emailVerifiedAt'>): UserState {
  if (row.deactivatedAt) return 'deactivated';
  return row.emailVerifiedAt ? 'active' : 'unvalidated';
}

function toAdminUser(row: UserRow): AdminUser {
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    rpps: row.rpps,
    roles: row.roles as Role[],
    state: stateOf(row),
    emailVerifiedAt: row.emailVerifiedAt?.toISOString() ?? null,
    deactivatedAt: row.deactivatedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

const hasRole = (role: Role) => sql`${users.roles} @> array[${role}]::text[]`;
const isActive = isNull(users.deactivatedAt);

/**
 * The administration of people and the dashboard's counts (docs/admin.md). The route rules say
 * who may call; the service keeps the rules no route table can: nobody removes their own
 * administrator role or deactivates themself, and one active administrator always remains.
 */
export function createAdminService(deps: {
  db: Db;
  audit: Audit;
  auth: Pick<AuthService, 'revokeAll'>;
  users: Pick<UserService, 'resendVerificationFor'>;
  hub: RoleRooms;
  clock: () => Date;
  /** The installation's time zone: "this month" is a month of its clock. */
  timeZone: string;
}) {
  const { db, audit, clock, timeZone } = deps;

  async function byId(id: string): Promise<UserRow> {
    const [row] = await db.select().from(users).where(eq(users.id, id));
    if (!row) throw new AppError('NOT_FOUND');
    return row;
  }

  function filterConditions(filter: ListQuery['filter']): SQL | undefined {
    const parsed = adminUserFilterSchema.safeParse(filter);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const code = issue.message === 'TEXT_TOO_LONG' || issue.message === 'TEXT_INVALID_CHARACTERS' ? issue.message : 'INVALID_VALUE';
      throw new AppError(code, {}, [{ path: `filter.${issue.path.join('.') || 'q'}`, code }]);
    }
    const { q, role, state } = parsed.data;
    const conditions: SQL[] = [];
    if (q) {
      const like = containsPattern(q);
      conditions.push(
        sql`(${users.email} ilike ${like} or ${users.firstName} ilike ${like} or ${users.lastName} ilike ${like}
          or (${users.firstName} || ' ' || ${users.lastName}) ilike ${like}
          or (${users.lastName} || ' ' || ${users.firstName}) ilike ${like}
          or ${users.rpps} ilike ${like})`,
      );
    }
    if (role) conditions.push(hasRole(role));
    if (state === 'deactivated') conditions.push(isNotNull(users.deactivatedAt));
    if (state === 'active') conditions.push(isActive, isNotNull(users.emailVerifiedAt));
    if (state === 'unvalidated') conditions.push(isActive, isNull(users.emailVerifiedAt));
    return and(...conditions);
  }

  function order(sort: ListQuery['sort']): SQL[] {
    const columns = {
      createdAt: sql`${users.createdAt}`,
      lastName: sql`lower(${users.lastName})`,
      email: sql`${users.email}`,
    } as Record<string, SQL>;
    const out = sort.map(({ field, direction }) => sql`${columns[field]!} ${sql.raw(direction)}`);
    if (!out.length) out.push(sql`${users.createdAt} desc`);
    out.push(sql`${users.id} asc`);
    return out;
  }

  /** Locks the active administrators' rows, so that two changes at once cannot remove the last one. */
  async function otherActiveAdministrators(tx: Pick<Db, 'select'>, userId: string): Promise<number> {
    const rows = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(hasRole('administrator'), isActive))
      .for('update');
    return rows.filter((r) => r.id !== userId).length;
  }

  return {
    /**
     * The six numbers of SPEC §1, one count each, in one round trip (docs/admin.md). Uploaded this
     * month: the case files that arrived whole since the first of the month on the installation's
     * clock and were not refused (a file that is no video does not count). Waiting: nobody works on
     * the case — in the stage's pool, or held under a lease that ran out (the same rule as the
     * pools) — and, for preparation, the prepared video being rendered.
     */
    async counts(): Promise<AdminCounts> {
      const now = clock();
      const since = zonedMonthStart(now, timeZone);
      const active = sql`${users.deactivatedAt} is null`;
      const expired = sql`${videos.leaseEndsAt} <= ${now.toISOString()}`;
      const { rows } = await db.execute<Record<keyof AdminCounts, number>>(sql`
        select
          (select count(*)::int from ${users} where ${active}) as "users",
          (select count(*)::int from ${users} where ${active} and ${hasRole('editor')}) as "editors",
          (select count(*)::int from ${users} where ${active} and ${hasRole('expert')}) as "experts",
          (select count(*)::int from ${videos}
            where ${videos.receivedAt} >= ${since.toISOString()} and ${videos.receivedAt} <= ${now.toISOString()}
              and ${videos.purpose} = 'case'
              and (${videos.mediaStatus} in ('processing', 'ready')
                or (${videos.mediaStatus} = 'failed' and ${videos.failureReason} = 'MEDIA_PROCESSING_FAILED'))) as "uploadedThisMonth",
          (select count(*)::int from ${videos}
            where ${videos.purpose} = 'case' and (${videos.status} in ('pending_preparation', 'processing')
              or (${videos.status} = 'in_preparation' and ${expired}))) as "waitingPreparation",
          (select count(*)::int from ${videos}
            where ${videos.purpose} = 'case' and (${videos.status} = 'pending_analysis'
              or (${videos.status} = 'in_analysis' and ${expired}))) as "waitingAnalysis"
      `);
      const row = rows[0];
      return {
        users: row!.users,
        editors: row!.editors,
        experts: row!.experts,
        uploadedThisMonth: row!.uploadedThisMonth,
        waitingPreparation: row!.waitingPreparation,
        waitingAnalysis: row!.waitingAnalysis,
        month: zonedMonthKey(now, timeZone).slice(0, 7),
        timeZone,
      };
    },

    async listUsers(query: ListQuery): Promise<AdminUserList> {
      const where = filterConditions(query.filter);
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(users)
          .where(where)
          .orderBy(...order(query.sort))
          .limit(query.limit)
          .offset((query.page - 1) * query.limit),
        db.select({ n: count() }).from(users).where(where),
      ]);
      return { data: rows.map(toAdminUser), total: total?.n ?? 0, page: query.page, limit: query.limit };
    },

    /** Replaces the person's roles; a change that removes nothing and adds nothing writes nothing. */
    async setRoles(actor: RequestUser, userId: string, roles: Role[], ip: string): Promise<AdminUser> {
      const { before, after } = await db.transaction(async (tx) => {
        const [target] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
        if (!target) throw new AppError('NOT_FOUND');
        const was = target.roles as Role[];
        const same = was.length === roles.length && roles.every((r) => was.includes(r));
        if (same) return { before: was, after: target };
        const losesAdmin = was.includes('administrator') && !roles.includes('administrator');
        if (losesAdmin && userId === actor.id) throw new AppError('ADMIN_SELF');
        if (losesAdmin && !target.deactivatedAt && (await otherActiveAdministrators(tx, userId)) === 0)
          throw new AppError('LAST_ADMINISTRATOR');
        const [updated] = await tx.update(users).set({ roles, updatedAt: clock() }).where(eq(users.id, userId)).returning();
        return { before: was, after: updated! };
      });
      const changed = before.length !== roles.length || roles.some((r) => !before.includes(r));
      if (changed) {
        // Once committed: the person's open pages move to their new roles' live events and menus.
        await deps.hub.rolesChanged(userId, roles);
        await audit(actor.id, 'user.roles_changed', 'user', userId, ip, { from: before, to: roles });
      }
      return toAdminUser(after);
    },

    /**
     * Deactivating ends every session of the person and closes their sockets; they can no longer
     * sign in nor refresh. Reactivating lets them sign in again. Asking for the state the account
     * is already in changes nothing.
     */
    async setActive(actor: RequestUser, userId: string, active: boolean, ip: string): Promise<AdminUser> {
      const result = await db.transaction(async (tx) => {
        const [target] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
        if (!target) throw new AppError('NOT_FOUND');
        if (active === !target.deactivatedAt) return { row: target, changed: false };
        if (!active) {
          if (userId === actor.id) throw new AppError('ADMIN_SELF');
          if ((target.roles as Role[]).includes('administrator') && (await otherActiveAdministrators(tx, userId)) === 0)
            throw new AppError('LAST_ADMINISTRATOR');
        }
        const [updated] = await tx
          .update(users)
          .set({ deactivatedAt: active ? null : clock(), updatedAt: clock() })
          .where(eq(users.id, userId))
          .returning();
        return { row: updated!, changed: true };
      });
      if (result.changed) {
        if (!active) await deps.auth.revokeAll(userId);
        await audit(actor.id, active ? 'user.reactivated' : 'user.deactivated', 'user', userId, ip);
      }
      return toAdminUser(result.row);
    },

    async resendValidation(actor: RequestUser, userId: string, ip: string): Promise<void> {
      await byId(userId);
      await deps.users.resendVerificationFor(userId);
      await audit(actor.id, 'user.validation_resent', 'user', userId, ip);
    },
  };
}
export type AdminService = ReturnType<typeof createAdminService>;
