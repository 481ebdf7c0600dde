import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
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

describe('the data a migration fills', () => {
  it('gives the cases of before the moment their ratings reached their learner, by the rule (0022)', { timeout: 120_000 }, async () => {
    const server = process.env.TEST_DATABASE_URL || inject('embeddedDatabaseUrl');
    const name = `sutura_migration_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const target = new URL(server);
    target.pathname = `/${name}`;
    const pool = new pg.Pool({ connectionString: target.href });
    const work = await mkdtemp(path.join(tmpdir(), 'sutura-migration-0022-'));
    try {
      // The database as it stood before 0022.
      const before = path.join(work, 'migrations');
      await cp(migrationsDir, before, { recursive: true });
      const journalFile = path.join(before, 'meta/_journal.json');
      const journal = JSON.parse(await readFile(journalFile, 'utf8')) as { entries: { tag: string }[] };
      journal.entries = journal.entries.filter((e) => e.tag < '0022');
      await writeFile(journalFile, JSON.stringify(journal));
      const db = drizzle(pool);
      await migrate(db, { migrationsFolder: before });

      const q = (text: string, values: unknown[] = []) => pool.query(text, values);
      const { rows: people } = await q(
        `INSERT INTO users (email, password_hash, first_name, last_name, preferences, notification_settings)
         VALUES ('learner@migration.test', 'x', 'L', 'N', '{}', '{}') RETURNING id`,
      );
      const learner = people[0].id as string;
      const at = (day: number) => new Date(Date.UTC(2026, 10, day, 12));
      /** A case, its submitted reviews (their dates) and its self-assessment's moments. */
      const made = async (
        status: string,
        released: Date | null,
        reviews: Date[],
        self: { submitted?: Date; skipped?: Date; seen?: Date } | null,
        reviewsRequired = 1,
      ) => {
        const { rows } = await q(
          `INSERT INTO videos (author_id, status, media_status, result_released_at, reviews_required, updated_at)
           VALUES ($1, $2, 'ready', $3, $4, $5) RETURNING id`,
          [learner, status, released, reviewsRequired, at(28)],
        );
        const id = rows[0].id as string;
        for (const [i, submitted] of reviews.entries())
          await q(`INSERT INTO analyses (video_id, round, status, kpi_ratings, submitted_at) VALUES ($1, $2, 'submitted', '{}', $3)`, [
            id,
            i + 1,
            submitted,
          ]);
        if (self)
          await q(
            `INSERT INTO self_assessments (video_id, author_id, kpi_ratings, submitted_at, skipped_at, result_seen_at)
             VALUES ($1, $2, $3, $4, $5, $6)`,
            [id, learner, self.submitted ? '{}' : null, self.submitted ?? null, self.skipped ?? null, self.seen ?? null],
          );
        return id;
      };
      const cases = {
        // Rated before the result: released with the result.
        ratedBefore: await made('analysed', at(10), [at(10)], { submitted: at(8), seen: at(11) }),
        // The result read after it came, never rated: released at the reading.
        readAfter: await made('analysed', at(10), [at(10)], { seen: at(12) }),
        // Skipped, analysed before the release was recorded: its review's date.
        skippedLegacy: await made('analysed', null, [at(9)], { skipped: at(5) }),
        // Analysed, never opened since the self-assessment came: waits for its learner.
        unanswered: await made('analysed', at(10), [at(10)], null),
        // Its second review awaited, self-assessed: waits for the result.
        awaited: await made('pending_review', null, [at(10)], { submitted: at(7) }, 2),
        // Sent for a further review after its result was shown, rated: released with the result.
        furtherReview: await made('pending_review', at(10), [at(10)], { submitted: at(9) }, 2),
      };

      await migrate(db, { migrationsFolder: migrationsDir });
      const { rows } = await q(`SELECT id, ratings_released_at FROM videos`);
      const released = Object.fromEntries(rows.map((r) => [r.id, (r.ratings_released_at as Date | null)?.toISOString() ?? null]));
      expect(Object.fromEntries(Object.entries(cases).map(([k, id]) => [k, released[id]]))).toEqual({
        ratedBefore: at(10).toISOString(),
        readAfter: at(12).toISOString(),
        skippedLegacy: at(9).toISOString(),
        unanswered: null,
        awaited: null,
        furtherReview: at(10).toISOString(),
      });
      // From now on, a release changes the version of the KPIs' averages (and nothing else does).
      const version = async () => (await q(`SELECT kpis::text AS kpis FROM stats_version`)).rows[0].kpis as string;
      const first = await version();
      await q(`UPDATE videos SET reviews_required = 3 WHERE id = $1`, [cases.unanswered]);
      expect(await version()).toBe(first);
      await q(`UPDATE videos SET ratings_released_at = now() WHERE id = $1`, [cases.unanswered]);
      expect(await version()).not.toBe(first);
    } finally {
      await pool.end();
      await rm(work, { recursive: true, force: true });
      for (let tries = 0; tries < 50; tries++) {
        const { rows } = await admin.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
        if (rows[0].n === 0) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
