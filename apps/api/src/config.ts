import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_MAX_UPLOAD_BYTES } from '@sutura/domain/videos';
import { legalFieldOf } from '@sutura/domain/legal';
import { DEFAULT_TIME_ZONE, isTimeZone } from '@sutura/domain/time-zone';
import { locateTool } from './media-pipeline/ffmpeg.ts';
import { parseSsoProviders, type SsoProvider } from './modules/sso/sso-config.ts';

const onOff = z.enum(['on', 'off']);

/** Every setting of the product, parsed once from the environment. */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  PUBLIC_URL: z.url().optional(),
  JWT_SECRET: z.string().min(32).optional(),
  TOKEN_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .default(24 * 7),
  SESSION_MAX_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  TOKEN_GRACE_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  DATABASE_URL: z.string().optional(),
  WORKERS: z.enum(['on', 'off', 'only']).default('on'),
  DEMO_DATA: onOff.optional(),
  DEMO_VIDEOS: onOff.default('on'),
  TEST_SEEDING: onOff.default('off'),
  NODE_ENV: z.string().optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Sutura <no-reply@sutura.local>'),
  SUPPORT_EMAIL: z.email().default('support@sutura.local'),
  RATE_LIMIT_AUTH_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  RATE_LIMIT_LOOKUPS_PER_HOUR: z.coerce.number().int().min(1).default(30),
  SIGN_IN_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).default(100),
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  HEADERS_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(300).default(20),
  IDLE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  SIGNED_URL_TTL_SECONDS: z.coerce.number().int().min(10).max(86400).default(900),
  AVATAR_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(10 * 1024 * 1024),
  MAX_UPLOAD_BYTES: z.coerce.number().int().min(1024).default(DEFAULT_MAX_UPLOAD_BYTES),
  MAX_CASES_WAITING_FOR_FILE: z.coerce.number().int().min(1).default(10),
  MAX_UPLOAD_BYTES_IN_FLIGHT: z.coerce
    .number()
    .int()
    .min(1024)
    .default(2 * DEFAULT_MAX_UPLOAD_BYTES),
  MAX_STORAGE_BYTES_PER_PERSON: z.coerce
    .number()
    .int()
    .min(1024)
    .default(10 * DEFAULT_MAX_UPLOAD_BYTES),
  UPLOAD_EXPIRY_HOURS: z.coerce
    .number()
    .int()
    .min(2)
    .default(7 * 24),
  RETENTION_SOURCE_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** Unset or 0: analysed cases are kept as long as their author's account. */
  RETENTION_ANALYSED_YEARS: z.coerce.number().int().min(0).max(100).default(0),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  FFMPEG_PATH: z.string().optional(),
  FFPROBE_PATH: z.string().optional(),
  /** `on` (rungs 720 and 360), `off`, or the heights of the rungs below the stored video (`1080,720,480,360`). */
  STREAMING: z
    .string()
    .default('on')
    .refine((v) => v === 'on' || v === 'off' || /^\d{3,4}(,\d{3,4})*$/.test(v), 'on, off, or heights such as 720,360'),
  VAPID_PUBLIC_KEY: z.string().min(40).optional(),
  VAPID_PRIVATE_KEY: z.string().min(20).optional(),
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:\/\/)/)
    .optional(),
  /** The installation's time zone: months, "this month", audit days and CSV dates follow it. */
  TIME_ZONE: z
    .string()
    .refine(isTimeZone, { error: 'not an IANA time zone name (e.g. Europe/Paris, America/Montreal, UTC)' })
    .default(DEFAULT_TIME_ZONE),
  /** Push services trusted whatever their addresses (an intranet relay): comma-separated host names or addresses. */
  PUSH_ALLOWED_HOSTS: z.string().default(''),
  /** 'false', 'true', a hop count, or a comma-separated list of proxy addresses. */
  TRUST_PROXY: z.string().default('false'),
  METRICS_TOKEN: z.string().min(16).optional(),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().default('127.0.0.1'),
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  JOB_HEARTBEAT_SECONDS: z.coerce.number().int().min(10).max(3600).default(60),
  S3_ENDPOINT: z.url().optional(),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/)
    .optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).optional(),
  SCRATCH_DIR: z.string().optional(),
  /** OpenID Connect providers (Pro Santé Connect, the hospital's): a JSON array, or a JSON file. */
  OIDC_PROVIDERS: z.string().optional(),
  OIDC_PROVIDERS_FILE: z.string().optional(),
  /** Password sign-in and sign-up off: only the providers sign in, but for the break-glass account. */
  SSO_ONLY: onOff.default('off'),
  SSO_BREAK_GLASS_EMAIL: z.email().optional(),
  SCRATCH_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(64 * 1024 * 1024)
    .default(64 * 1024 ** 3),
  SCRATCH_REQUEST_WAIT_SECONDS: z.coerce.number().min(0).max(600).default(10),
});

