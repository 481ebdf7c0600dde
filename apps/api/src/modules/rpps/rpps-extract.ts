import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';

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

/** "Type d'identifiant PP" 8 is an RPPS number; 0 is an ADELI number, which is skipped. */
const RPPS_ID_TYPE = Buffer.from('8');
const RPPS_LENGTH = 11;
const ORDINAL_SPECIALTY = Buffer.from('Spécialité ordinale');
const DEFAULT_BATCH_SIZE = 1000;
const READ_SIZE = 64 * 1024;
/** Professions and specialties number a few hundred; past this, labels are no longer shared. */
const MAX_SHARED_LABELS = 10_000;

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const PIPE = 0x7c;
const SPACE = 0x20;
const TAB = 0x09;

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

/**
 * Reads the cells of one activity row straight from the file's bytes and decodes only those the
 * directory keeps: decoding whole rows into strings made V8 grow its young generation past 100 MB
 * on the full extract. `|` and `\n` never occur inside a UTF-8 sequence, so bytes split safely.
 */
class RowReader {
  readonly #index: ColumnIndex;
  /** Start and end offset of each cell up to the last column read, trimmed of spaces. */
  readonly #bounds: Int32Array;
  readonly #labels = new Map<string, string>();
  #buf: Buffer = Buffer.alloc(0);

  constructor(index: ColumnIndex) {
    this.#index = index;
    this.#bounds = new Int32Array(2 * (Math.max(...Object.values(index)) + 1));
  }

  /** Locates the cells of the row buf[start, end); a short row leaves its missing cells empty. */
  load(buf: Buffer, start: number, end: number): void {
    this.#buf = buf;
    const bounds = this.#bounds;
    let i = start;
    for (let k = 0; k < bounds.length; k += 2) {
      let cellStart = i;
      while (i < end && buf[i] !== PIPE) i++;
      let cellEnd = i;
      while (cellStart < cellEnd && (buf[cellStart] === SPACE || buf[cellStart] === TAB)) cellStart++;
      while (cellEnd > cellStart && (buf[cellEnd - 1] === SPACE || buf[cellEnd - 1] === TAB)) cellEnd--;
      bounds[k] = cellStart;
      bounds[k + 1] = cellEnd;
      if (i < end) i++;
    }
  }

