import { lookup } from 'node:dns/promises';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Every address a host name resolves to (the system resolver by default). */
export type ResolveHost = (hostname: string) => Promise<{ address: string; family: number }[]>;

// Not `import http from 'node:http'`: an ES import of node:http builds its namespace, whose
// WebSocket and MessageEvent getters load Node's fetch implementation (undici: 3 MB of heap and
// 10 MB resident for the process's life). The module itself is the same object either way.
const http = process.getBuiltinModule('node:http');

export const systemResolve: ResolveHost = (hostname) => lookup(hostname, { all: true, verbatim: true });

/**
 * Whether an address is on the public internet. Loopback, 0.0.0.0/8, private (10/8, 172.16/12,
 * 192.168/16), CGNAT (100.64/10), link-local (169.254/16, fe80::/10), unique-local (fc00::/7),
 * multicast, broadcast, documentation and reserved ranges are not. An IPv4 address written as
 * IPv6 (::ffff:a.b.c.d, ::ffff:0:a.b.c.d, NAT64 64:ff9b::/96) is judged as the IPv4 it carries.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    const range = v6.range();
    const parts = v6.parts;
    const nat64 = range === 'rfc6052' && parts[0] === 0x64 && parts[1] === 0xff9b && parts.slice(2, 6).every((p) => p === 0);
    if (range === 'ipv4Mapped' || range === 'rfc6145' || nat64) {
      const [a, b] = [parts[6]!, parts[7]!];
      ip = new ipaddr.IPv4([a >> 8, a & 0xff, b >> 8, b & 0xff]);
    }
  }
  return ip.range() === 'unicast';
}

export type PushEndpointRefusal = 'scheme' | 'address' | 'unresolved';

/** An endpoint this server will not post to, and why. */
export class PushEndpointRefused extends Error {
  readonly reason: PushEndpointRefusal;
  constructor(reason: PushEndpointRefusal) {
    super(`push endpoint refused: ${reason}`);
    this.reason = reason;
  }
}

/** Where to post a push message: the endpoint and the one address it was checked to resolve to. */
export interface PushTarget {
  url: URL;
  hostname: string;
  address: string;
  family: 4 | 6;
}

/**
 * Push endpoints name a push service on the internet (FCM, Mozilla, Apple): an endpoint is
 * accepted only over https and when every address its host resolves to is public, so that a
 * subscription cannot make this server post to itself or to its network. Hosts listed in
 * `allowedHosts` (PUSH_ALLOWED_HOSTS: an intranet push relay) are trusted whatever their
 * addresses, over http too.
 */
export function createPushEndpointGuard(opts: { allowedHosts?: readonly string[]; resolve?: ResolveHost } = {}) {
  const allowed = new Set(
    (opts.allowedHosts ?? [])
      .map((h) =>
        h
          .trim()
          .toLowerCase()
          .replace(/^\[|\]$/g, ''),
      )
      .filter(Boolean),
  );
  const resolve = opts.resolve ?? systemResolve;
  return {
    /** Resolves the endpoint's host once; throws PushEndpointRefused unless it may be posted to. */
    async check(endpoint: string): Promise<PushTarget> {
      let url: URL;
      try {
        url = new URL(endpoint);
      } catch {
        throw new PushEndpointRefused('scheme');
      }
      const hostname = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
      const trusted = allowed.has(hostname);
      if (url.protocol !== 'https:' && !(trusted && url.protocol === 'http:')) throw new PushEndpointRefused('scheme');
      if (url.username || url.password || !hostname) throw new PushEndpointRefused('scheme');
      let addresses: { address: string; family: number }[];
      const literal = isIP(hostname);
      if (literal) addresses = [{ address: hostname, family: literal }];
      else {
        try {
          addresses = await resolve(hostname);
        } catch {
          throw new PushEndpointRefused('unresolved');
        }
      }
      const first = addresses[0];
      if (!first) throw new PushEndpointRefused('unresolved');
      if (!trusted && addresses.some((a) => !isPublicAddress(a.address))) throw new PushEndpointRefused('address');
      return { url, hostname, address: first.address, family: first.family === 6 ? 6 : 4 };
    },
  };
}
export type PushEndpointGuard = ReturnType<typeof createPushEndpointGuard>;

/**
 * POSTs to a checked target, connecting to the address that was checked (never a second DNS
 * lookup, which a rebinding name could answer differently), and follows no redirect. Answers
 * the push service's status code.
 */
export function postToPushService(
  target: PushTarget,
  request: { headers: Record<string, string>; body: Buffer; timeoutMs: number },
): Promise<number> {
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) (callback as (err: null, addresses: { address: string; family: number }[]) => void)(null, [target]);
    else callback(null, target.address, target.family);
  };
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise<number>((resolve, reject) => {
    const req = client.request(
      {
        method: 'POST',
        hostname: target.hostname,
        port: target.url.port || undefined,
        path: `${target.url.pathname}${target.url.search}`,
        headers: { ...request.headers, 'content-length': String(request.body.length) },
        lookup: pinned,
        agent: false,
        signal: AbortSignal.timeout(request.timeoutMs),
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(request.body);
  });
}
