import { createHash } from 'node:crypto';
import { appendFile, readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { tusUploads, videos } from '../db/schema.ts';
import type { S3Storage } from './s3.ts';
import { uploadPartBytes } from './s3-uploads.ts';
import { UPLOADS_PREFIX, type LocalStorage } from './storage.ts';

export interface MigrationReport {
  copied: number;
  /** Already on S3 from an earlier run, with the size and hash recorded then. */
  skipped: number;
  /** Unfinished tus uploads turned into S3 multipart uploads, resumable by their clients. */
  uploads: number;
  bytes: number;
  failed: { key: string; reason: string }[];
}

async function sha256Of(stream: Readable): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}

/**
 * Copies every media object of a local installation (DATA_DIR/media and DATA_DIR/uploads) into
 * the S3 bucket, keys unchanged, and checks each copy by size and SHA-256 read back from S3.
 * What was checked is appended to `progressFile` (one JSON line per object), so that a run that
 * stops (a crash, Ctrl-C, the network) resumes where it was: an object recorded there with the
 * same size on both sides is not copied again. Unfinished tus uploads become S3 multipart
 * uploads with their state in `tus_uploads`, so that their clients resume them on S3. Nothing
 * local is removed: the folders are the fallback until the operator deletes them.
 */
export async function migrateToS3(deps: {
  db: Db;
  from: LocalStorage;
  to: S3Storage;
  progressFile: string;
  partBytes?: number;
  onProgress?: (line: string) => void;
}): Promise<MigrationReport> {
  const { db, from, to } = deps;
  const say = deps.onProgress ?? (() => {});
  const report: MigrationReport = { copied: 0, skipped: 0, uploads: 0, bytes: 0, failed: [] };
  await to.ensureBucket();

  const done = new Map<string, { size: number; sha256: string }>();
  const previous = await readFile(deps.progressFile, 'utf8').catch(() => '');
  for (const line of previous.split('\n')) {
    if (!line.trim()) continue;
    try {
      const entry = JSON.parse(line) as { key: string; size: number; sha256: string };
      done.set(entry.key, entry);
    } catch {
      // A line cut by the crash that stopped the last run: that object is copied again.
    }
  }

  const open = new Map(
    (
      await db
        .select({ uploadId: videos.uploadId })
        .from(videos)
        .where(and(eq(videos.mediaStatus, 'uploading')))
    )
      .filter((r) => r.uploadId)
      .map((r) => [r.uploadId!, true]),
  );

  for await (const object of from.list()) {
    const { key, size } = object;
    // Files being written (`.partial`) and the local tus info files are not media objects.
    if (key.endsWith('.partial') || (key.startsWith(`${UPLOADS_PREFIX}/`) && key.endsWith('.json'))) continue;
    const uploadId = key.startsWith(`${UPLOADS_PREFIX}/`) ? key.slice(UPLOADS_PREFIX.length + 1) : undefined;
    try {
      if (uploadId && open.has(uploadId)) {
        if (await migrateOpenUpload(uploadId, size)) report.uploads += 1;
        else report.skipped += 1;
        continue;
      }
      const recorded = done.get(key);
      if (recorded && recorded.size === size && (await to.size(key)) === size) {
        report.skipped += 1;
        continue;
      }
      const local = await sha256Of(await from.read(key));
      await to.put(key, await from.read(key));
      const remote = await sha256Of(await to.read(key));
      if (remote.size !== local.size || remote.sha256 !== local.sha256) {
        report.failed.push({
          key,
          reason: `copy differs (${remote.size} bytes, sha256 ${remote.sha256}; local ${local.size}, ${local.sha256})`,
        });
        continue;
      }
      await appendFile(deps.progressFile, `${JSON.stringify({ key, size: local.size, sha256: local.sha256 })}\n`);
      report.copied += 1;
      report.bytes += local.size;
      say(`copied ${key} (${local.size} bytes, sha256 ${local.sha256.slice(0, 12)}…)`);
    } catch (err) {
      report.failed.push({ key, reason: err instanceof Error ? err.message : String(err) });
    }
  }
  return report;

  /** The bytes received so far, as S3 parts and a tail; false when an earlier run did it. */
  async function migrateOpenUpload(id: string, offset: number): Promise<boolean> {
    const [existing] = await db.select().from(tusUploads).where(eq(tusUploads.id, id));
    if (existing && existing.offset === offset) return false;
    const info = JSON.parse(await readFile(`${from.uploadsRoot}/${id}.json`, 'utf8')) as {
      size: number;
      videoId?: string;
      owner?: string;
      filetype?: string;
      createdAt?: string;
    };
    const [video] = await db.select({ id: videos.id, authorId: videos.authorId }).from(videos).where(eq(videos.uploadId, id));
    if (!video) return false;
    const key = `${UPLOADS_PREFIX}/${id}`;
    const parts: { partNumber: number; etag: string; size: number }[] = [];
    let multipartId: string | null = null;
    const partBytes = deps.partBytes ?? uploadPartBytes(info.size);
    const whole = Math.floor(offset / partBytes) * partBytes;
    for (let start = 0; start < whole; start += partBytes) {
      multipartId ??= await to.multipart.create(key, info.filetype);
      const body = await bytesOf(await from.read(key, { start, end: start + partBytes - 1 }));
      const partNumber = parts.length + 1;
      parts.push({ partNumber, etag: await to.multipart.uploadPart(key, multipartId, partNumber, body), size: body.length });
    }
    let tailKey: string | null = null;
    if (offset > whole) {
      tailKey = `${key}.tail/migrated`;
      await to.put(tailKey, await bytesOf(await from.read(key, { start: whole, end: offset - 1 })));
      if ((await to.size(tailKey)) !== offset - whole) throw new Error(`tail of upload ${id} differs in size`);
    }
    const values = {
      id,
      videoId: video.id,
      ownerId: video.authorId,
      size: info.size,
      filetype: info.filetype ?? null,
      offset,
      multipartId,
      parts,
      tailKey,
      tailSize: offset - whole,
      createdAt: info.createdAt ? new Date(info.createdAt) : new Date(),
    };
    await db
      .insert(tusUploads)
      .values(values)
      .onConflictDoUpdate({ target: tusUploads.id, set: { ...values, version: 0 } });
    say(`upload ${id}: ${offset} of ${info.size} bytes moved, resumable on S3`);
    return true;
  }
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