/** The S3-compatible store of the media, when S3_BUCKET is set. */
export type S3Settings = {
  endpoint: string | undefined;
  bucket: string;
  region: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  forcePathStyle: boolean;
};

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  publicUrl: string;
  jwtSecret: string;
  tokenTtlHours: number;
  /** Absolute lifetime of a session, from sign-in, whatever the refreshes. */
  sessionMaxDays: number;
  /** How long a token replaced by a refresh is still accepted. */
  tokenGraceSeconds: number;
  databaseUrl: string | undefined;
  workers: 'on' | 'off' | 'only';
  demoData: boolean;
  /** With the demo accounts, generate demo videos (ffmpeg) in the background at first start. */
  demoVideos: boolean;
  /** The end-to-end suite's seeding route (/v1/testing/people): only with NODE_ENV=test. */
  testSeeding: boolean;
  smtpUrl: string | undefined;
  mailFrom: string;
  supportEmail: string;
  rateLimitAuthPerMinute: number;
  /** Lookups that reveal whether an email has an account (reset, resend, share), per address or person. */
  rateLimitLookupsPerHour: number;
  /** Failed sign-ins from one address, whatever the emails, over 15 minutes. */
  signInFailuresPerAddress: number;
  signedUrlTtlSeconds: number;
  /** Time a request (headers and body) may take, except the tus upload routes. */
  requestTimeoutSeconds: number;
  /** Time the headers of a request may take to arrive. */
  headersTimeoutSeconds: number;
  /** A connection that sends nothing for this long is closed (a tus upload resumes). */
  idleTimeoutSeconds: number;
  avatarMaxBytes: number;
  /** Largest video accepted through tus; a bigger Upload-Length is refused before any byte. */
  maxUploadBytes: number;
  /** Per-person limits: video cases waiting for their file, bytes of unfinished uploads, bytes stored. */
  quotas: { casesWaitingForFile: number; bytesInFlight: number; totalBytes: number };
  /** An unfinished upload that receives nothing for this long is removed (the author is told a day before). */
  uploadExpiryHours: number;
  /** The first defaults of the retention rules, before an administrator sets them (docs/data-lifecycle.md). */
  retention: { sourceDays: number; uploadExpiryHours: number; analysedYears: number | null };
  logLevel: string;
  webDist: string;
  /** The ffmpeg and ffprobe binaries of the media pipeline: FFMPEG_PATH, else on PATH, else the npm-shipped ones. */
  ffmpegPath: string;
  ffprobePath: string;
  /** The HLS ladder (docs/streaming.md): off, or the heights of its encoded rungs, tallest first. */
  streaming: { enabled: false } | { enabled: true; rungs: number[] };
  trustProxy: boolean | number | string;
  /** IANA name of the installation's time zone: months and days are counted on its clock (docs/statistics.md). */
  timeZone: string;
  /** Web Push keys: both set, or generated once into DATA_DIR/vapid-keys.json. */
  vapidPublicKey: string | undefined;
  vapidPrivateKey: string | undefined;
  vapidSubject: string;
  /** Push endpoints accepted whatever their addresses, over http too (default: none, only public https). */
  pushAllowedHosts: string[];
  /** The operator's details quoted by the legal texts (LEGAL_OPERATOR_NAME → operatorName). */
  legal: Record<string, string>;
  /** `/metrics` on the HTTP port for callers bearing this token (off without it). */
  metricsToken: string | undefined;
  /** `/metrics` on a listener of its own, without token (off without a port). */
  metricsPort: number | undefined;
  metricsHost: string;
  /** On SIGTERM: how long running requests and jobs get to finish before the process stops anyway. */
  shutdownGraceSeconds: number;
  /** A long job (processing, render, suggestions) silent for this long is handed to another worker. */
  jobHeartbeatSeconds: number;
  /** Media in an S3-compatible store; undefined: local files in DATA_DIR. */
  s3: S3Settings | undefined;
  /** Where ffmpeg's local copies and outputs are made, and how many bytes they may take together. */
  scratch: { dir: string; maxBytes: number; requestWaitMs: number };
  /** Single sign-on: the OpenID Connect providers, and whether password sign-in is off. */
  sso: { providers: SsoProvider[]; ssoOnly: boolean; breakGlassEmail: string | undefined };
};

