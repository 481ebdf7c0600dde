import { and, asc, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { csvLine } from '@sutura/domain/admin';
import { KPIS } from '@sutura/domain/analysis';
import type { Language } from '@sutura/domain/i18n';
import { DEFAULT_LEARNING_CURVE_SETTINGS, type LearningCurveSettings } from '@sutura/domain/learning-curves';
import {
  STATE_ORDER,
  trendOf,
  type Cohort,
  type CohortRow,
  type LearnerCase,
  type LearnerCurves,
  type MyProgrammes,
  type ProgrammeBody,
  type ProgrammeDetail,
  type ProgrammePerson,
  type ProgrammeSummary,
} from '@sutura/domain/programmes';
import { hasAnyRole, ADMIN_ROLES } from '@sutura/domain/roles';
import type { Db } from '../../db/client.ts';
import {
  analyses,
  learningCurveStale,
  programmeCurves,
  programmeDirectors,
  programmeMembers,
  programmes,
  specialties,
  surgeries,
  users,
  videos,
} from '../../db/schema.ts';
import type { RequestUser } from '../../http/access.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { Audit } from '../audit/audit.service.ts';
import { localName } from '../cases/names.ts';
import type { NotificationService } from '../notifications/notifications.service.ts';
import {
  curvesBySurgery,
  forgetMember,
  ratedCasesOf,
  rewriteProgramme,
  settingsOf,
  writeCurves,
  type CurveSignal,
  type ProgrammeRow,
} from './programmes.curves.ts';

const person = { id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email };
const fullName = (p: { firstName: string; lastName: string }) => `${p.firstName} ${p.lastName}`.trim();

/**
 * Training programmes (docs/learning-curves.md): the administrators' programmes of learners and
 * directors, the directors' cohort view and a learner's curves. Who may read what:
 * - administrators write, administrators and copil read every programme;
 * - a director reads their programmes and those programmes' present learners only;
 * - a learner reads the programmes they belong to, who directs them, and their own curves.
 * Anyone else gets 404, as for a programme that does not exist. Every read of a learner's data by
 * someone else than the learner is in the audit log.
 */
export function createProgrammeService(deps: {
  db: Db;
  audit: Audit;
  notifications: Pick<NotificationService, 'notify'>;
  clock: () => Date;
  timeZone: string;
  log?: { warn(obj: unknown, msg: string): void };
}) {
  const { db, audit, notifications, clock, timeZone } = deps;

  // ---- Reading programmes

  async function summaries(where: SQL | undefined, lang: Language): Promise<ProgrammeSummary[]> {
    const rows = await db
      .select({
        programme: programmes,
        specialtyFr: specialties.nameFr,
        specialtyEn: specialties.nameEn,
        memberCount: sql<number>`(SELECT count(*)::int FROM ${programmeMembers} m WHERE m.programme_id = ${programmes.id})`,
        directorCount: sql<number>`(SELECT count(*)::int FROM ${programmeDirectors} d WHERE d.programme_id = ${programmes.id})`,
      })
      .from(programmes)
      .leftJoin(specialties, eq(specialties.id, programmes.specialtyId))
      .where(where)
      .orderBy(asc(programmes.name), asc(programmes.id));
    return rows.map((r) => summaryOf(r.programme, r, lang));
  }

  function summaryOf(
    p: ProgrammeRow,
    extra: { specialtyFr: string | null; specialtyEn: string | null; memberCount: number; directorCount: number },
    lang: Language,
  ): ProgrammeSummary {
    return {
      id: p.id,
      name: p.name,
      specialty:
        p.specialtyId && extra.specialtyFr !== null && extra.specialtyEn !== null
          ? { id: p.specialtyId, name: localName({ nameFr: extra.specialtyFr, nameEn: extra.specialtyEn }, lang) }
          : null,
      startsOn: p.startsOn,
      endsOn: p.endsOn,
      settings: settingsOf(p),
      memberCount: extra.memberCount,
      directorCount: extra.directorCount,
    };
  }

  async function summary(programmeId: string, lang: Language): Promise<ProgrammeSummary> {
    const [found] = await summaries(eq(programmes.id, programmeId), lang);
    if (!found) throw notFound();
    return found;
  }

  async function peopleOf(table: typeof programmeMembers | typeof programmeDirectors, programmeId: string): Promise<ProgrammePerson[]> {
    return db
      .select(person)
      .from(table)
      .innerJoin(users, eq(users.id, table.userId))
      .where(eq(table.programmeId, programmeId))
      .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id));
  }

  const isAdmin = (viewer: RequestUser) => hasAnyRole(viewer.roles, ADMIN_ROLES);

  async function directs(viewer: RequestUser, programmeId: string): Promise<boolean> {
    const [row] = await db
      .select({ n: count() })
      .from(programmeDirectors)
      .where(and(eq(programmeDirectors.programmeId, programmeId), eq(programmeDirectors.userId, viewer.id)));
    return (row?.n ?? 0) > 0;
  }

  async function isMember(programmeId: string, userId: string): Promise<boolean> {
    const [row] = await db
      .select({ n: count() })
      .from(programmeMembers)
      .where(and(eq(programmeMembers.programmeId, programmeId), eq(programmeMembers.userId, userId)));
    return (row?.n ?? 0) > 0;
  }

  /** The programme's cohort may be read by its directors, administrators and copil; 404 for anyone else. */
  async function assertCohortReader(viewer: RequestUser, programmeId: string): Promise<void> {
    if (isAdmin(viewer)) return;
    if (!(await directs(viewer, programmeId))) throw notFound();
  }

  async function assertProgrammeExists(programmeId: string): Promise<ProgrammeRow> {
    const [row] = await db.select().from(programmes).where(eq(programmes.id, programmeId));
    if (!row) throw notFound();
    return row;
  }

  // ---- The read model

  /** Tells each director of the programme, in their language, once per signal. */
  async function tell(signals: CurveSignal[]): Promise<void> {
    for (const signal of signals) {
      const [about] = await db
        .select({
          programme: programmes.name,
          firstName: users.firstName,
          lastName: users.lastName,
          surgeryFr: surgeries.nameFr,
          surgeryEn: surgeries.nameEn,
        })
        .from(programmes)
        .innerJoin(users, eq(users.id, signal.learnerId))
        .innerJoin(surgeries, eq(surgeries.id, signal.surgeryId))
        .where(eq(programmes.id, signal.programmeId));
      if (!about) continue;
      const directors = await db
        .select({ userId: programmeDirectors.userId })
        .from(programmeDirectors)
        .where(eq(programmeDirectors.programmeId, signal.programmeId));
      for (const d of directors) {
        await notifications.notify(
          d.userId,
          signal.kind === 'proficient' ? 'learnerProficient' : 'learnerRelapsed',
          {
            learner: fullName(about),
            programme: about.programme,
            procedure: { fr: about.surgeryFr.toLocaleLowerCase('fr'), en: about.surgeryEn.toLocaleLowerCase('en') },
            case: signal.at,
          },
          `/programmes/${signal.programmeId}/learners/${signal.learnerId}`,
        );
      }
    }
  }

  /**
   * Brings the read model up to date for the stale learners among `learnerIds` (all stale learners
   * of a programme with `programmeId`): their rows are written again in one transaction that takes
   * them off the list, and the directors are told of new signals once it is committed.
   */
  async function refresh(target: { learnerIds: string[] } | { programmeId: string }): Promise<void> {
    const signals = await db.transaction(async (tx) => {
      const taken =
        'learnerIds' in target
          ? target.learnerIds.length === 0
            ? []
            : await tx
                .delete(learningCurveStale)
                .where(inArray(learningCurveStale.learnerId, target.learnerIds))
                .returning({ learnerId: learningCurveStale.learnerId })
          : (
              await tx.execute<{ learner_id: string }>(sql`
                DELETE FROM learning_curve_stale s USING programme_members m
                WHERE m.programme_id = ${target.programmeId} AND m.user_id = s.learner_id
                RETURNING s.learner_id`)
            ).rows.map((r) => ({ learnerId: r.learner_id }));
      const found: CurveSignal[] = [];
      for (const { learnerId } of taken) found.push(...(await writeCurves(tx, learnerId, { timeZone, notify: true, at: clock() })));
      return found;
    });
    await tell(signals);
  }

  // ---- The cohort

  async function cohortRows(programmeId: string, lang: Language): Promise<{ learners: ProgrammePerson[]; rows: CohortRow[] }> {
    const [learners, rows] = await Promise.all([
      peopleOf(programmeMembers, programmeId),
      db
        .select({
          curve: programmeCurves,
          surgeryFr: surgeries.nameFr,
          surgeryEn: surgeries.nameEn,
        })
        .from(programmeCurves)
        .innerJoin(surgeries, eq(surgeries.id, programmeCurves.surgeryId))
        // Only present members: a row left by a race with a removal is never shown.
        .innerJoin(
          programmeMembers,
          and(eq(programmeMembers.programmeId, programmeCurves.programmeId), eq(programmeMembers.userId, programmeCurves.learnerId)),
        )
        .where(eq(programmeCurves.programmeId, programmeId)),
    ]);
    const order = new Map(learners.map((l, i) => [l.id, i]));
    return {
      learners,
      rows: rows
        .map(({ curve: c, surgeryFr, surgeryEn }) => ({
          learnerId: c.learnerId,
          surgery: { id: c.surgeryId, name: localName({ nameFr: surgeryFr, nameEn: surgeryEn }, lang) },
          cases: c.cases,
          judged: c.judged,
          failures: c.failures,
          state: c.state as CohortRow['state'],
          proficientAt: c.proficientAt,
          relapseAt: c.relapseAt,
          unacceptableAt: c.unacceptableAt,
          latestRating: c.latestRating,
          latestAverage: c.latestAverage,
          trend: trendOf(c.trend),
          trendDelta: c.trend,
          lastCaseOn: c.lastCaseOn,
        }))
        .sort(
          (a, b) =>
            (order.get(a.learnerId) ?? 0) - (order.get(b.learnerId) ?? 0) ||
            STATE_ORDER[a.state] - STATE_ORDER[b.state] ||
            a.surgery.name.localeCompare(b.surgery.name, lang),
        ),
    };
  }

  // ---- A learner's curves

  async function learnerCases(learnerId: string, lang: Language): Promise<LearnerCase[]> {
    const rows = await db
      .select({
        videoId: videos.id,
        surgeryId: videos.surgeryId,
        surgeryFr: surgeries.nameFr,
        surgeryEn: surgeries.nameEn,
        operatedOn: videos.operatedOn,
        sentAt: videos.sentAt,
        round: analyses.round,
        advice: analyses.advice,
        expertFirst: users.firstName,
        expertLast: users.lastName,
      })
      .from(videos)
      .innerJoin(analyses, and(eq(analyses.videoId, videos.id), eq(analyses.status, 'submitted')))
      .leftJoin(surgeries, eq(surgeries.id, videos.surgeryId))
      .leftJoin(users, eq(users.id, analyses.expertId))
      .where(and(eq(videos.authorId, learnerId), eq(videos.purpose, 'case'), sql`${videos.ratingsReleasedAt} IS NOT NULL`))
      .orderBy(asc(videos.id), asc(analyses.round));
    const rated = new Map((await ratedCasesOf(db, learnerId)).map((c) => [c.videoId, c]));
    const byCase = new Map<string, LearnerCase>();
    for (const r of rows) {
      const c =
        byCase.get(r.videoId) ??
        ({
          videoId: r.videoId,
          surgery:
            r.surgeryId && r.surgeryFr !== null && r.surgeryEn !== null
              ? { id: r.surgeryId, name: localName({ nameFr: r.surgeryFr, nameEn: r.surgeryEn }, lang) }
              : null,
          operatedOn: r.operatedOn,
          sentAt: r.sentAt?.toISOString() ?? null,
          reviews: 0,
          globalRating: rated.get(r.videoId)?.globalRating ?? null,
          goalsTotal: goalsTotalOf(rated.get(r.videoId)?.kpis ?? null),
          advice: [],
        } satisfies LearnerCase);
      c.reviews += 1;
      if (r.advice.trim())
        c.advice.push({
          round: r.round,
          expert: fullName({ firstName: r.expertFirst ?? '', lastName: r.expertLast ?? '' }),
          text: r.advice,
        });
      byCase.set(r.videoId, c);
    }
    // Newest operation (or sending) first, as a list of cases reads.
    return [...byCase.values()].sort((a, b) => ((b.operatedOn ?? b.sentAt ?? '') < (a.operatedOn ?? a.sentAt ?? '') ? -1 : 1));
  }

  async function curvesOf(learner: ProgrammePerson, settings: LearningCurveSettings, programme: ProgrammeSummary | null, lang: Language) {
    const cases = await ratedCasesOf(db, learner.id);
    const curves = curvesBySurgery(cases, settings, timeZone);
    const ids = [...curves.keys()];
    const names = ids.length
      ? await db
          .select({ id: surgeries.id, nameFr: surgeries.nameFr, nameEn: surgeries.nameEn })
          .from(surgeries)
          .where(inArray(surgeries.id, ids))
      : [];
    const nameOf = new Map(names.map((n) => [n.id, localName(n, lang)]));
    return {
      programme,
      learner,
      settings,
      curves: [...curves]
        .map(([id, curve]) => ({ surgery: { id, name: nameOf.get(id) ?? '' }, curve }))
        .sort((a, b) => a.surgery.name.localeCompare(b.surgery.name, lang)),
      cases: await learnerCases(learner.id, lang),
    } satisfies LearnerCurves;
  }

  async function personOf(userId: string): Promise<ProgrammePerson> {
    const [row] = await db.select(person).from(users).where(eq(users.id, userId));
    if (!row) throw notFound();
    return row;
  }

  /** A learner that can be added: an existing, active account with the learner role. */
  async function assertPerson(userId: string, learner: boolean): Promise<void> {
    const [row] = await db.select({ roles: users.roles, deactivatedAt: users.deactivatedAt }).from(users).where(eq(users.id, userId));
    if (!row || row.deactivatedAt) throw new AppError('PROGRAMME_PERSON_NOT_FOUND');
    if (learner && !row.roles.includes('learner')) throw new AppError('PROGRAMME_MEMBER_NOT_LEARNER');
  }

  const valuesOf = (body: ProgrammeBody) => {
    const s = body.settings ?? DEFAULT_LEARNING_CURVE_SETTINGS;
    return {
      name: body.name.trim(),
      specialtyId: body.specialtyId ?? null,
      startsOn: body.startsOn ?? null,
      endsOn: body.endsOn ?? null,
      p0: s.p0,
      p1: s.p1,
      alpha: s.alpha,
      beta: s.beta,
      failureRule: s.failureRule,
    };
  };

  async function assertSpecialty(specialtyId: string | null): Promise<void> {
    if (!specialtyId) return;
    const [row] = await db.select({ id: specialties.id }).from(specialties).where(eq(specialties.id, specialtyId));
    if (!row) throw new AppError('VALIDATION', {}, [{ path: 'specialtyId', code: 'INVALID_VALUE' }]);
  }

  return {
    refresh,

    /** After a case's ratings reached its learner (or changed): their curves, and the directors told. Never throws. */
    learnerChanged(learnerId: string): void {
      refresh({ learnerIds: [learnerId] }).catch((err: unknown) => deps.log?.warn({ err }, 'learning curves not refreshed'));
    },

    // ---- Administration

    async list(lang: Language): Promise<ProgrammeSummary[]> {
      return summaries(undefined, lang);
    },

    async detail(programmeId: string, lang: Language): Promise<ProgrammeDetail> {
      const found = await summary(programmeId, lang);
      const [members, directors] = await Promise.all([peopleOf(programmeMembers, programmeId), peopleOf(programmeDirectors, programmeId)]);
      return { ...found, members, directors };
    },

    async create(viewer: RequestUser, body: ProgrammeBody, ip: string, lang: Language): Promise<ProgrammeDetail> {
      await assertSpecialty(body.specialtyId ?? null);
      const [row] = await db
        .insert(programmes)
        .values({ ...valuesOf(body), createdAt: clock(), updatedAt: clock() })
        .returning({ id: programmes.id });
      await audit(viewer.id, 'programme.created', 'programme', row!.id, ip, { name: body.name.trim() });
      return this.detail(row!.id, lang);
    },

    async update(viewer: RequestUser, programmeId: string, body: ProgrammeBody, ip: string, lang: Language): Promise<ProgrammeDetail> {
      const before = await assertProgrammeExists(programmeId);
      await assertSpecialty(body.specialtyId ?? null);
      const values = valuesOf(body);
      const settingsChanged = JSON.stringify(settingsOf(before)) !== JSON.stringify(settingsOf({ ...before, ...values }));
      await db.transaction(async (tx) => {
        await tx
          .update(programmes)
          .set({ ...values, updatedAt: clock() })
          .where(eq(programmes.id, programmeId));
        if (settingsChanged) await rewriteProgramme(tx, programmeId, { timeZone, at: clock() });
      });
      await audit(viewer.id, 'programme.updated', 'programme', programmeId, ip, { fields: Object.keys(body), settingsChanged });
      return this.detail(programmeId, lang);
    },

    async remove(viewer: RequestUser, programmeId: string, ip: string): Promise<void> {
      const [row] = await db.delete(programmes).where(eq(programmes.id, programmeId)).returning({ name: programmes.name });
      if (!row) throw notFound();
      await audit(viewer.id, 'programme.deleted', 'programme', programmeId, ip, { name: row.name });
    },

    async addMember(viewer: RequestUser, programmeId: string, userId: string, ip: string, lang: Language): Promise<ProgrammeDetail> {
      await assertProgrammeExists(programmeId);
      await assertPerson(userId, true);
      const added = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(programmeMembers)
          .values({ programmeId, userId, addedAt: clock() })
          .onConflictDoNothing()
          .returning({ userId: programmeMembers.userId });
        // The learner's curves as they stand: nothing new happened to them, the directors are not told.
        if (row) await writeCurves(tx, userId, { timeZone, notify: false, programmeId, at: clock() });
        return Boolean(row);
      });
      if (added) await audit(viewer.id, 'programme.member_added', 'programme', programmeId, ip, { userId });
      return this.detail(programmeId, lang);
    },

    /** The learner leaves the programme: its directors lose access at once, and the read model forgets them. */
    async removeMember(viewer: RequestUser, programmeId: string, userId: string, ip: string, lang: Language): Promise<ProgrammeDetail> {
      await assertProgrammeExists(programmeId);
      const removed = await db.transaction(async (tx) => {
        const rows = await tx
          .delete(programmeMembers)
          .where(and(eq(programmeMembers.programmeId, programmeId), eq(programmeMembers.userId, userId)))
          .returning({ userId: programmeMembers.userId });
        await forgetMember(tx, programmeId, [userId]);
        return rows.length > 0;
      });
      if (!removed) throw notFound();
      await audit(viewer.id, 'programme.member_removed', 'programme', programmeId, ip, { userId });
      return this.detail(programmeId, lang);
    },

    async addDirector(viewer: RequestUser, programmeId: string, userId: string, ip: string, lang: Language): Promise<ProgrammeDetail> {
      await assertProgrammeExists(programmeId);
      await assertPerson(userId, false);
      const [row] = await db
        .insert(programmeDirectors)
        .values({ programmeId, userId, addedAt: clock() })
        .onConflictDoNothing()
        .returning({ userId: programmeDirectors.userId });
      if (row) await audit(viewer.id, 'programme.director_added', 'programme', programmeId, ip, { userId });
      return this.detail(programmeId, lang);
    },

    async removeDirector(viewer: RequestUser, programmeId: string, userId: string, ip: string, lang: Language): Promise<ProgrammeDetail> {
      await assertProgrammeExists(programmeId);
      const rows = await db
        .delete(programmeDirectors)
        .where(and(eq(programmeDirectors.programmeId, programmeId), eq(programmeDirectors.userId, userId)))
        .returning({ userId: programmeDirectors.userId });
      if (rows.length === 0) throw notFound();
      await audit(viewer.id, 'programme.director_removed', 'programme', programmeId, ip, { userId });
      return this.detail(programmeId, lang);
    },

    // ---- Directors and learners

    /** The programmes the caller directs, and those they are a learner of with their directors. */
    async mine(viewer: RequestUser, lang: Language): Promise<MyProgrammes> {
      const [directed, memberOf] = await Promise.all([
        summaries(sql`${programmes.id} IN (SELECT programme_id FROM ${programmeDirectors} WHERE user_id = ${viewer.id})`, lang),
        summaries(sql`${programmes.id} IN (SELECT programme_id FROM ${programmeMembers} WHERE user_id = ${viewer.id})`, lang),
      ]);
      return {
        directed,
        memberOf: await Promise.all(memberOf.map(async (p) => ({ ...p, directors: await peopleOf(programmeDirectors, p.id) }))),
      };
    },

    async cohort(viewer: RequestUser, programmeId: string, ip: string, lang: Language): Promise<Cohort> {
      await assertCohortReader(viewer, programmeId);
      await refresh({ programmeId });
      const programme = await summary(programmeId, lang);
      const { learners, rows } = await cohortRows(programmeId, lang);
      await audit(viewer.id, 'programme.cohort_viewed', 'programme', programmeId, ip, { learners: learners.map((l) => l.id) });
      return { programme, learners, rows };
    },

    /** The cohort as CSV: one line per learner and procedure (a learner without analysed cases has one line too). */
    async cohortCsv(viewer: RequestUser, programmeId: string, ip: string, lang: Language): Promise<{ name: string; body: string }> {
      await assertCohortReader(viewer, programmeId);
      await refresh({ programmeId });
      const programme = await summary(programmeId, lang);
      const { learners, rows } = await cohortRows(programmeId, lang);
      await audit(viewer.id, 'programme.cohort_exported', 'programme', programmeId, ip, { learners: learners.map((l) => l.id) });
      const fr = lang === 'fr';
      const separator = fr ? ';' : ',';
      const number = (n: number | null, digits: number) => (n === null ? '' : fr ? n.toFixed(digits).replace('.', ',') : n.toFixed(digits));
      const stateWords = fr
        ? { learning: 'en apprentissage', proficient: 'maîtrise', relapse: 'rechute', unacceptable: 'taux d’échec inacceptable' }
        : { learning: 'learning', proficient: 'proficient', relapse: 'relapse', unacceptable: 'unacceptable failure rate' };
      const trendWords = fr
        ? { up: 'en progrès', steady: 'stable', down: 'en baisse' }
        : { up: 'improving', steady: 'steady', down: 'declining' };
      const headers = fr
        ? [
            'Nom',
            'Prénom',
            'E-mail',
            'Procédure',
            'Cas analysés',
            'Échecs',
            'Dernière note globale',
            'Moyenne des 5 derniers',
            'Tendance',
            'État',
            'Maîtrise au cas',
            'Rechute au cas',
            'Dernier cas',
          ]
        : [
            'Last name',
            'First name',
            'Email',
            'Procedure',
            'Cases analysed',
            'Failures',
            'Latest global rating',
            'Average of the last 5',
            'Trend',
            'State',
            'Proficient at case',
            'Relapse at case',
            'Latest case',
          ];
      let body = `\uFEFF${csvLine(headers, separator)}`;
      for (const l of learners) {
        const own = rows.filter((r) => r.learnerId === l.id);
        if (own.length === 0)
          body += csvLine([l.lastName, l.firstName, l.email, '', 0, 0, '', '', '', stateWords.learning, '', '', ''], separator);
        for (const r of own) {
          body += csvLine(
            [
              l.lastName,
              l.firstName,
              l.email,
              r.surgery.name,
              r.cases,
              r.failures,
              number(r.latestRating, 1),
              number(r.latestAverage, 2),
              r.trend ? trendWords[r.trend] : '',
              stateWords[r.state],
              r.proficientAt ?? '',
              r.relapseAt ?? '',
              r.lastCaseOn ?? '',
            ],
            separator,
          );
        }
      }
      // A header carries Latin-1 only: the name's letters without their accents, the rest as dashes.
      const safe =
        programme.name
          .normalize('NFD')
          .replace(/[\u0300-\u036f]/g, '')
          .replace(/[^A-Za-z0-9]+/g, '-')
          .replace(/^-|-$/g, '')
          .toLowerCase() || 'programme';
      return { name: `sutura-cohort-${safe}-${clock().toISOString().slice(0, 10)}.csv`, body };
    },

    /**
     * A learner's curves under the programme's settings, their analysed cases and the experts' advice:
     * for the programme's directors, administrators and copil while the learner is a member, and for
     * the learner themself. Every read by someone else is audited.
     */
    async learner(viewer: RequestUser, programmeId: string, learnerId: string, ip: string, lang: Language): Promise<LearnerCurves> {
      const self = viewer.id === learnerId;
      if (!self) await assertCohortReader(viewer, programmeId);
      if (!(await isMember(programmeId, learnerId))) throw notFound();
      const programme = await summary(programmeId, lang);
      const answer = await curvesOf(await personOf(learnerId), programme.settings, programme, lang);
      if (!self) await audit(viewer.id, 'programme.learner_viewed', 'user', learnerId, ip, { programmeId });
      return answer;
    },

    /** The learner's own curves: under the settings of one of their programmes when given, else the defaults. */
    async own(viewer: RequestUser, programmeId: string | undefined, lang: Language): Promise<LearnerCurves> {
      let programme: ProgrammeSummary | null = null;
      if (programmeId) {
        if (!(await isMember(programmeId, viewer.id))) throw notFound();
        programme = await summary(programmeId, lang);
      }
      return curvesOf(await personOf(viewer.id), programme?.settings ?? DEFAULT_LEARNING_CURVE_SETTINGS, programme, lang);
    },
  };
}
export type ProgrammeService = ReturnType<typeof createProgrammeService>;

function goalsTotalOf(kpis: Readonly<Record<string, number | null | undefined>> | null): number | null {
  if (!kpis) return null;
  const values = KPIS.map((k) => kpis[k]);
  return values.every((v) => typeof v === 'number') ? (values as number[]).reduce((a, b) => a + b, 0) : null;
}
