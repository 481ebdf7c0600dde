import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '@sutura/domain/errors';
import { isLuhnValid, isRppsFormatValid } from '@sutura/domain/rpps';
import { rppsDirectory } from '../src/db/schema.ts';
import { importRppsFile, type RppsPerson } from '../src/modules/rpps/rpps-extract.ts';
import { RPPS_SAMPLE_FILE } from '../src/demo/seed.ts';
import { createTestContext, SAMPLE_PEOPLE, type TestContext } from './harness.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

const checkUrl = (rpps: string, lastName: string, firstName: string, lang?: 'fr' | 'en') =>
  `/v1/rppsUsers/check/${encodeURIComponent(rpps)}/${encodeURIComponent(lastName)}/${encodeURIComponent(firstName)}${lang ? `?langCode=${lang}` : ''}`;

/** The 11-digit number that starts with `prefix` (10 digits) and passes Luhn. */
function withCheckDigit(prefix: string): string {
  for (let d = 0; d <= 9; d++) if (isLuhnValid(`${prefix}${d}`)) return `${prefix}${d}`;
  throw new Error('unreachable');
}

/** Expects the same error in both languages, with the catalogue's exact texts. */
async function expectRefusal(rpps: string, lastName: string, firstName: string, code: keyof typeof ERRORS) {
  for (const lang of ['en', 'fr'] as const) {
    const res = await ctx.inject({ method: 'GET', url: checkUrl(rpps, lastName, firstName, lang) });
    expect(res.statusCode, res.body).toBe(ERRORS[code].status);
    expect(res.json()).toEqual({ success: false, error: { code, message: ERRORS[code][lang] } });
  }
}

describe('GET /v1/rppsUsers/check', () => {
  it('answers a person of the directory with their number, names, profession and specialty', async () => {
    const person = SAMPLE_PEOPLE[0];
    const res = await ctx.inject({ method: 'GET', url: checkUrl(person.rpps, person.lastName, person.firstName) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      data: {
        rpps: '10999901019',
        lastName: 'LEFÈVRE-DURAND',
        firstName: 'Hélène',
        profession: 'Médecin',
        specialty: 'Chirurgie urologique',
      },
    });
  });

  it('matches names without regard to case, accents, hyphens or spacing', async () => {
    const typed: [string, string, string][] = [
      ['10999901019', 'lefevre durand', 'HELENE'],
      ['10999901019', 'Lefèvre-Durand', 'hélène'],
      ['10999901027', 'marchand roux', 'jean francois'],
      ['10999901027', 'MARCHAND-ROUX', 'Jean François'],
      ['10999901035', 'de la valliere', 'ELOISE'],
      ['10999901035', 'De-La-Vallière', 'éloïse'],
    ];
    for (const [rpps, lastName, firstName] of typed) {
      const res = await ctx.inject({ method: 'GET', url: checkUrl(rpps, lastName, firstName) });
      expect(res.statusCode, `${lastName} ${firstName}: ${res.body}`).toBe(200);
      expect(res.json().data.rpps).toBe(rpps);
    }
  });

  it('refuses a number that is not 11 digits with RPPS_FORMAT, and a wrong check digit with RPPS_CHECK_DIGIT', async () => {
    const person = SAMPLE_PEOPLE[0];
    const luhnFailing = `${person.rpps.slice(0, 10)}${(Number(person.rpps[10]) + 1) % 10}`;
    expect(isLuhnValid(luhnFailing)).toBe(false);
    for (const rpps of ['1099990101', 'ABCDEFGHIJK', '1099990101X', '109999010190']) {
      await expectRefusal(rpps, person.lastName, person.firstName, 'RPPS_FORMAT');
    }
    await expectRefusal(luhnFailing, person.lastName, person.firstName, 'RPPS_CHECK_DIGIT');
  });

  it('refuses a well-formed number that is not in the directory with RPPS_NOT_FOUND', async () => {
    const unknown = withCheckDigit('1234567890');
    expect(isRppsFormatValid(unknown)).toBe(true);
    await expectRefusal(unknown, 'MARTIN', 'Paul', 'RPPS_NOT_FOUND');
  });

  it('refuses a number whose names do not match with RPPS_NAME_MISMATCH', async () => {
    await expectRefusal(SAMPLE_PEOPLE[0].rpps, 'MARCHAND-ROUX', 'Hélène', 'RPPS_NAME_MISMATCH');
    await expectRefusal(SAMPLE_PEOPLE[0].rpps, 'LEFÈVRE-DURAND', 'Jean-François', 'RPPS_NAME_MISMATCH');
    await expectRefusal(SAMPLE_PEOPLE[0].rpps, 'LEFÈVRE', 'Hélène', 'RPPS_NAME_MISMATCH');
  });

  it('refuses a number someone has signed up with using RPPS_TAKEN', async () => {
    const person = SAMPLE_PEOPLE[1];
    const before = await ctx.inject({ method: 'GET', url: checkUrl(person.rpps, person.lastName, person.firstName) });
    expect(before.statusCode).toBe(200);
    const signUp = await ctx.inject({
      method: 'POST',
      url: '/v1/users',
      body: await ctx.signUpBody(person, 'jf.marchand@example.org'),
    });
    expect(signUp.statusCode, signUp.body).toBe(201);
    await expectRefusal(person.rpps, person.lastName, person.firstName, 'RPPS_TAKEN');
    // The other people of the directory are still free.
    const other = SAMPLE_PEOPLE[2];
    expect((await ctx.inject({ method: 'GET', url: checkUrl(other.rpps, other.lastName, other.firstName) })).statusCode).toBe(200);
  });
});

