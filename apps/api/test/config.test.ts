import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

const dataDir = () => mkdtempSync(path.join(tmpdir(), 'sutura-config-'));

describe('configuration', () => {
  it('runs on the embedded defaults with no setting at all', () => {
    const dir = dataDir();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config).toMatchObject({ port: 3000, host: '0.0.0.0', databaseUrl: undefined, workers: 'on', demoData: true, trustProxy: false });
    // The generated secret is kept, so tokens survive a restart.
    expect(config.jwtSecret).toBe(readFileSync(path.join(dir, 'jwt-secret'), 'utf8'));
    expect(loadConfig({ DATA_DIR: dir }).jwtSecret).toBe(config.jwtSecret);
  });

  it('never seeds demo data on a PostgreSQL server unless asked', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), DATABASE_URL: 'postgres://db/sutura' }).demoData).toBe(false);
    expect(loadConfig({ DATA_DIR: dataDir(), DATABASE_URL: 'postgres://db/sutura', DEMO_DATA: 'on' }).demoData).toBe(true);
  });

  it('takes the installation’s time zone as an IANA name, Paris by default, and refuses anything else at start-up', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).timeZone).toBe('Europe/Paris');
    expect(loadConfig({ DATA_DIR: dataDir(), TIME_ZONE: 'America/Montreal' }).timeZone).toBe('America/Montreal');
    expect(loadConfig({ DATA_DIR: dataDir(), TIME_ZONE: 'UTC' }).timeZone).toBe('UTC');
    for (const bad of ['Europe/Pariss', '+01:00', 'CET+1', 'Paris', 'Europe/Paris; DROP TABLE users']) {
      expect(() => loadConfig({ DATA_DIR: dataDir(), TIME_ZONE: bad }), bad).toThrow(/TIME_ZONE: not an IANA time zone/);
    }
  });

  it('lists every bad setting at once', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), PORT: 'abc', WORKERS: 'sometimes', JWT_SECRET: 'short' })).toThrow(ConfigError);
    try {
      loadConfig({ DATA_DIR: dataDir(), PORT: 'abc', WORKERS: 'sometimes', JWT_SECRET: 'short' });
    } catch (err) {
      expect((err as Error).message).toMatch(/PORT/);
      expect((err as Error).message).toMatch(/WORKERS/);
      expect((err as Error).message).toMatch(/JWT_SECRET/);
    }
  });

  it('takes the VAPID keys of the settings together, or refuses one without the other', () => {
    const publicKey = `B${'A'.repeat(86)}`;
    const config = loadConfig({ DATA_DIR: dataDir(), VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: 'p'.repeat(43) });
    expect(config.vapidPublicKey).toBe(publicKey);
    expect(config.vapidSubject).toBe('mailto:support@sutura.local');
    expect(() => loadConfig({ DATA_DIR: dataDir(), VAPID_PUBLIC_KEY: publicKey })).toThrow(/VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY/);
  });

  it('reads the proxy trust and the operator details of the legal texts', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ DATA_DIR: dataDir(), TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ DATA_DIR: dataDir(), TRUST_PROXY: '10.0.0.1,10.0.0.2' }).trustProxy).toBe('10.0.0.1,10.0.0.2');
    const config = loadConfig({
      DATA_DIR: dataDir(),
      LEGAL_OPERATOR_NAME: ' CHU de Lyon ',
      LEGAL_DPO_CONTACT: 'dpo@chu-lyon.fr',
      LEGAL_HOST_NAME: '',
    });
    expect(config.legal).toEqual({ operatorName: 'CHU de Lyon', dpoContact: 'dpo@chu-lyon.fr' });
  });
});

describe('GET /v1/health', () => {
  it('tells the client the largest video it may send, whether uploads can be processed, and the Web Push key', async () => {
    const { createTestContext } = await import('./harness.ts');
    const ctx = await createTestContext({ workers: false, env: { MAX_UPLOAD_BYTES: '5000000' } });
    try {
      const res = await ctx.inject({ method: 'GET', url: '/v1/health' });
      const kept = JSON.parse(readFileSync(path.join(ctx.dataDir, 'vapid-keys.json'), 'utf8')) as { publicKey: string };
      expect(res.json()).toEqual({
        success: true,
        data: {
          status: 'ok',
          version: '0.0.5',
          maxUploadBytes: 5_000_000,
          mediaPipeline: true,
          pushPublicKey: kept.publicKey,
          demo: { preparing: false, progress: 100 },
        },
      });
      // An uncompressed P-256 point, as PushManager.subscribe() takes it.
      expect(Buffer.from(kept.publicKey, 'base64url')).toHaveLength(65);
    } finally {
      await ctx.close();
    }
  });

  it('says the media pipeline is unusable when ffmpeg cannot be run', async () => {
    const { createTestContext } = await import('./harness.ts');
    const ctx = await createTestContext({ workers: false, env: { FFMPEG_PATH: '/nonexistent/ffmpeg' } });
    try {
      const res = await ctx.inject({ method: 'GET', url: '/v1/health' });
      expect(res.json()).toMatchObject({ success: true, data: { status: 'ok', mediaPipeline: false } });
    } finally {
      await ctx.close();
    }
  });
});
