import { createECDH } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.ts';
import { pushSubscriptions } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { postToPushService, PushEndpointRefused, type PushEndpointGuard } from './push-endpoint.ts';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  /** A mailto: or https: address the push services may contact about this sender. */
  subject: string;
}

/**
 * A P-256 key pair in the form web-push's generateVAPIDKeys gives (URL-safe base64 of the 65-byte
 * uncompressed public point and of the 32-byte private scalar), without loading web-push at start.
 */
export function generateVapidKeys(): { publicKey: string; privateKey: string } {
  const curve = createECDH('prime256v1');
  curve.generateKeys();
  // The private scalar comes without its leading zero bytes when it has some.
  const scalar = curve.getPrivateKey();
  const privateKey = Buffer.concat([Buffer.alloc(32 - scalar.length), scalar]);
  return { publicKey: curve.getPublicKey(undefined, 'uncompressed').toString('base64url'), privateKey: privateKey.toString('base64url') };
}

/** VAPID keys from the settings, else generated once and kept in DATA_DIR like the JWT secret. */
export function loadVapidKeys(opts: {
  dataDir: string;
  publicKey?: string | undefined;
  privateKey?: string | undefined;
  subject: string;
}): VapidKeys {
  if (opts.publicKey && opts.privateKey) return { publicKey: opts.publicKey, privateKey: opts.privateKey, subject: opts.subject };
  const file = path.join(opts.dataDir, 'vapid-keys.json');
  if (existsSync(file)) {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { publicKey: string; privateKey: string };
    return { ...kept, subject: opts.subject };
  }
  const keys = generateVapidKeys();
  writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  return { ...keys, subject: opts.subject };
}

/** What the service worker shows (apps/web/public/sw.js). */
export interface PushMessage {
  title: string;
  body: string;
  /** Path of the app to open on click. */
  url: string | null;
  /** One notification per tag on the device: a newer one replaces it. */
  tag: string;
}

/**
 * Web Push: one subscription per device (its push service's endpoint), each message encrypted
 * for that device and signed with the VAPID key. A subscription the push service says is gone
 * (404, 410) is deleted; other failures are logged and the message dropped, like a lost SMS.
 * Endpoints go through the guard when saved and again before each message (see push-endpoint.ts).
 */
export function createPushService(deps: { db: Db; vapid: VapidKeys; log: Logger; endpoints: PushEndpointGuard }) {
  const { db, vapid, log, endpoints } = deps;
  return {
    publicKey: vapid.publicKey,

    /** Saves a device's subscription; an endpoint the guard refuses is a 400 and changes nothing. */
    async subscribe(userId: string, endpoint: string, keys: { p256dh: string; auth: string }, userAgent: string | undefined) {
      try {
        await endpoints.check(endpoint);
      } catch (err) {
        if (err instanceof PushEndpointRefused) {
          throw new AppError('PUSH_ENDPOINT_REFUSED', {}, [{ path: 'pushToken', code: 'PUSH_ENDPOINT_REFUSED' }]);
        }
        throw err;
      }
      // An endpoint names one browser profile: it moves to whoever signs in there now.
      await db
        .insert(pushSubscriptions)
        .values({ userId, endpoint, p256dh: keys.p256dh, auth: keys.auth, userAgent: userAgent?.slice(0, 300) ?? null })
        .onConflictDoUpdate({
          target: pushSubscriptions.endpoint,
          set: { userId, p256dh: keys.p256dh, auth: keys.auth, userAgent: userAgent?.slice(0, 300) ?? null },
        });
    },

    async unsubscribe(userId: string, endpoint: string) {
      await db.delete(pushSubscriptions).where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)));
    },

    async hasSubscriptions(userId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: pushSubscriptions.id })
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.userId, userId))
        .limit(1);
      return Boolean(row);
    },

    /** Sends to every device of the person; answers how many accepted it. */
    async sendToUser(userId: string, message: PushMessage): Promise<number> {
      const rows = await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
      let delivered = 0;
      // web-push and its ASN.1 and big-number code load with the first push, not with the server.
      const { default: webPush } = rows.length > 0 ? await import('web-push') : { default: undefined };
      for (const row of rows) {
        const details = webPush!.generateRequestDetails(
          { endpoint: row.endpoint, keys: { p256dh: row.p256dh, auth: row.auth } },
          JSON.stringify(message),
          { vapidDetails: vapid, TTL: 24 * 3600, urgency: 'normal', contentEncoding: 'aes128gcm' },
        );
        try {
          // Checked again now: the name may resolve elsewhere than when the device subscribed.
          const target = await endpoints.check(row.endpoint);
          const status = await postToPushService(target, {
            headers: details.headers as Record<string, string>,
            body: details.body as Buffer,
            timeoutMs: 15_000,
          });
          if (status === 404 || status === 410) {
            await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, row.id));
          } else if (status >= 200 && status < 300) {
            delivered++;
          } else {
            log.warn({ status, host: target.url.host }, 'push refused');
          }
        } catch (err) {
          if (err instanceof PushEndpointRefused && err.reason !== 'unresolved') {
            // An endpoint that now points inside the network (or was saved before the check existed) is dropped.
            await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, row.id));
            log.warn({ reason: err.reason }, 'push endpoint refused');
          } else {
            log.warn({ err, host: safeHost(row.endpoint) }, 'push failed');
          }
        }
      }
      return delivered;
    },
  };
}
export type PushService = ReturnType<typeof createPushService>;

function safeHost(endpoint: string): string | undefined {
  try {
    return new URL(endpoint).host;
  } catch {
    return undefined;
  }
}
