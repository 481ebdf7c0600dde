import { test as base, expect, type APIRequestContext } from '@playwright/test';
import type { Role } from '@sutura/domain/roles';
import { startServer, type TestServer } from './server.ts';

export { expect };

/** A person made for the spec that runs (POST /v1/testing/people), with the password they sign in with. */
export interface Person {
  id: string;
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  roles: Role[];
}

export interface PersonSpec {
  roles: Role[];
  firstName?: string;
  lastName?: string;
  langCode?: 'auto' | 'fr' | 'en';
  theme?: 'auto' | 'light' | 'dark';
  noSpecialty?: boolean;
  /** An address of the test's choosing (a server setting may name it before the person exists). */
  email?: string;
}

/**
 * The people of a spec: one of each role, and a second learner, editor and expert, named as the
 * demo accounts are (the texts the specs read are those of a first start), each with an address
 * of their own on the spec's own server.
 */
export const CAST = {
  learner: { roles: ['learner'], firstName: 'Camille', lastName: 'Martin' },
  learner2: { roles: ['learner'], firstName: 'Julien', lastName: 'Moreau' },
  editor: { roles: ['editor'], firstName: 'Hugo', lastName: 'Bernard' },
  editor2: { roles: ['editor'], firstName: 'Inès', lastName: 'Roussel' },
  expert: { roles: ['expert'], firstName: 'Claire', lastName: 'Dubois' },
  expert2: { roles: ['expert'], firstName: 'Antoine', lastName: 'Mercier' },
  admin: { roles: ['administrator'], firstName: 'Nadia', lastName: 'Lefèvre' },
  copil: { roles: ['copil'], firstName: 'Marc', lastName: 'Girard' },
} as const satisfies Record<string, PersonSpec>;
export type Cast = Record<keyof typeof CAST, Person>;

/** Makes people on the spec's server, by name: `people(request, { author: { roles: ['learner'] } })`. */
export async function people<K extends string>(request: APIRequestContext, specs: Record<K, PersonSpec>): Promise<Record<K, Person>> {
  const keys = Object.keys(specs) as K[];
  const response = await request.post('/v1/testing/people', {
    data: {
      people: keys.map((key) => ({
        key: key
          .toLowerCase()
          .replace(/[^a-z0-9-]/g, '-')
          .slice(0, 40),
        ...specs[key],
      })),
    },
    timeout: 60_000,
  });
  expect(response.status(), await response.text()).toBe(201);
  const made = ((await response.json()) as { data: { people: { id: string; email: string; password: string }[] } }).data.people;
  return Object.fromEntries(
    keys.map((key, index) => {
      const spec = specs[key];
      return [
        key,
        {
          ...made[index]!,
          firstName: spec.firstName ?? 'Camille',
          lastName: spec.lastName ?? 'Martin',
          roles: [...spec.roles],
        },
      ];
    }),
  ) as Record<K, Person>;
}

/**
 * The servers of this worker: one per spec file, started when the file's first test or hook asks
 * for it. While a file runs, the server of the next one (on the default settings) is already
 * starting from its own copy of the data folder, so that a file does not wait for its server.
 */
class ServerPool {
  private current: { key: string; server: TestServer } | undefined;
  private spare: Promise<TestServer> | undefined;
  private casts = new Map<string, Promise<Cast>>();

  async forFile(file: string, env: Record<string, string>): Promise<TestServer> {
    const key = `${file}\n${JSON.stringify(env)}`;
    if (this.current?.key !== key) {
      await this.stop();
      const spare = Object.keys(env).length === 0 ? this.spare : undefined;
      if (spare) this.spare = undefined;
      const server =
        (await spare?.catch(() => undefined)) ?? (await startServer({ template: process.env.E2E_TEMPLATE_DIR, env, label: 'spec' }));
      this.current = { key, server };
      // Read by the helpers that open the server's outbox (support.ts).
      process.env.E2E_DATA_DIR = server.dataDir;
      if (!this.spare) {
        const next = startServer({ template: process.env.E2E_TEMPLATE_DIR, label: 'spec' });
        next.catch(() => {});
        this.spare = next;
      }
    }
    return this.current.server;
  }

  cast(server: TestServer, request: APIRequestContext): Promise<Cast> {
    let made = this.casts.get(server.url);
    if (!made) {
      made = people(request, CAST);
      this.casts.set(server.url, made);
      made.catch(() => this.casts.delete(server.url));
    }
    return made;
  }

  async stop(): Promise<void> {
    const current = this.current;
    this.current = undefined;
    await current?.server.stop();
  }

  /** The worker ends: its server and the spare one stop. */
  async close(): Promise<void> {
    const spare = this.spare;
    this.spare = undefined;
    await Promise.all([this.stop(), spare?.then((server) => server.stop()).catch(() => {})]);
  }
}

export const test = base.extend<
  {
    /** Settings added to the spec's server (they start a server of their own for the file). */
    serverEnv: Record<string, string>;
    /** The spec file's own server: its address and its data folder. */
    server: TestServer;
    /** The spec's people (CAST), made once per spec file on its server. */
    cast: Cast;
  },
  { serverPool: ServerPool }
>({
  serverEnv: [{}, { option: true }],
  serverPool: [
    // Playwright reads a fixture's dependencies from its first parameter: this one has none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const pool = new ServerPool();
      await use(pool);
      await pool.close();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  server: [
    async ({ serverPool, serverEnv }, use, testInfo) => use(await serverPool.forFile(testInfo.file, serverEnv)),
    { timeout: 150_000 },
  ],
  baseURL: async ({ server }, use) => use(server.url),
  cast: async ({ serverPool, server, request }, use) => use(await serverPool.cast(server, request)),
});
