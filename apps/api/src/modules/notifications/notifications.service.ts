import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { isLanguage, type Language } from '@sutura/domain/i18n';
import { NOTIFICATION_KINDS, SOCKET_EVENTS, type Notification, type NotificationKind } from '@sutura/domain/notifications';
import type { Role } from '@sutura/domain/roles';
import type { Db } from '../../db/client.ts';
import { notifications, users } from '../../db/schema.ts';
import { preparedOnUse } from '../../db/prepared.ts';
import { notFound } from '../../http/errors.ts';
import type { Queue } from '../../jobs/queue.ts';
import type { PushService } from '../push/push.service.ts';

export interface RealtimeHub {
  emitToUser(userId: string, event: string, payload: unknown): void;
  /** Closes the sockets opened with these sessions (signed out, revoked, expired). */
  disconnectSessions(sessionIds: string[]): void;
  /** To everyone signed in with a role (every editor sees the pool change). */
  emitToRole(role: Role, event: string, payload: unknown): void;
}

/** What the socket server does when a person's roles change. */
export interface RoleRooms {
  /** The person's open sockets leave the rooms of their former roles and join those of `roles`; their clients are told. */
  rolesChanged(userId: string, roles: readonly Role[]): Promise<void>;
}

type Row = typeof notifications.$inferSelect;

/** A parameter is plain text, or text in both languages (a surgery name, a failure reason). */
export type NotificationParam = string | number | { fr: string; en: string };

/**
 * The case a notification is about: its surgery and the moment it was added, so that two
 * notifications about two cases of one surgery read apart ("Pyeloplasty (27 November 2026)").
 */
export function aboutCase(surgery: { fr: string; en: string }, video: { createdAt: Date }): Record<string, NotificationParam> {
  return { surgery, caseAt: video.createdAt.toISOString() };
}

/** The day a case was added, on the installation's clock (TIME_ZONE), as its people read dates. */
function caseDay(iso: string, lang: Language, timeZone: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(lang === 'fr' ? 'fr-FR' : 'en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone }).format(
    date,
  );
}

/**
 * A text of the notification's kind with its {param} placeholders filled in `lang`. The surgery
 * of a case is followed by the day it was added (`caseAt`); notifications stored before they
 * carried it keep reading as they did.
 */
export function fill(template: string, params: Row['params'], lang: Language, timeZone: string): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => {
    const value = params[k];
    const text = value !== null && typeof value === 'object' ? value[lang] : String(value ?? '');
    const day = k === 'surgery' && typeof params.caseAt === 'string' ? caseDay(params.caseAt, lang, timeZone) : '';
    return day ? `${text} (${day})` : text;
  });
}

function renderRow(row: Row, lang: Language, timeZone: string): Notification {
  const kind = NOTIFICATION_KINDS[row.key as NotificationKind];
  const template: string = kind ? kind[lang] : row.key;
  return {
    id: row.id,
    key: row.key,
    content: fill(template, row.params, lang, timeZone),
    type: kind?.type ?? 'other',
    status: row.status === 'read' ? 'read' : 'unread',
    link: row.link,
    createdAt: row.createdAt.toISOString(),
  };
}

export function createNotificationService(deps: {
  db: Db;
  hub: RealtimeHub;
  queue: Queue;
  publicUrl: string;
  push?: Pick<PushService, 'sendToUser'>;
  log?: Logger;
  /** The installation's time zone (TIME_ZONE): the day a case was added is read on its clock. */
  timeZone: string;
}) {
  const { db, hub, queue, publicUrl, push, timeZone } = deps;
  const render = (row: Row, lang: Language) => renderRow(row, lang, timeZone);
  // The list is read at every page of the app: built once (at the first read), named statements on every connection.
  const page = preparedOnUse(() =>
    db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, sql.placeholder('userId')))
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare('notifications_page'),
  );
  const totalsOf = preparedOnUse(() =>
    db
      .select({ total: count(), unread: sql<number>`count(*) filter (where ${notifications.status} = 'unread')::int` })
      .from(notifications)
      .where(eq(notifications.userId, sql.placeholder('userId')))
      .prepare('notifications_totals'),
  );
  return {
    /** Stores a notification, pushes it live, and mails it where the person asked for it. */
    async notify(userId: string, key: NotificationKind, params: Record<string, NotificationParam> = {}, link: string | null = null) {
      const [user] = await db
        .select({
          email: users.email,
          preferences: users.preferences,
          appLanguage: users.appLanguage,
          settings: users.notificationSettings,
        })
        .from(users)
        .where(eq(users.id, userId));
      if (!user) return;
      // Their chosen language, else the one they last used the app in (their browser's), else French.
      const lang: Language = isLanguage(user.preferences.langCode)
        ? user.preferences.langCode
        : isLanguage(user.appLanguage)
          ? user.appLanguage
          : 'fr';
      // The notification and its mail in one transaction: a stored notification is always mailed
      // where the person asked for it, whatever happens to this process after the commit.
      const notification = await db.transaction(async (tx) => {
        const [row] = await tx.insert(notifications).values({ userId, key, params, link }).returning();
        const rendered = render(row!, lang);
        if (user.settings[NOTIFICATION_KINDS[key].group]) {
          await queue.send(
            'mail.send',
            {
              to: user.email,
              lang,
              template: {
                name: 'notification',
                params: {
                  subject: fill(NOTIFICATION_KINDS[key].subject[lang], row!.params, lang, timeZone),
                  content: rendered.content,
                  link: link ? new URL(link, publicUrl).href : null,
                },
              },
            },
            { tx },
          );
        }
        return rendered;
      });
      hub.emitToUser(userId, SOCKET_EVENTS.notificationReceived, notification);
      // Best effort and off the request: a push service that is slow or down delays nobody, and
      // the notification is stored and mailed whatever happens to it.
      push
        ?.sendToUser(userId, { title: 'Sutura', body: notification.content, url: link, tag: notification.id })
        .catch((err: unknown) => deps.log?.warn({ err }, 'push not sent'));
      return notification;
    },

    async list(userId: string, lang: Language, pageNumber: number, limit: number) {
      const [rows, [totals]] = await Promise.all([
        page.execute({ userId, limit, offset: (pageNumber - 1) * limit }),
        totalsOf.execute({ userId }),
      ]);
      return { data: rows.map((r) => render(r, lang)), total: totals?.total ?? 0, unread: totals?.unread ?? 0, page: pageNumber, limit };
    },

    async setStatus(userId: string, id: string, status: 'read' | 'unread', lang: Language) {
      const [row] = await db
        .update(notifications)
        .set({ status })
        .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
        .returning();
      if (!row) throw notFound();
      return render(row, lang);
    },

    async remove(userId: string, id: string) {
      const [row] = await db
        .delete(notifications)
        .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
        .returning({ id: notifications.id });
      if (!row) throw notFound();
    },
  };
}
export type NotificationService = ReturnType<typeof createNotificationService>;
