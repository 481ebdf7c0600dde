import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DEFAULT_NOTIFICATION_SETTINGS, DEFAULT_PREFERENCES } from '@sutura/domain/preferences';
import { LANG_PREFERENCES, THEME_PREFERENCES } from '@sutura/domain/preference-values';
import { ROLES } from '@sutura/domain/roles';
import type { Db } from '../../db/client.ts';
import { specialties, users } from '../../db/schema.ts';
import { ok } from '../../http/envelope.ts';
import { testPeoplePasswordHash } from '../auth/auth.service.ts';

/** The password of every person made here. */
export const TEST_PASSWORD = 'sutura2026';

const personInput = z.object({
  /** A short name for the person in the test ("learner", "second-expert"); it starts their address. */
  key: z
    .string()
    .regex(/^[a-z0-9-]{1,40}$/)
    .default('person'),
  roles: z.array(z.enum(ROLES)).min(1).max(ROLES.length),
  firstName: z.string().trim().min(1).max(100).default('Camille'),
  lastName: z.string().trim().min(1).max(100).default('Martin'),
  langCode: z.enum(LANG_PREFERENCES).default('auto'),
  theme: z.enum(THEME_PREFERENCES).default(DEFAULT_PREFERENCES.theme),
  /** An address chosen by the test (a setting may name it before the person exists); else one of its own. */
  email: z.email().max(254).optional(),
  /** Without the specialty of the demo accounts (urology). */
  noSpecialty: z.boolean().default(false),
});

const peopleBody = z.object({ people: z.array(personInput).min(1).max(20) });

/**
 * People made for one end-to-end test, with a profile like the demo accounts' (validated, terms
 * accepted, urology) and an address of their own, so that no test signs in as someone another
 * test uses. Registered only when the server runs the test suite (TEST_SEEDING=on, which the
 * configuration accepts with NODE_ENV=test only): elsewhere the route does not exist.
 */
export function testingRoutes(deps: { db: Db }): FastifyPluginAsyncZod {
  // Hidden from /v1/docs, which documents the product's API.
  return async (app) => {
    app.post('/testing/people', { config: { access: 'public' }, schema: { hide: true, body: peopleBody } }, async (request, reply) => {
      const passwordHash = await testPeoplePasswordHash(TEST_PASSWORD);
      const [specialty] = await deps.db.select({ id: specialties.id }).from(specialties).where(eq(specialties.code, 'urology'));
      const made = [];
      for (const person of request.body.people) {
        const email = person.email?.toLowerCase() ?? `${person.key}-${randomBytes(6).toString('hex')}@e2e.sutura.test`;
        const [row] = await deps.db
          .insert(users)
          .values({
            email,
            passwordHash,
            roles: person.roles,
            firstName: person.firstName,
            lastName: person.lastName,
            emailVerifiedAt: new Date(),
            termsAcceptedAt: new Date(),
            specialtyId: person.noSpecialty ? null : (specialty?.id ?? null),
            country: 'France',
            city: 'Lyon',
            careCentreType: 'public',
            phone: '+33 612345678',
            yearsOfExperience: 8,
            yearsOfRoboticExperience: 3,
            robot: 'da Vinci Xi',
            preferences: { ...DEFAULT_PREFERENCES, langCode: person.langCode, theme: person.theme },
            notificationSettings: DEFAULT_NOTIFICATION_SETTINGS,
          })
          .returning({ id: users.id });
        made.push({ key: person.key, id: row!.id, email, password: TEST_PASSWORD });
      }
      return reply.status(201).send(ok({ people: made }));
    });
  };
}
