import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { media } from '../src/db/schema.ts';
import { createTestContext, type TestContext } from './harness.ts';

const apiDir = path.resolve(import.meta.dirname, '..');
const repoRoot = path.resolve(apiDir, '../..');
const schemaFile = path.join(apiDir, 'src/db/schema.ts');
const migrationsDir = path.join(apiDir, 'src/db/migrations');

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ workers: false });
});
afterAll(async () => {
  await ctx?.close();
});

describe('generated files match the code', () => {
  it('has a committed migration for every change of the schema', { timeout: 120_000 }, async () => {
    const work = await mkdtemp(path.join(tmpdir(), 'sutura-migrations-'));
    try {
      const out = path.join(work, 'migrations');
      await cp(migrationsDir, out, { recursive: true });
      const config = path.join(work, 'drizzle.config.mjs');
      // drizzle-kit reads `out` relative to the working directory, even when it is absolute.
      const settings = { dialect: 'postgresql', schema: schemaFile, out: path.relative(repoRoot, out) };
      await writeFile(config, `export default ${JSON.stringify(settings)};\n`);
      const before = (await readdir(out)).filter((f) => f.endsWith('.sql')).sort();
      expect(before.length).toBeGreaterThan(0);

      // drizzle-kit exits 0 even when it fails, so what it prints is the verdict.
      const run = spawnSync(path.join(repoRoot, 'node_modules/.bin/drizzle-kit'), ['generate', '--config', config], {
        cwd: repoRoot,
        encoding: 'utf8',
        timeout: 100_000,
      });
      const output = `${run.stdout}\n${run.stderr}`;
      expect(run.status, output).toBe(0);
      const after = (await readdir(out)).filter((f) => f.endsWith('.sql')).sort();
      expect(after, `drizzle-kit wrote a migration the repository lacks; run npm run db:generate\n${output}`).toEqual(before);
      expect(output).toContain('No schema changes');
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });

  it('stores file sizes beyond 2 GiB (an hour of full HD video)', async () => {
    const owner = await ctx.createUser('learner');
    const size = 3_682_849_624;
    const [row] = await ctx.database.db
      .insert(media)
      .values({ ownerId: owner.id, kind: 'video', storageKey: 'videos/big/video.mp4', contentType: 'video/mp4', size })
      .returning({ size: media.size });
    expect(row!.size).toBe(size);
  });

  it('documents the main paths in the OpenAPI document', async () => {
    const res = await ctx.inject({ method: 'GET', url: '/v1/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { openapi: string; info: { title: string }; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.title).toBe('Sutura API');
    const expected: [string, string][] = [
      ['/v1/auth', 'post'],
      ['/v1/auth', 'get'],
      ['/v1/auth', 'delete'],
      ['/v1/auth/sso', 'get'],
      ['/v1/auth/sso/{provider}/start', 'get'],
      ['/v1/auth/sso/{provider}/callback', 'get'],
      ['/v1/auth/sso/pending', 'get'],
      ['/v1/auth/sso/pending/complete', 'post'],
      ['/v1/auth/sso/pending/link', 'post'],
      ['/v1/users/profile/me/identities', 'get'],
      ['/v1/users/profile/me/identities/{id}', 'delete'],
      ['/v1/admin/sso', 'get'],
      ['/v1/admin/users/{id}/identities', 'get'],
      ['/v1/users', 'post'],
      ['/v1/users/verify', 'post'],
      ['/v1/users/profile/me', 'get'],
      ['/v1/users/profile/me', 'put'],
      ['/v1/users/preferences', 'put'],
      ['/v1/users/{id}', 'get'],
      ['/v1/rppsUsers/check/{rpps}/{lastName}/{firstName}', 'get'],
      ['/v1/notification/list', 'get'],
      ['/v1/notification/{id}', 'put'],
      ['/v1/notification/{id}', 'delete'],
      ['/v1/common/medias/create/upload', 'post'],
      ['/v1/contact', 'post'],
      ['/v1/vocabularies/specialties', 'get'],
      ['/v1/admin/calibration', 'get'],
      ['/v1/expert/calibration', 'get'],
      ['/v1/videos/{id}/comparison', 'get'],
      ['/v1/videos/{id}/comparison/{bestCaseId}', 'get'],
      ['/v1/best-cases/{id}/comparison', 'get'],
      ['/v1/best-cases/{id}/comparison/{bestCaseId}', 'get'],
      ['/v1/admin/best-cases/{id}/step-notes', 'put'],
      ['/v1/best-cases/{id}/drawings', 'get'],
      ['/v1/admin/best-cases/{id}/drawings', 'post'],
      ['/v1/admin/best-cases/{id}/drawings/{drawingId}', 'delete'],
    ];
    for (const [p, method] of expected) expect(doc.paths[p], `${method.toUpperCase()} ${p}`).toHaveProperty(method);
    // Every documented /v1 operation is a route of the table, and the other way round; tus' own
    // HEAD (where an upload stands) is documented too, unlike the HEAD Fastify adds to each GET.
    const documented = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
    const table = [...ctx.routes.map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`), 'HEAD /v1/uploads/{id}'];
    expect(documented.sort()).toEqual(table.sort());
  });
});