describe('the directory import', () => {
  it('updates a person imported twice instead of adding them again', async () => {
    const rpps = withCheckDigit('1099990999');
    const before = await ctx.services.rpps.count();
    await ctx.services.rpps.upsertBatch([
      { rpps, lastName: 'DUPONT', firstName: 'Anne', profession: 'Médecin', specialty: 'Chirurgie thoracique' },
    ]);
    // A later extract renames her and has no specialty on this row: the name changes, the specialty stays.
    await ctx.services.rpps.upsertBatch([{ rpps, lastName: 'DUPONT-MOREL', firstName: 'Anne', profession: 'Médecin', specialty: null }]);
    expect(await ctx.services.rpps.count()).toBe(before + 1);
    const rows = await ctx.database.db.select().from(rppsDirectory).where(eq(rppsDirectory.rpps, rpps));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ lastName: 'DUPONT-MOREL', firstName: 'Anne', specialty: 'Chirurgie thoracique' });

    const renamed = await ctx.inject({ method: 'GET', url: checkUrl(rpps, 'dupont morel', 'anne') });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const oldName = await ctx.inject({ method: 'GET', url: checkUrl(rpps, 'DUPONT', 'Anne') });
    expect(oldName.json().error.code).toBe('RPPS_NAME_MISMATCH');
  });

  it('reads the sample extract with the counts its README states, and a second import adds no one', async () => {
    const readme = await readFile(path.join(path.dirname(RPPS_SAMPLE_FILE), 'README.md'), 'utf8');
    const stated = /holds (\d+) data rows: (\d+) for (\d+) RPPS-identified people/.exec(readme.replace(/\s+/g, ' '));
    expect(stated, 'the README states the counts').not.toBeNull();
    const [, rows, , people] = stated!.map(Number);

    const seen: RppsPerson[] = [];
    const result = await importRppsFile(RPPS_SAMPLE_FILE, async (batch) => {
      seen.push(...batch);
    });
    expect(result).toEqual({ rows, people });
    expect(new Set(seen.map((p) => p.rpps)).size).toBe(people);
    expect(seen.every((p) => isRppsFormatValid(p.rpps))).toBe(true);
    expect(seen.find((p) => p.rpps === SAMPLE_PEOPLE[0].rpps)).toEqual({
      rpps: '10999901019',
      lastName: 'LEFÈVRE-DURAND',
      firstName: 'Hélène',
      profession: 'Médecin',
      specialty: 'Chirurgie urologique',
    });

    // The harness imported the sample once already; importing it again changes no count.
    const before = await ctx.services.rpps.count();
    await importRppsFile(RPPS_SAMPLE_FILE, (batch) => ctx.services.rpps.upsertBatch(batch));
    expect(await ctx.services.rpps.count()).toBe(before);
  });
});
