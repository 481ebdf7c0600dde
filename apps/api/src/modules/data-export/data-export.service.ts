import { and, asc, desc, eq, inArray, isNotNull, like, lt, or, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { DATA_EXPORT_VALID_DAYS, type DataExport } from '@sutura/domain/data-export';
import { isLanguage, type Language } from '@sutura/domain/i18n';
import type { Role } from '@sutura/domain/roles';
import type { Db } from '../../db/client.ts';
import {
  analyses,
  analysisComments,
  auditLog,
  bestCases,
  dataExports,
  knownDevices,
  media,
  sessions,
  surgeries,
  users,
  videos,
} from '../../db/schema.ts';
import type { RequestUser } from '../../http/access.ts';
import { AppError } from '../../http/errors.ts';
import type { Queue } from '../../jobs/queue.ts';
import type { Storage } from '../../storage/storage.ts';
import type { AnalysisService } from '../analysis/analysis.service.ts';
import { renderAnalysisReport } from '../analysis/analysis.report.ts';
import type { FrameGrabber } from '../analysis/annotated-frames.ts';
import type { Audit } from '../audit/audit.service.ts';
import { localName } from '../cases/names.ts';
import type { MediaService } from '../media/media.service.ts';
import type { NotificationService } from '../notifications/notifications.service.ts';
import type { SelfAssessmentService } from '../self-assessment/self-assessment.service.ts';
import type { SelfVsExpertStats } from '../self-assessment/self-assessment.stats.ts';
import type { SsoService } from '../sso/sso.service.ts';
import type { StatsService } from '../stats/stats.service.ts';
import type { UserService } from '../users/users.service.ts';
import type { VideoService } from '../videos/videos.service.ts';
import { exportReadme } from './readme.ts';
import { zipStream, type ZipEntry } from './zip-stream.ts';

/** The media of a case that go into its author's export; posters and storyboards are made again from the videos. */
const CASE_FILE_KINDS = ['video', 'prepared-video', 'picture', 'voice'] as const;
const PAGE = 100;
const DAY_MS = 24 * 3600 * 1000;

const EXTENSIONS: Record<string, string> = {
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
  'video/webm': 'webm',
  'image/webp': 'webp',
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'audio/mp4': 'm4a',
  'audio/mpeg': 'mp3',
  'application/pdf': 'pdf',
};

type ExportRow = typeof dataExports.$inferSelect;
type MediaRow = typeof media.$inferSelect;

/** The key of a person's export ZIP: under their prefix, so that deleting their account removes it. */
export const exportKey = (userId: string, exportId: string) => `users/${userId}/exports/${exportId}.zip`;

/**
 * Replaces every signed media URL (`/v1/media/<id>?…`) in a value the API answers by the path of
 * that file in the export, or null when the file is not in it: a URL would stop working within
 * minutes, the file in the archive does not.
 */
export function withExportPaths(value: unknown, paths: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') {
    const match = /^\/v1\/media\/([0-9a-f-]{36})\?/.exec(value);
    return match ? (paths.get(match[1]!) ?? null) : value;
  }
  if (Array.isArray(value)) return value.map((v) => withExportPaths(v, paths));
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withExportPaths(v, paths)]));
  }
  return value;
}

