import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/** One person of the public RPPS directory, as the sign-up check needs it. */
export interface RppsPerson {
  rpps: string;
  lastName: string;
  firstName: string;
  profession: string | null;
  specialty: string | null;
}

/**
 * Columns of `PS_LibreAcces_Personne_activite_<date>.txt` that the import reads. They are found by
 * name because the publisher has added and renamed columns over the years.
 */
const COLUMNS = {
  idType: "Type d'identifiant PP",
  id: 'Identifiant PP',
  lastName: "Nom d'exercice",
  firstName: "Prénom d'exercice",
  profession: 'Libellé profession',
  expertiseType: 'Libellé type savoir-faire',
  expertise: 'Libellé savoir-faire',
} as const;

type ColumnKey = keyof typeof COLUMNS;
type ColumnIndex = Record<ColumnKey, number>;

const RPPS_ID_TYPE = '8';
const RPPS_ID = /^\d{11}$/;
const ORDINAL_SPECIALTY = 'Spécialité ordinale';
const DEFAULT_BATCH_SIZE = 1000;

interface PersonDraft extends RppsPerson {
  /** True once the specialty comes from a "Spécialité ordinale" row, which no later row replaces. */
  ordinal: boolean;
}

interface ReadStats {
  rows: number;
}

function columnIndex(headerLine: string): ColumnIndex {
  const names = headerLine.split('|').map((name) => name.trim());
  const index = {} as ColumnIndex;
  const missing: string[] = [];
  for (const [key, name] of Object.entries(COLUMNS) as [ColumnKey, string][]) {
    const position = names.indexOf(name);
    if (position < 0) missing.push(name);
    index[key] = position;
  }
  if (missing.length > 0) {
    throw new Error(`RPPS extract: missing column(s) ${missing.map((m) => `"${m}"`).join(', ')} in the header row`);
  }
  return index;
}

/** Splits a byte (or text) stream into lines without holding more than one chunk in memory. */
async function* lineGroups(input: AsyncIterable<Buffer | string>): AsyncGenerator<string[]> {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  for await (const chunk of input) {
    const text = pending + (typeof chunk === 'string' ? chunk : decoder.write(chunk));
    const lines: string[] = [];
    let start = 0;
    let end = text.indexOf('\n');
    while (end !== -1) {
      lines.push(text.slice(start, end));
      start = end + 1;
      end = text.indexOf('\n', start);
    }
    pending = text.slice(start);
    if (lines.length > 0) yield lines;
  }
  pending += decoder.end();
  if (pending !== '') yield [pending];
}

const nonEmpty = (value: string | undefined): string | null => {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
};

function toDraft(cells: string[], index: ColumnIndex): PersonDraft | null {
  if (cells[index.idType]?.trim() !== RPPS_ID_TYPE) return null;
  const rpps = cells[index.id]?.trim() ?? '';
  if (!RPPS_ID.test(rpps)) return null;
  const specialty = nonEmpty(cells[index.expertise]);
  return {
    rpps,
    lastName: cells[index.lastName]?.trim() ?? '',
    firstName: cells[index.firstName]?.trim() ?? '',
    profession: nonEmpty(cells[index.profession]),
    specialty,
    ordinal: specialty !== null && cells[index.expertiseType]?.trim() === ORDINAL_SPECIALTY,
  };
}

/** Folds another activity row of the same person into `into`, preferring the ordinal specialty. */
function merge(into: PersonDraft, row: PersonDraft): void {
  into.profession ??= row.profession;
  if (!into.ordinal && row.specialty !== null && (row.ordinal || into.specialty === null)) {
    into.specialty = row.specialty;
    into.ordinal = row.ordinal;
  }
}

const toPerson = ({ rpps, lastName, firstName, profession, specialty }: PersonDraft): RppsPerson => ({
  rpps,
  lastName,
  firstName,
  profession,
  specialty,
});

async function* readBatches(
  input: AsyncIterable<Buffer | string>,
  batchSize: number,
  stats: ReadStats,
): AsyncGenerator<RppsPerson[]> {
  let index: ColumnIndex | null = null;
  let lastColumn = 0;
  // Rows of one person are usually adjacent: a person is complete when the next id appears. The
  // map also merges non-adjacent rows within a batch; a person whose rows straddle two batches is
  // upserted twice, which the directory's primary key on rpps absorbs (the later row wins).
  let current: PersonDraft | null = null;
  let batch = new Map<string, PersonDraft>();
  const ready: RppsPerson[][] = [];

  const commit = (draft: PersonDraft) => {
    const known = batch.get(draft.rpps);
    if (known) {
      merge(known, draft);
      return;
    }
    if (batch.size >= batchSize) {
      ready.push([...batch.values()].map(toPerson));
      batch = new Map();
    }
    batch.set(draft.rpps, draft);
  };

  for await (const lines of lineGroups(input)) {
    for (let line of lines) {
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (index === null) {
        if (line.charCodeAt(0) === 0xfeff) line = line.slice(1);
        if (line.trim() === '') continue;
        index = columnIndex(line);
        lastColumn = Math.max(...Object.values(index));
        continue;
      }
      if (line.trim() === '') continue;
      stats.rows++;
      const draft = toDraft(line.split('|', lastColumn + 1), index);
      if (draft === null) continue;
      if (current?.rpps === draft.rpps) {
        merge(current, draft);
      } else {
        if (current) commit(current);
        current = draft;
      }
    }
    while (ready.length > 0) yield ready.shift() as RppsPerson[];
  }

  if (index === null) throw new Error('RPPS extract: the file is empty, no header row found');
  if (current) commit(current);
  while (ready.length > 0) yield ready.shift() as RppsPerson[];
  if (batch.size > 0) yield [...batch.values()].map(toPerson);
}

/**
 * Streams the RPPS public extract (`PS_LibreAcces_Personne_activite_<date>.txt`: UTF-8, `|`
 * separated, one row per activity) and yields the RPPS-identified people in batches of at most
 * `batchSize`, each person once per batch.
 */
export async function* readRppsExtract(
  input: NodeJS.ReadableStream | Readable,
  opts?: { batchSize?: number },
): AsyncGenerator<RppsPerson[]> {
  const batchSize = opts?.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new Error(`RPPS extract: invalid batch size ${batchSize}`);
  yield* readBatches(input as AsyncIterable<Buffer | string>, batchSize, { rows: 0 });
}

/**
 * Imports an extract file batch by batch. `rows` counts the data rows read (every activity, of
 * every identifier type); `people` counts the people handed to `upsertBatch`.
 */
export async function importRppsFile(
  path: string,
  upsertBatch: (rows: RppsPerson[]) => Promise<void>,
): Promise<{ rows: number; people: number }> {
  const stats: ReadStats = { rows: 0 };
  let people = 0;
  const input = createReadStream(path, { highWaterMark: 1024 * 1024 });
  for await (const batch of readBatches(input, DEFAULT_BATCH_SIZE, stats)) {
    await upsertBatch(batch);
    people += batch.length;
  }
  return { rows: stats.rows, people };
}
