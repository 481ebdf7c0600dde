import { parseArgs } from 'node:util';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { emailField, passwordField } from '@sutura/domain/rules';
import { DEFAULT_NOTIFICATION_SETTINGS, DEFAULT_PREFERENCES } from '@sutura/domain/preferences';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { EmbeddedDatabaseError } from '../db/embedded-server.ts';
import { users } from '../db/schema.ts';
import { createAudit } from '../modules/audit/audit.service.ts';
import { hashPassword } from '../modules/auth/auth.service.ts';

/** `npm run admin:create -- --email … --password … [--first-name …] [--last-name …]` */
const { values } = parseArgs({
  options: {
    email: { type: 'string' },
    password: { type: 'string' },
    'first-name': { type: 'string', default: 'Admin' },
    'last-name': { type: 'string', default: 'Sutura' },
  },
});
const email = emailField().safeParse(values.email);
const password = passwordField().safeParse(values.password);
if (!email.success || !password.success) {
  process.stderr.write('Usage: npm run admin:create -- --email EMAIL --password PASSWORD (8 characters or more, with a digit)\n');
  process.exit(2);
}

const config = loadConfig();
// On the embedded database, a running Sutura's server is used; otherwise one is started for the command.
const database = await openDatabase({ url: config.databaseUrl, dataDir: path.join(config.dataDir, 'db'), attach: true }).catch(
  (err: unknown) => {
    if (!(err instanceof EmbeddedDatabaseError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  },
);
try {
  const audit = createAudit(database.db);
  const [existing] = await database.db.select().from(users).where(eq(users.email, email.data));
  if (existing) {
    const roles = Array.from(new Set([...existing.roles, 'administrator']));
    await database.db
      .update(users)
      .set({ roles, passwordHash: await hashPassword(password.data) })
      .where(eq(users.id, existing.id));
    await audit(null, 'user.roles_changed', 'user', existing.id, null, { roles, by: 'cli' });
    process.stdout.write(`${email.data} is now an administrator.\n`);
  } else {
    const [row] = await database.db
      .insert(users)
      .values({
        email: email.data,
        passwordHash: await hashPassword(password.data),
        roles: ['administrator'],
        firstName: values['first-name']!,
        lastName: values['last-name']!,
        emailVerifiedAt: new Date(),
        preferences: DEFAULT_PREFERENCES,
        notificationSettings: DEFAULT_NOTIFICATION_SETTINGS,
      })
      .returning();
    await audit(null, 'user.created_by_admin', 'user', row!.id, null, { roles: ['administrator'], by: 'cli' });
    process.stdout.write(`Administrator ${email.data} created.\n`);
  }
} finally {
  await database.close();
}