const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`, 'utf8');

export function createDataExportService(deps: {
  db: Db;
  storage: Storage;
  queue: Queue;
  audit: Audit;
  clock: () => Date;
  log: Logger;
  publicUrl: string;
  mediaService: MediaService;
  users: Pick<UserService, 'byId' | 'toProfile'>;
  videos: Pick<VideoService, 'list' | 'detail'>;
  analysis: Pick<AnalysisService, 'resultIfReady' | 'reportData'>;
  frames: FrameGrabber;
  selfAssessment: Pick<SelfAssessmentService, 'get'>;
  selfVsExpert: SelfVsExpertStats;
  stats: Pick<StatsService, 'learner' | 'nasaTlx' | 'stepTimes'>;
  notifications: Pick<NotificationService, 'list'>;
  sso: Pick<SsoService, 'identities'>;
}) {
  const { db, storage, queue, clock } = deps;

  function view(row: ExportRow, viewerId: string): DataExport {
    const ready = row.status === 'ready' && row.mediaId !== null && row.expiresAt !== null && row.expiresAt > clock();
    return {
      id: row.id,
      status: row.status === 'ready' && !ready ? 'expired' : (row.status as DataExport['status']),
      filesDone: row.filesDone,
      filesTotal: row.filesTotal,
      bytesDone: row.bytesDone,
      bytesTotal: row.bytesTotal,
      size: row.size,
      createdAt: row.createdAt.toISOString(),
      finishedAt: row.finishedAt?.toISOString() ?? null,
      expiresAt: row.expiresAt?.toISOString() ?? null,
      downloadUrl: ready ? deps.mediaService.urlFor(row.mediaId, viewerId) : null,
    };
  }

  /** The person as the services see them when they call: their roles and language, no session. */
  async function asCaller(userId: string): Promise<{ viewer: RequestUser; row: typeof users.$inferSelect }> {
    const row = await deps.users.byId(userId);
    return {
      row,
      viewer: {
        id: row.id,
        sessionId: '00000000-0000-0000-0000-000000000000',
        roles: row.roles as Role[],
        preferences: row.preferences,
        appLanguage: isLanguage(row.appLanguage) ? row.appLanguage : null,
        sessionEndsAt: new Date(clock().getTime() + DAY_MS),
      },
    };
  }

  /** Every page of a paged answer. */
  async function allPages<T>(page: (n: number) => Promise<{ data: T[]; total: number }>): Promise<T[]> {
    const out: T[] = [];
    for (let n = 1; ; n++) {
      const { data, total } = await page(n);
      out.push(...data);
      if (data.length === 0 || out.length >= total) return out;
    }
  }

  /** A service's answer, or null where the API would refuse (not yet released, not theirs to read). */
  async function orNull<T>(work: () => Promise<T>): Promise<T | null> {
    try {
      return await work();
    } catch (err) {
      if (err instanceof AppError && err.status < 500) return null;
      throw err;
    }
  }

  /** The JSON files of the export, as the API answers the person, and the files to stream after them. */
  async function collect(exportRow: ExportRow) {
    const lang: Language = isLanguage(exportRow.lang) ? exportRow.lang : 'fr';
    const { viewer, row: user } = await asCaller(exportRow.userId);
    const learner = viewer.roles.includes('learner');
    const caseRows = await db
      .select()
      .from(videos)
      .where(and(eq(videos.authorId, user.id), eq(videos.purpose, 'case')))
      .orderBy(asc(videos.createdAt));
    const caseIds = caseRows.map((c) => c.id);

    // Files: the media of their cases, their avatar, and each case's source upload kept aside.
    const fileRows: MediaRow[] = caseIds.length
      ? await db
          .select()
          .from(media)
          .where(and(inArray(media.videoId, caseIds), inArray(media.kind, [...CASE_FILE_KINDS])))
          .orderBy(asc(media.createdAt))
      : [];
    if (user.avatarMediaId) fileRows.push(...(await db.select().from(media).where(eq(media.id, user.avatarMediaId))));
    const paths = new Map<string, string>();
    const files: { path: string; key: string; size: number; modifiedAt: Date }[] = [];
    for (const row of fileRows) {
      const ext = EXTENSIONS[row.contentType] ?? 'bin';
      const caseRow = caseRows.find((c) => c.id === row.videoId);
      // The media id in every name: what the JSON files say of a file (its id) finds it here.
      const role =
        row.kind === 'avatar'
          ? 'avatar'
          : caseRow && (row.id === caseRow.sourceMediaId || (row.kind === 'video' && !caseRow.sourceMediaId))
            ? 'source'
            : row.kind;
      const name = row.kind === 'avatar' ? `files/avatar-${row.id}.${ext}` : `files/cases/${row.videoId}/${role}-${row.id}.${ext}`;
      paths.set(row.id, name);
      files.push({ path: name, key: row.storageKey, size: row.size, modifiedAt: row.createdAt });
    }
    const known = new Set(fileRows.map((r) => r.storageKey));
    for (const c of caseRows) {
      // The upload as received, where it is kept beside what was made of it.
      if (!c.sourceKey || known.has(c.sourceKey)) continue;
      const size = await storage.size(c.sourceKey);
      if (size !== undefined) files.push({ path: `files/cases/${c.id}/original-upload`, key: c.sourceKey, size, modifiedAt: c.createdAt });
    }

    const entries: { name: string; body: Buffer }[] = [];
    const add = (name: string, value: unknown) => entries.push({ name, body: json(withExportPaths(value, paths)) });

    // A file a row names but the store lost is listed in missing-files.json, not fatal to the copy.
    const missing: string[] = [];
    for (const f of [...files]) {
      if ((await storage.size(f.key)) !== undefined) continue;
      missing.push(f.path);
      files.splice(files.indexOf(f), 1);
    }

    add('profile.json', await deps.users.toProfile(user, lang));
    const cases = [];
    for (const id of caseIds) {
      const detail = await orNull(() => deps.videos.detail(viewer, id, lang));
      if (detail) cases.push(detail);
    }
    add('cases.json', cases);

    const results = [];
    // Rendered when its turn comes in the ZIP: one report in memory at a time, whatever the cases.
    const reports: { name: string; render: () => Promise<Buffer> }[] = [];
    for (const id of caseIds) {
      // The result the author can see now, by the rule of every surface (released and answered).
      const result = await orNull(() => deps.analysis.resultIfReady(viewer, id, lang));
      if (!result) continue;
      results.push({ caseId: id, result });
      reports.push({
        name: `files/cases/${id}/report.pdf`,
        render: async () => {
          // As GET /v1/videos/{id}/analysis/report makes it: each drawing over its frame.
          const data = await deps.analysis.reportData(viewer, id, lang);
          const comments = [...data.result.comments, ...data.result.reviews.flatMap((r) => r.comments)];
          const times = comments.flatMap((c) => (c.drawing ? [c.drawing.time] : []));
          const frames = await deps.frames.frames(data.video.videoMediaId, times);
          return renderAnalysisReport({ ...data, frames }, lang);
        },
      });
    }
    add('analyses-received.json', results);

    if (learner) {
      const assessments = [];
      for (const id of caseIds) {
        const assessment = await orNull(() => deps.selfAssessment.get(viewer, id));
        if (assessment) assessments.push({ caseId: id, selfAssessment: assessment });
      }
      add('self-assessments.json', assessments);
      add('nasa-tlx.json', await deps.stats.nasaTlx(viewer, 'all'));
      add('statistics.json', {
        ratings: await deps.stats.learner(viewer, 'all'),
        stepTimes: await deps.stats.stepTimes(viewer, undefined, lang),
        selfAssessment: await deps.selfVsExpert.learner(viewer),
      });
    }
    add('notifications.json', await allPages((n) => deps.notifications.list(user.id, lang, n, PAGE)));

    const consents = await db
      .select({ caseId: bestCases.videoId, consent: bestCases.consent, consentAt: bestCases.consentAt, published: bestCases.published })
      .from(bestCases)
      .where(caseIds.length ? inArray(bestCases.videoId, caseIds) : sql`false`);
    add('consents.json', {
      termsAndPrivacyAcceptedAt: user.termsAcceptedAt?.toISOString() ?? null,
      bestCases: consents.map((c) => ({ ...c, consentAt: c.consentAt?.toISOString() ?? null })),
    });

    const sessionRows = await db
      .select({
        createdAt: sessions.createdAt,
        lastSeenAt: sessions.lastSeenAt,
        expiresAt: sessions.expiresAt,
        revokedAt: sessions.revokedAt,
        device: sessions.device,
        ip: sessions.ip,
        provider: sessions.ssoProvider,
      })
      .from(sessions)
      .where(eq(sessions.userId, user.id))
      .orderBy(desc(sessions.createdAt));
    const devices = await db.select({ firstSeenAt: knownDevices.firstSeenAt }).from(knownDevices).where(eq(knownDevices.userId, user.id));
    const signIns = await db
      .select({ action: auditLog.action, ip: auditLog.ip, at: auditLog.createdAt })
      .from(auditLog)
      .where(and(eq(auditLog.actorId, user.id), like(auditLog.action, 'auth.%')))
      .orderBy(desc(auditLog.createdAt));
    add('sign-in-history.json', { sessions: sessionRows, knownDevices: devices, signIns });
    add('linked-identities.json', await deps.sso.identities(user.id));

    if (viewer.roles.includes('expert')) {
      const written = await analysesWrittenBy(user.id, lang);
      // Their own voice advice goes with what they wrote: it names no learner.
      const voiceIds = written.flatMap((w) => (w.voiceMediaId ? [w.voiceMediaId] : []));
      const voices = voiceIds.length ? await db.select().from(media).where(inArray(media.id, voiceIds)) : [];
      for (const v of voices) {
        const name = `files/analyses-written/voice-${v.id}.${EXTENSIONS[v.contentType] ?? 'bin'}`;
        files.push({ path: name, key: v.storageKey, size: v.size, modifiedAt: v.createdAt });
        paths.set(v.id, name);
      }
      add(
        'analyses-written.json',
        written.map(({ voiceMediaId, ...w }) => ({ ...w, voiceAdvice: voiceMediaId ? (paths.get(voiceMediaId) ?? null) : null })),
      );
    }

    if (missing.length) {
      deps.log.warn({ exportId: exportRow.id, missing: missing.length }, 'export: files named by rows are missing from the store');
      entries.push({ name: 'missing-files.json', body: json(missing) });
    }
    return { user, lang, entries, reports, files };
  }

  /** An expert's submitted analyses: what they wrote and rated, nothing of the learner (no author, no names). */
  async function analysesWrittenBy(expertId: string, lang: Language) {
    const rows = await db
      .select({ analysis: analyses, surgery: surgeries })
      .from(analyses)
      .innerJoin(videos, eq(videos.id, analyses.videoId))
      .leftJoin(surgeries, eq(surgeries.id, videos.surgeryId))
      .where(and(eq(analyses.expertId, expertId), isNotNull(analyses.submittedAt)))
      .orderBy(asc(analyses.submittedAt));
    const out = [];
    for (const { analysis: a, surgery } of rows) {
      const comments = await db
        .select({
          start: analysisComments.start,
          end: analysisComments.end,
          text: analysisComments.text,
          drawing: analysisComments.drawing,
        })
        .from(analysisComments)
        .where(and(eq(analysisComments.videoId, a.videoId), eq(analysisComments.round, a.round)))
        .orderBy(asc(analysisComments.start));
      out.push({
        caseId: a.videoId,
        round: a.round,
        surgery: surgery ? localName(surgery, lang) : null,
        globalRating: a.globalRating,
        kpiRatings: a.kpiRatings,
        stepRatings: a.stepRatings,
        assessment: a.assessment,
        advice: a.advice,
        voiceMediaId: a.voiceMediaId,
        submittedAt: a.submittedAt!.toISOString(),
        comments,
      });
    }
    return out;
  }

  async function updateProgress(id: string, set: Partial<ExportRow>): Promise<void> {
    await db.update(dataExports).set(set).where(eq(dataExports.id, id));
  }

  return {
    /** The person's latest export, with a download URL while it is ready. */
    async latest(viewer: RequestUser): Promise<DataExport | null> {
      const [row] = await db
        .select()
        .from(dataExports)
        .where(eq(dataExports.userId, viewer.id))
        .orderBy(desc(dataExports.createdAt))
        .limit(1);
      return row ? view(row, viewer.id) : null;
    },

    /** Asks for a copy: the one queued or running is answered again rather than a second made. */
    async request(viewer: RequestUser, lang: Language, ip: string): Promise<{ export: DataExport; created: boolean }> {
      // The one under way may finish between the refused insert and the read: then ask again.
      for (;;) {
        const created = await db.transaction(async (tx) => {
          const [inserted] = await tx
            .insert(dataExports)
            .values({ userId: viewer.id, lang })
            .onConflictDoNothing({ target: dataExports.userId, where: sql`status in ('queued', 'running')` })
            .returning();
          if (inserted) await queue.send('data-export.build', { exportId: inserted.id }, { tx });
          return inserted;
        });
        if (created) {
          await deps.audit(viewer.id, 'user.data_export_requested', 'user', viewer.id, ip, { exportId: created.id });
          return { export: view(created, viewer.id), created: true };
        }
        const [running] = await db
          .select()
          .from(dataExports)
          .where(and(eq(dataExports.userId, viewer.id), inArray(dataExports.status, ['queued', 'running'])));
        if (running) return { export: view(running, viewer.id), created: false };
      }
    },

    /**
     * The job: the ZIP is written as a stream straight into the store (one object, multipart on
     * S3), each file read from the store as its turn comes; memory holds one chunk, the JSON files
     * and the central directory. Run twice, it writes the same key again and ends the same way.
     */
    async build(exportId: string, signal?: AbortSignal): Promise<void> {
      const [row] = await db.select().from(dataExports).where(eq(dataExports.id, exportId));
      if (!row || (row.status !== 'queued' && row.status !== 'running')) return;
      await updateProgress(row.id, { status: 'running', startedAt: clock(), filesDone: 0, bytesDone: 0 });
      const { user, lang, entries, reports, files } = await collect(row);
      const names = [...entries.map((e) => e.name), ...reports.map((r) => r.name), ...files.map((f) => f.path)];
      const readme = {
        name: lang === 'fr' ? 'LISEZ-MOI.txt' : 'README.txt',
        body: Buffer.from(exportReadme(lang, { name: `${user.firstName} ${user.lastName}`, createdAt: row.createdAt, files: names })),
      };
      const small = [readme, ...entries];
      const filesTotal = small.length + reports.length + files.length;
      // The reports' bytes are known once made: counted as they come.
      let bytesTotal = small.reduce((n, e) => n + e.body.length, 0) + files.reduce((n, f) => n + f.size, 0);
      await updateProgress(row.id, { filesTotal, bytesTotal });

      async function* zipEntries(): AsyncGenerator<ZipEntry> {
        for (const e of small) yield { name: e.name, body: e.body, modifiedAt: row!.createdAt };
        for (const r of reports) {
          const body = await r.render();
          bytesTotal += body.length;
          yield { name: r.name, body, modifiedAt: row!.createdAt };
        }
        for (const f of files) {
          signal?.throwIfAborted();
          yield { name: f.path, body: () => storage.read(f.key), modifiedAt: f.modifiedAt };
        }
      }
      let filesDone = 0;
      let bytesDone = 0;
      const zip = zipStream(zipEntries(), {
        onBytes: (bytes) => {
          bytesDone += bytes;
        },
        onEntry: () => {
          filesDone += 1;
        },
      });
      // The page's progress, written every second while the bytes pass (a 4 GB recording takes a while).
      const ticker = setInterval(() => {
        updateProgress(row.id, { filesDone, bytesDone, bytesTotal }).catch((err: unknown) =>
          deps.log.warn({ err, exportId: row.id }, 'export progress not recorded'),
        );
      }, 1000);
      const key = exportKey(user.id, row.id);
      let size: number;
      try {
        ({ size } = await storage.put(key, zip));
      } finally {
        clearInterval(ticker);
      }
      const now = clock();
      const expiresAt = new Date(now.getTime() + DATA_EXPORT_VALID_DAYS * DAY_MS);
      const [stored] = await db
        .insert(media)
        .values({ ownerId: user.id, videoId: null, kind: 'data-export', storageKey: key, contentType: 'application/zip', size })
        .returning();
      await db
        .update(dataExports)
        .set({
          status: 'ready',
          mediaId: stored!.id,
          size,
          finishedAt: now,
          expiresAt,
          filesDone,
          filesTotal: filesDone,
          bytesDone,
          bytesTotal: bytesDone,
        })
        .where(and(eq(dataExports.id, row.id), eq(dataExports.status, 'running')));
      await deps.audit(user.id, 'user.data_export_ready', 'user', user.id, null, { exportId: row.id, size, files: filesTotal });
      await queue.send('mail.send', {
        to: user.email,
        lang,
        template: {
          name: 'dataExportReady',
          params: {
            firstName: user.firstName,
            link: `${deps.publicUrl.replace(/\/$/, '')}/my-account?tab=data`,
            expiresAt: expiresAt.toISOString(),
            size,
          },
        },
      });
    },

    /** After the job's last try: the person sees it failed and may ask again. */
    async failed(exportId: string): Promise<void> {
      await db
        .update(dataExports)
        .set({ status: 'failed', finishedAt: clock() })
        .where(and(eq(dataExports.id, exportId), inArray(dataExports.status, ['queued', 'running'])));
    },

    /** Hourly: exports past their seven days lose their ZIP; the row stays to say it expired. */
    async expire(): Promise<{ expired: number }> {
      const due = await db
        .select()
        .from(dataExports)
        .where(or(and(eq(dataExports.status, 'ready'), lt(dataExports.expiresAt, clock()))));
      for (const row of due) {
        if (row.mediaId) await deps.mediaService.remove(row.mediaId);
        await db.update(dataExports).set({ status: 'expired', mediaId: null }).where(eq(dataExports.id, row.id));
      }
      return { expired: due.length };
    },
  };
}
export type DataExportService = ReturnType<typeof createDataExportService>;