export class ConfigError extends Error {}

/** Reads the environment; fails fast with every bad key listed. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const bad = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n  ');
    throw new ConfigError(`Invalid configuration:\n  ${bad}`);
  }
  const e = parsed.data;
  if (Boolean(e.VAPID_PUBLIC_KEY) !== Boolean(e.VAPID_PRIVATE_KEY)) {
    throw new ConfigError('Invalid configuration:\n  VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY: set both or neither');
  }
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError('Invalid configuration:\n  S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both or neither');
  }
  const s3Settings = ['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE'] as const;
  if (!e.S3_BUCKET && s3Settings.some((key) => e[key] !== undefined)) {
    throw new ConfigError('Invalid configuration:\n  S3_BUCKET: required with the other S3_* settings');
  }
  const dataDir = path.resolve(e.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  let providers: SsoProvider[];
  try {
    providers = parseSsoProviders({ json: e.OIDC_PROVIDERS, file: e.OIDC_PROVIDERS_FILE, dataDir });
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  ${(error as Error).message}`, { cause: error });
  }
  if (e.TEST_SEEDING === 'on' && e.NODE_ENV !== 'test') {
    throw new ConfigError('Invalid configuration:\n  TEST_SEEDING: only for the test suite (NODE_ENV=test)');
  }
  if (e.SSO_ONLY === 'on' && providers.length === 0) {
    throw new ConfigError('Invalid configuration:\n  SSO_ONLY: needs at least one provider in OIDC_PROVIDERS');
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    jwtSecret: e.JWT_SECRET ?? persistedSecret(dataDir),
    tokenTtlHours: e.TOKEN_TTL_HOURS,
    sessionMaxDays: e.SESSION_MAX_DAYS,
    tokenGraceSeconds: e.TOKEN_GRACE_SECONDS,
    databaseUrl: e.DATABASE_URL,
    workers: e.WORKERS,
    // Demo accounts and videos only ever go into the embedded database unless asked for.
    demoData: e.DEMO_DATA ? e.DEMO_DATA === 'on' : !e.DATABASE_URL,
    demoVideos: e.DEMO_VIDEOS === 'on',
    testSeeding: e.TEST_SEEDING === 'on',
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    supportEmail: e.SUPPORT_EMAIL,
    rateLimitAuthPerMinute: e.RATE_LIMIT_AUTH_PER_MINUTE,
    rateLimitLookupsPerHour: e.RATE_LIMIT_LOOKUPS_PER_HOUR,
    signInFailuresPerAddress: e.SIGN_IN_FAILURES_PER_ADDRESS,
    signedUrlTtlSeconds: e.SIGNED_URL_TTL_SECONDS,
    requestTimeoutSeconds: e.REQUEST_TIMEOUT_SECONDS,
    headersTimeoutSeconds: e.HEADERS_TIMEOUT_SECONDS,
    idleTimeoutSeconds: e.IDLE_TIMEOUT_SECONDS,
    avatarMaxBytes: e.AVATAR_MAX_BYTES,
    maxUploadBytes: e.MAX_UPLOAD_BYTES,
    quotas: {
      casesWaitingForFile: e.MAX_CASES_WAITING_FOR_FILE,
      bytesInFlight: e.MAX_UPLOAD_BYTES_IN_FLIGHT,
      totalBytes: e.MAX_STORAGE_BYTES_PER_PERSON,
    },
    uploadExpiryHours: e.UPLOAD_EXPIRY_HOURS,
    retention: {
      sourceDays: e.RETENTION_SOURCE_DAYS,
      uploadExpiryHours: e.UPLOAD_EXPIRY_HOURS,
      analysedYears: e.RETENTION_ANALYSED_YEARS || null,
    },
    logLevel: e.LOG_LEVEL,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    timeZone: e.TIME_ZONE,
    vapidPublicKey: e.VAPID_PUBLIC_KEY,
    vapidPrivateKey: e.VAPID_PRIVATE_KEY,
    vapidSubject: e.VAPID_SUBJECT ?? `mailto:${e.SUPPORT_EMAIL}`,
    pushAllowedHosts: e.PUSH_ALLOWED_HOSTS.split(',')
      .map((h) => h.trim())
      .filter(Boolean),
    legal: legalDetails(env),
    metricsToken: e.METRICS_TOKEN,
    metricsPort: e.METRICS_PORT,
    metricsHost: e.METRICS_HOST,
    shutdownGraceSeconds: e.SHUTDOWN_GRACE_SECONDS,
    jobHeartbeatSeconds: e.JOB_HEARTBEAT_SECONDS,
    webDist: path.resolve(e.WEB_DIST ?? path.join(import.meta.dirname, '../../web/dist')),
    ffmpegPath: locateTool('ffmpeg', e.FFMPEG_PATH).path,
    ffprobePath: locateTool('ffprobe', e.FFPROBE_PATH).path,
    streaming: parseStreaming(e.STREAMING),
    s3: e.S3_BUCKET
      ? {
          endpoint: e.S3_ENDPOINT,
          bucket: e.S3_BUCKET,
          region: e.S3_REGION,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          // A custom endpoint (MinIO, Ceph, Garage…) usually serves buckets under its path.
          forcePathStyle: e.S3_FORCE_PATH_STYLE ? e.S3_FORCE_PATH_STYLE === 'true' : Boolean(e.S3_ENDPOINT),
        }
      : undefined,
    scratch: {
      dir: path.resolve(e.SCRATCH_DIR ?? path.join(dataDir, 'tmp')),
      maxBytes: e.SCRATCH_MAX_BYTES,
      requestWaitMs: e.SCRATCH_REQUEST_WAIT_SECONDS * 1000,
    },
    sso: { providers, ssoOnly: e.SSO_ONLY === 'on', breakGlassEmail: e.SSO_BREAK_GLASS_EMAIL?.toLowerCase() },
  };
}

/** Every LEGAL_* variable, named as the web's legal texts name their fields. */
function legalDetails(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (!key.startsWith('LEGAL_') || !value?.trim()) continue;
    out[legalFieldOf(key)] = value.trim();
  }
  return out;
}

function parseTrustProxy(value: string): boolean | number | string {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

/** A JWT secret generated once and kept in DATA_DIR, so tokens survive a restart. */
function persistedSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** The rungs of the HLS ladder under the stored video itself; 720 and 360 unless told. */
export function parseStreaming(value: string): Config['streaming'] {
  if (value === 'off') return { enabled: false };
  const heights = value === 'on' ? [720, 360] : value.split(',').map(Number);
  return { enabled: true, rungs: [...new Set(heights)].filter((h) => h >= 144 && h <= 2160).sort((a, b) => b - a) };
}
