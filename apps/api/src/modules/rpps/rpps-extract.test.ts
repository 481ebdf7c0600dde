import { createReadStream, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isLuhnValid } from '@sutura/domain/rpps';
import { importRppsFile, readRppsExtract, type RppsPerson } from './rpps-extract.ts';

const SAMPLE = fileURLToPath(new URL('./sample/PS_LibreAcces_Personne_activite_sample.txt', import.meta.url));
const sampleText = readFileSync(SAMPLE, 'utf8');

async function collect(input: Readable, batchSize?: number): Promise<RppsPerson[][]> {
  const batches: RppsPerson[][] = [];
  for await (const batch of readRppsExtract(input, { batchSize })) batches.push(batch);
  return batches;
}

/** Cuts bytes at fixed offsets so that chunk edges fall inside UTF-8 characters and CRLF pairs. */
function chunked(bytes: Buffer, size: number): Readable {
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return Readable.from(chunks);
}

const byRpps = (people: RppsPerson[]) => new Map(people.map((p) => [p.rpps, p]));

describe('readRppsExtract', () => {
  it('reads the sample: one entry per RPPS person, ADELI rows skipped', async () => {
    const batches = await collect(createReadStream(SAMPLE));
    expect(batches).toHaveLength(1);
    const people = batches[0] ?? [];
    expect(people).toHaveLength(25);
    expect(new Set(people.map((p) => p.rpps)).size).toBe(25);
    expect(people.every((p) => /^10\d{9}$/.test(p.rpps))).toBe(true);
    expect(people.filter((p) => !isLuhnValid(p.rpps))).toEqual([]);
    expect(people.some((p) => p.lastName === 'GARNIER-ROYER' || p.lastName === 'PRÉVOST')).toBe(false);
  });

  it('keeps accents, hyphens, apostrophes and spaces in names', async () => {
    const people = byRpps((await collect(createReadStream(SAMPLE))).flat());
    expect(people.get('10999901019')).toEqual({
      rpps: '10999901019',
      lastName: 'LEFÈVRE-DURAND',
      firstName: 'Hélène',
      profession: 'Médecin',
      specialty: 'Chirurgie urologique',
    });
    expect(people.get('10999901027')?.firstName).toBe('Jean-François');
    expect(people.get('10999901035')).toMatchObject({ lastName: 'DE LA VALLIÈRE', firstName: 'Éloïse' });
    expect(people.get('10999901043')?.lastName).toBe("N'DIAYE-BERTHIER");
  });

  it('prefers the "Spécialité ordinale" row, merging rows that are not adjacent', async () => {
    const people = byRpps((await collect(createReadStream(SAMPLE))).flat());
    // Each of these has a "DESC non qualifiant" row before the ordinal one; FAUCHEUX's rows are apart.
    expect(people.get('10999901068')?.specialty).toBe('Chirurgie urologique');
    expect(people.get('10999901084')?.specialty).toBe('Chirurgie urologique');
    expect(people.get('10999901134')?.specialty).toBe('Chirurgie viscérale et digestive');
    expect(people.get('10999901241')).toMatchObject({ profession: 'Sage-Femme', specialty: null });
  });

  it('yields batches of at most batchSize', async () => {
    const batches = await collect(createReadStream(SAMPLE), 4);
    expect(batches.length).toBeGreaterThanOrEqual(7);
    for (const batch of batches) {
      expect(batch.length).toBeLessThanOrEqual(4);
      expect(new Set(batch.map((p) => p.rpps)).size).toBe(batch.length);
    }
    expect(new Set(batches.flat().map((p) => p.rpps)).size).toBe(25);
  });

  it('handles a UTF-8 BOM and CRLF line ends, whatever the chunk boundaries', async () => {
    const expected = (await collect(createReadStream(SAMPLE))).flat();
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(sampleText.replace(/\n/g, '\r\n'))]);
    for (const size of [7, 64, 4096]) {
      const people = (await collect(chunked(bytes, size))).flat();
      expect(people, `chunks of ${size} bytes`).toEqual(expected);
    }
  });

  it('finds columns by name, not by position', async () => {
    const lines = sampleText
      .trimEnd()
      .split('\n')
      .map((line) => line.split('|'));
    // Swaps the last-name and first-name columns, header included.
    const swapped = lines.map((cells) => {
      const copy = [...cells];
      [copy[7], copy[8]] = [cells[8] ?? '', cells[7] ?? ''];
      return copy.join('|');
    });
    const people = byRpps((await collect(Readable.from([swapped.join('\n')]))).flat());
    expect(people.get('10999901019')).toMatchObject({ lastName: 'LEFÈVRE-DURAND', firstName: 'Hélène' });
  });

  it('refuses a file whose header lacks a required column', async () => {
    const [header = '', ...rows] = sampleText.split('\n');
    const broken = [header.replace("Nom d'exercice|", "Nom d'usage|"), ...rows].join('\n');
    await expect(collect(Readable.from([broken]))).rejects.toThrow(/missing column.*"Nom d'exercice"/);
  });

  it('refuses an empty file', async () => {
    await expect(collect(Readable.from([]))).rejects.toThrow(/empty/);
  });
});

describe('importRppsFile', () => {
  it('counts rows read and people upserted', async () => {
    const upserted: RppsPerson[] = [];
    const result = await importRppsFile(SAMPLE, async (batch) => {
      upserted.push(...batch);
    });
    expect(result).toEqual({ rows: 41, people: 25 });
    expect(upserted).toHaveLength(25);
  });

  it('stops and reports the error when an upsert fails', async () => {
    await expect(
      importRppsFile(SAMPLE, async () => {
        throw new Error('database down');
      }),
    ).rejects.toThrow('database down');
  });
});