  #is(key: ColumnKey, expected: Buffer): boolean {
    const k = 2 * this.#index[key];
    const start = this.#bounds[k] ?? 0;
    const end = this.#bounds[k + 1] ?? 0;
    return end - start === expected.length && this.#buf.compare(expected, 0, expected.length, start, end) === 0;
  }

  text(key: ColumnKey): string {
    const k = 2 * this.#index[key];
    return this.#buf.toString('utf8', this.#bounds[k], this.#bounds[k + 1]);
  }

  /** A label shared by many people is stored once, so a batch holds one copy of "Médecin". */
  label(key: ColumnKey): string | null {
    const text = this.text(key);
    if (text === '') return null;
    const shared = this.#labels.get(text);
    if (shared !== undefined) return shared;
    if (this.#labels.size < MAX_SHARED_LABELS) this.#labels.set(text, text);
    return text;
  }

  /** The row's RPPS number, or null for an ADELI row or a malformed identifier. */
  rpps(): string | null {
    if (!this.#is('idType', RPPS_ID_TYPE)) return null;
    const k = 2 * this.#index.id;
    const start = this.#bounds[k] ?? 0;
    const end = this.#bounds[k + 1] ?? 0;
    if (end - start !== RPPS_LENGTH) return null;
    for (let i = start; i < end; i++) {
      const byte = this.#buf[i] ?? 0;
      if (byte < 0x30 || byte > 0x39) return null;
    }
    return this.#buf.toString('latin1', start, end);
  }

  isOrdinalSpecialty(): boolean {
    return this.#is('expertiseType', ORDINAL_SPECIALTY);
  }
}

/**
 * Streams the RPPS public extract (`PS_LibreAcces_Personne_activite_<date>.txt`: UTF-8, `|`
 * separated, a header row, one row per activity) and yields the RPPS-identified people in batches
 * of at most `batchSize`, each person once per batch. A person's specialty comes from their
 * "Spécialité ordinale" row when they have one.
 */
async function* readBatches(input: AsyncIterable<Buffer | string>, batchSize: number, stats: ReadStats): AsyncGenerator<RppsPerson[]> {
  let reader: RowReader | null = null;
  // Rows of one person are usually adjacent, so a person is complete when the next id appears.
  // The batch map also merges rows that are apart within a batch; a person whose rows straddle two
  // batches is upserted twice, which the directory's primary key on rpps absorbs.
  let current: RppsPerson | null = null;
  let currentOrdinal = false;
  let batch = new Map<string, RppsPerson>();
  let ordinalInBatch = new Set<string>();
  const ready: RppsPerson[][] = [];

  const commitCurrent = () => {
    if (current === null) return;
    const known = batch.get(current.rpps);
    if (known) {
      known.profession ??= current.profession;
      const knownOrdinal = ordinalInBatch.has(known.rpps);
      if (!knownOrdinal && current.specialty !== null && (currentOrdinal || known.specialty === null)) {
        known.specialty = current.specialty;
        if (currentOrdinal) ordinalInBatch.add(known.rpps);
      }
      return;
    }
    if (batch.size >= batchSize) {
      ready.push([...batch.values()]);
      batch = new Map();
      ordinalInBatch = new Set();
    }
    batch.set(current.rpps, current);
    if (currentOrdinal) ordinalInBatch.add(current.rpps);
  };

  const line = (buf: Buffer, start: number, end: number) => {
    if (end > start && buf[end - 1] === CARRIAGE_RETURN) end--;
    if (reader === null) {
      let header = buf.toString('utf8', start, end);
      if (header.charCodeAt(0) === 0xfeff) header = header.slice(1);
      if (header.trim() !== '') reader = new RowReader(columnIndex(header));
      return;
    }
    let blank = true;
    for (let i = start; i < end && blank; i++) blank = buf[i] === SPACE || buf[i] === TAB;
    if (blank) return;

    stats.rows++;
    reader.load(buf, start, end);
    const rpps = reader.rpps();
    if (rpps === null) return;
    if (current?.rpps === rpps) {
      // Another activity of the person being read: it can only supply a better specialty.
      current.profession ??= reader.label('profession');
      if (!currentOrdinal) {
        const specialty = reader.label('expertise');
        const ordinal = specialty !== null && reader.isOrdinalSpecialty();
        if (ordinal || (specialty !== null && current.specialty === null)) {
          current.specialty = specialty;
          currentOrdinal = ordinal;
        }
      }
      return;
    }
    commitCurrent();
    const specialty = reader.label('expertise');
    current = {
      rpps,
      lastName: reader.text('lastName'),
      firstName: reader.text('firstName'),
      profession: reader.label('profession'),
      specialty,
    };
    currentOrdinal = specialty !== null && reader.isOrdinalSpecialty();
  };

  // The start of a line cut by a chunk edge waits here until its end arrives. It is copied because
  // the source may reuse a chunk's memory once the loop asks for the next one.
  let pending: Buffer[] = [];
  for await (const chunk of input) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let end = bytes.indexOf(NEWLINE);
    if (end === -1) {
      pending.push(Buffer.from(bytes));
      continue;
    }
    let start = 0;
    if (pending.length > 0) {
      const cut = Buffer.concat([...pending, bytes.subarray(0, end)]);
      line(cut, 0, cut.length);
      pending = [];
      start = end + 1;
      end = bytes.indexOf(NEWLINE, start);
    }
    while (end !== -1) {
      line(bytes, start, end);
      start = end + 1;
      end = bytes.indexOf(NEWLINE, start);
    }
    if (start < bytes.length) pending.push(Buffer.from(bytes.subarray(start)));
    while (ready.length > 0) yield ready.shift() as RppsPerson[];
  }
  if (pending.length > 0) {
    const last = Buffer.concat(pending);
    line(last, 0, last.length);
  }

  if (reader === null) throw new Error('RPPS extract: the file is empty, no header row found');
  commitCurrent();
  while (ready.length > 0) yield ready.shift() as RppsPerson[];
  if (batch.size > 0) yield [...batch.values()];
}

/**
 * Streams the RPPS public extract and yields its RPPS-identified people in batches of at most
 * `batchSize` (default 1000), each person once per batch. Throws if a needed column is missing.
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
 * Reads a file through one reused buffer: a stream allocates a new buffer per read, and on a
 * 900 MB extract those wait for the garbage collector long enough to add 50 MB to the RSS.
 */
async function* fileChunks(path: string): AsyncGenerator<Buffer> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(READ_SIZE);
    for (;;) {
      const { bytesRead } = await file.read(buffer, 0, READ_SIZE, null);
      if (bytesRead === 0) return;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await file.close();
  }
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
  for await (const batch of readBatches(fileChunks(path), DEFAULT_BATCH_SIZE, stats)) {
    await upsertBatch(batch);
    people += batch.length;
  }
  return { rows: stats.rows, people };
}
