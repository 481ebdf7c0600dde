import { sql } from 'drizzle-orm';
import type { Language } from '@sutura/domain/i18n';
import { STORAGE_KINDS, type StorageKind, type StorageReport } from '@sutura/domain/retention';
import type { Db } from '../../db/client.ts';
import { storageObjects } from '../../db/schema.ts';
import { UPLOADS_PREFIX, type Storage } from '../../storage/storage.ts';
import type { UploadStore } from '../../storage/uploads.ts';

type Row = Record<string, unknown>;

/** `YYYY-MM` of the month `offset` months after the one of `date`, on the installation's clock. */
function monthOf(date: Date, timeZone: string, offset = 0): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit' }).formatToParts(date);
  const year = Number(parts.find((p) => p.type === 'year')!.value);
  const month = Number(parts.find((p) => p.type === 'month')!.value) - 1 + offset;
  const y = year + Math.floor(month / 12);
  const m = ((month % 12) + 12) % 12;
  return `${y}-${String(m + 1).padStart(2, '0')}`;
}

/**
 * What the storage holds (docs/data-lifecycle.md), from `storage_objects`, the table the store's
 * accounting keeps as objects are written and deleted: never from listing the store.
 */
export function createStorageReport(deps: { db: Db; clock: () => Date; timeZone: string }) {
  const { db, clock, timeZone } = deps;
  return {
    async report(lang: Language): Promise<StorageReport> {
      const kinds = await db.execute<Row>(sql`
        SELECT kind, coalesce(sum(size), 0)::text AS bytes, count(*)::int AS objects FROM storage_objects GROUP BY kind`);
      const byKindMap = new Map(kinds.rows.map((r) => [r.kind as string, { bytes: Number(r.bytes), objects: Number(r.objects) }]));
      const byKind = STORAGE_KINDS.map((kind: StorageKind) => ({ kind, ...(byKindMap.get(kind) ?? { bytes: 0, objects: 0 }) }));
      const surgeriesRows = await db.execute<Row>(sql`
        SELECT s.id, s.name_fr, s.name_en, sum(o.size)::text AS bytes
        FROM storage_objects o
        LEFT JOIN videos v ON v.id = o.video_id
        LEFT JOIN surgeries s ON s.id = v.surgery_id
        GROUP BY s.id, s.name_fr, s.name_en
        ORDER BY sum(o.size) DESC`);
      const bySurgery = surgeriesRows.rows.map((r) => ({
        surgeryId: (r.id as string | null) ?? null,
        surgery: r.id ? ((lang === 'fr' ? r.name_fr : r.name_en) as string) : null,
        bytes: Number(r.bytes),
      }));
      const now = clock();
      const first = monthOf(now, timeZone, -11);
      const monthly = await db.execute<Row>(sql`
        SELECT to_char(${storageObjects.writtenAt} AT TIME ZONE ${timeZone}, 'YYYY-MM') AS month, sum(size)::text AS bytes
        FROM storage_objects GROUP BY 1`);
      const addedIn = new Map(monthly.rows.map((r) => [r.month as string, Number(r.bytes)]));
      let total = [...addedIn].filter(([m]) => m < first).reduce((n, [, b]) => n + b, 0);
      const months = [];
      for (let i = -11; i <= 0; i++) {
        const month = monthOf(now, timeZone, i);
        const added = addedIn.get(month) ?? 0;
        total += added;
        months.push({ month, added, total });
      }
      // The next twelve months at the mean growth of the last twelve.
      const rate = months.reduce((n, m) => n + m.added, 0) / 12;
      const projection = Array.from({ length: 12 }, (_, i) => ({
        month: monthOf(now, timeZone, i + 1),
        total: Math.round(total + rate * (i + 1)),
      }));
      const totalBytes = byKind.reduce((n, k) => n + k.bytes, 0);
      const objects = byKind.reduce((n, k) => n + k.objects, 0);
      return { totalBytes, objects, byKind, bySurgery, months, projection };
    },
  };
}
export type StorageReportService = ReturnType<typeof createStorageReport>;

export interface Reconciliation {
  /** Objects of the store that no row of the accounting knows. */
  orphans: { key: string; size: number }[];
  /** Rows of the accounting whose object is not in the store. */
  missing: { key: string; size: number }[];
  checked: number;
}

/**
 * Compares the accounting with the store: every object listed against the rows, every row against
 * the listing. An upload still arriving on S3 is parts, not yet an object: its row is checked with
 * the upload store instead. The info files of local uploads (`uploads/<id>.json`) are the upload
 * store's own state, not objects of the accounting.
 */
export async function reconcileStorage(deps: { db: Db; storage: Storage; uploads: UploadStore }): Promise<Reconciliation> {
  const { db, storage, uploads } = deps;
  const rows = new Map(
    (await db.select({ key: storageObjects.key, size: storageObjects.size }).from(storageObjects)).map((r) => [r.key, r.size]),
  );
  const seen = new Set<string>();
  const orphans: Reconciliation['orphans'] = [];
  let checked = 0;
  for await (const object of storage.list()) {
    checked += 1;
    if (rows.has(object.key)) {
      seen.add(object.key);
      continue;
    }
    if (storage.kind === 'local' && /^uploads\/[^/]+\.json$/.test(object.key)) continue;
    // Written beside and renamed (storage.ts): a write in progress, not an object yet.
    if (object.key.endsWith('.partial')) continue;
    orphans.push({ key: object.key, size: object.size });
  }
  const missing: Reconciliation['missing'] = [];
  for (const [key, size] of rows) {
    if (seen.has(key)) continue;
    if (key.startsWith(`${UPLOADS_PREFIX}/`) && !key.includes('.tail')) {
      const id = key.slice(UPLOADS_PREFIX.length + 1);
      if ((await uploads.offset(id)) !== undefined) continue;
    }
    missing.push({ key, size });
  }
  return { orphans, missing, checked };
}
