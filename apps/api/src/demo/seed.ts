import path from 'node:path';
import { count, eq, inArray } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Role } from '@sutura/domain/roles';
import { DEFAULT_NOTIFICATION_SETTINGS, DEFAULT_PREFERENCES } from '@sutura/domain/preferences';
import type { Db } from '../db/client.ts';
import { appState, specialties, users } from '../db/schema.ts';
import { hashPassword } from '../modules/auth/auth.service.ts';
import { importRppsFile } from '../modules/rpps/rpps-extract.ts';
import type { RppsService } from '../modules/rpps/rpps.service.ts';
import type { VocabularyService } from '../modules/vocabularies/vocabularies.service.ts';

export const RPPS_SAMPLE_FILE = path.join(import.meta.dirname, '../modules/rpps/sample/PS_LibreAcces_Personne_activite_sample.txt');

export const DEMO_PASSWORD = 'sutura2026';
/** Marks the demo history as made (app_state), written in the same transaction as its rows (history.ts). */
export const DEMO_HISTORY_MARKER = 'seed.demo-history';
export const DEMO_ACCOUNTS: { email: string; role: Role; firstName: string; lastName: string }[] = [
  { email: 'learner@sutura.local', role: 'learner', firstName: 'Camille', lastName: 'Martin' },
  { email: 'learner2@sutura.local', role: 'learner', firstName: 'Julien', lastName: 'Moreau' },
  { email: 'editor@sutura.local', role: 'editor', firstName: 'Hugo', lastName: 'Bernard' },
  { email: 'editor2@sutura.local', role: 'editor', firstName: 'Inès', lastName: 'Roussel' },
  { email: 'expert@sutura.local', role: 'expert', firstName: 'Claire', lastName: 'Dubois' },
  // The second reviewer of the demo history's double-reviewed cases (docs/double-review.md).
  { email: 'expert2@sutura.local', role: 'expert', firstName: 'Antoine', lastName: 'Mercier' },
  { email: 'admin@sutura.local', role: 'administrator', firstName: 'Nadia', lastName: 'Lefèvre' },
  { email: 'copil@sutura.local', role: 'copil', firstName: 'Marc', lastName: 'Girard' },
];

async function once(db: Db, key: string, run: () => Promise<void>): Promise<boolean> {
  const [done] = await db.select().from(appState).where(eq(appState.key, key));
  if (done) return false;
  await run();
  await db
    .insert(appState)
    .values({ key, value: { at: new Date().toISOString() } })
    .onConflictDoNothing();
  return true;
}

/** Reference data at every start; the RPPS sample and demo accounts on the first embedded start. */
export async function seed(deps: { db: Db; vocabularies: VocabularyService; rpps: RppsService; demoData: boolean; log: Logger }) {
  const { db, log } = deps;
  await deps.vocabularies.seed();
  let createdDemo = false;
  if (deps.demoData) {
    await once(db, 'seed.rpps-sample', async () => {
      if ((await deps.rpps.count()) > 0) return;
      const result = await importRppsFile(RPPS_SAMPLE_FILE, (rows) => deps.rpps.upsertBatch(rows));
      log.info(result, 'RPPS sample directory imported');
    });
    const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(users);
    if (n === 0) {
      createdDemo = await once(db, 'seed.demo-accounts', () => createDemoAccounts(db));
    }
  }
  return { createdDemo };
}

/**
 * Whether the demo history is still to be made: not made yet, and its learner and expert are here
 * (history.ts makes nothing otherwise). Asked before the server answers, so that the dashboards
 * say from the first page that the demo is being prepared (demo/preparation.ts).
 */
export async function demoHistoryWanted(db: Db): Promise<boolean> {
  const [done] = await db.select({ key: appState.key }).from(appState).where(eq(appState.key, DEMO_HISTORY_MARKER));
  if (done) return false;
  const [{ n } = { n: 0 }] = await db
    .select({ n: count() })
    .from(users)
    .where(inArray(users.email, ['learner@sutura.local', 'expert@sutura.local']));
  return n === 2;
}

async function createDemoAccounts(db: Db): Promise<void> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const [specialty] = await db.select().from(specialties).where(eq(specialties.code, 'urology'));
  for (const account of DEMO_ACCOUNTS) {
    await db
      .insert(users)
      .values({
        email: account.email,
        passwordHash,
        roles: [account.role],
        firstName: account.firstName,
        lastName: account.lastName,
        emailVerifiedAt: new Date(),
        termsAcceptedAt: new Date(),
        specialtyId: specialty?.id ?? null,
        country: 'France',
        city: 'Lyon',
        careCentreType: 'public',
        phone: '+33 612345678',
        yearsOfExperience: 8,
        yearsOfRoboticExperience: 3,
        robot: 'da Vinci Xi',
        preferences: DEFAULT_PREFERENCES,
        notificationSettings: DEFAULT_NOTIFICATION_SETTINGS,
      })
      .onConflictDoNothing();
  }
}
