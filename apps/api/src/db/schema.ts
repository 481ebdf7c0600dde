import { sql } from 'drizzle-orm';
import {

  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { NotificationSettings, Preferences } from '@sutura/domain/preferences';

const id = () => uuid('id').primaryKey().default(sql`gen_random_uuid()`);
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

// Vocabularies: names are kept in both languages.
export const specialties = pgTable('specialties', {
  id: id(),
  code: text('code').notNull().unique(),
  nameFr: text('name_fr').notNull(),
  nameEn: text('name_en').notNull(),
  position: integer('position').notNull().default(0),
});

export const organs = pgTable('organs', {
  id: id(),
  code: text('code').notNull().unique(),
  nameFr: text('name_fr').notNull(),
  nameEn: text('name_en').notNull(),
  icon: text('icon').notNull(),
  position: integer('position').notNull().default(0),
});

export const surgeries = pgTable('surgeries', {
  id: id(),
  code: text('code').notNull().unique(),
  nameFr: text('name_fr').notNull(),
  nameEn: text('name_en').notNull(),
  organId: uuid('organ_id').references(() => organs.id, { onDelete: 'set null' }),
  position: integer('position').notNull().default(0),
});

export const surgerySteps = pgTable(
  'surgery_steps',
  {
    id: id(),
    surgeryId: uuid('surgery_id')
      .notNull()
      .references(() => surgeries.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    nameFr: text('name_fr').notNull(),
    nameEn: text('name_en').notNull(),
    position: integer('position').notNull(),
  },
  (t) => [uniqueIndex('surgery_steps_surgery_code').on(t.surgeryId, t.code)],
);

/** The public RPPS directory, imported from the official extract. */
export const rppsDirectory = pgTable('rpps_directory', {
  rpps: text('rpps').primaryKey(),
  lastName: text('last_name').notNull(),
  firstName: text('first_name').notNull(),
  profession: text('profession'),
  specialty: text('specialty'),
  importedAt: timestamp('imported_at', { withTimezone: true }).notNull().defaultNow(),
});

export const users = pgTable(
  'users',
  {
    id: id(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    roles: text('roles').array().notNull().default(sql`'{learner}'::text[]`),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    phone: text('phone'),
    country: text('country'),
    city: text('city'),
    careCentreType: text('care_centre_type'),
    rpps: text('rpps'),
    specialtyId: uuid('specialty_id').references(() => specialties.id, { onDelete: 'set null' }),
    yearsOfExperience: integer('years_of_experience'),
    yearsOfRoboticExperience: integer('years_of_robotic_experience'),
    robot: text('robot'),
    recorderBrand: text('recorder_brand'),
    preferences: jsonb('preferences').$type<Preferences>().notNull(),
    notificationSettings: jsonb('notification_settings').$type<NotificationSettings>().notNull(),
    avatarMediaId: uuid('avatar_media_id'),
    pushToken: text('push_token'),
    termsAcceptedAt: timestamp('terms_accepted_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_unique').on(t.email), uniqueIndex('users_rpps_unique').on(t.rpps)],
);

/** A signed-in session; the JWT names it, so revoking the row signs the token out. */
export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    device: text('device'),
    ip: text('ip'),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('sessions_user').on(t.userId)],
);

/** Codes mailed for email validation and password reset (hashed, 15 minutes, 5 tries). */
export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('verification_codes_user_purpose').on(t.userId, t.purpose)],
);

export const media = pgTable(
  'media',
  {
    id: id(),
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    storageKey: text('storage_key').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    width: integer('width'),
    height: integer('height'),
    createdAt: createdAt(),
  },
  (t) => [index('media_owner').on(t.ownerId)],
);

export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    params: jsonb('params').$type<Record<string, string | number>>().notNull().default({}),
    link: text('link'),
    status: text('status').notNull().default('unread'),
    createdAt: createdAt(),
  },
  (t) => [index('notifications_user_created').on(t.userId, t.createdAt)],
);

/** Devices a person has signed in from, to tell them about a new one. */
export const knownDevices = pgTable(
  'known_devices',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fingerprint: text('fingerprint').notNull(),
    firstSeenAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.fingerprint] })],
);

/** Who did what, when, from where. Actor ids survive account deletion as plain values. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    actorId: uuid('actor_id'),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    ip: text('ip'),
    details: jsonb('details').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_created').on(t.createdAt), index('audit_log_actor').on(t.actorId)],
);

/** Small key/value settings kept in the database (first-start markers and the like). */
export const appState = pgTable('app_state', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

