import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Settings } from '../config.ts';
import type { Storage } from './storage.ts';

// The sizes live apart so that the upload store can read them without loading the AWS SDK.
import { S3_PART_BYTES } from './s3-parts.ts';
export { S3_MIN_PART_BYTES, S3_PART_BYTES } from './s3-parts.ts';

function notFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}

/** What the tus store needs beside the objects: S3's own multipart uploads, part by part. */
export interface S3Multipart {
  create(key: string, contentType?: string): Promise<string>;
  uploadPart(key: string, uploadId: string, partNumber: number, body: Buffer): Promise<string>;
  complete(key: string, uploadId: string, parts: readonly { partNumber: number; etag: string }[]): Promise<void>;
  abort(key: string, uploadId: string): Promise<void>;
}

export type S3Storage = Storage & { kind: 's3'; bucket: string; client: S3Client; multipart: S3Multipart; ensureBucket(): Promise<void> };

export function createS3Client(settings: S3Settings): S3Client {
  return new S3Client({
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(settings.accessKeyId && settings.secretAccessKey
      ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
      : {}),
    // Checksums only where S3 requires them: many S3-compatible servers do not know the newer ones.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** Media in an S3-compatible bucket (AWS, MinIO, Ceph, Garage, Scaleway…), keys as they are. */
export function createS3Storage(settings: S3Settings, opts: { client?: S3Client } = {}): S3Storage {
  const client = opts.client ?? createS3Client(settings);
  const Bucket = settings.bucket;

  async function upload(key: string, body: Readable | Buffer): Promise<{ size: number }> {
    if (Buffer.isBuffer(body) && body.length <= S3_PART_BYTES) {
      await client.send(new PutObjectCommand({ Bucket, Key: key, Body: body, ContentLength: body.length }));
      return { size: body.length };
    }
    // Multipart once past one part; a stream of unknown length is cut into parts as it comes.
    let size = 0;
    const counted = Buffer.isBuffer(body)
      ? body
      : body.pipe(
          new PassThrough({
            transform(chunk: Buffer, _encoding, done) {
              size += chunk.length;
              done(null, chunk);
            },
          }),
        );
    await new Upload({
      client,
      params: { Bucket, Key: key, Body: counted },
      partSize: S3_PART_BYTES,
      queueSize: 4,
      leavePartsOnError: false,
    }).done();
    return { size: Buffer.isBuffer(body) ? body.length : size };
  }

  async function* listKeys(prefix: string | undefined) {
    let ContinuationToken: string | undefined;
    for (;;) {
      const page = await client.send(
        new ListObjectsV2Command({
          Bucket,
          ...(prefix ? { Prefix: `${prefix}/` } : {}),
          ...(ContinuationToken ? { ContinuationToken } : {}),
        }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key) yield { key: object.Key, size: object.Size ?? 0, modifiedAt: object.LastModified ?? new Date(0) };
      }
      if (!page.IsTruncated || !page.NextContinuationToken) return;
      ContinuationToken = page.NextContinuationToken;
    }
  }

  const multipart: S3Multipart = {
    async create(key, contentType) {
      const out = await client.send(
        new CreateMultipartUploadCommand({ Bucket, Key: key, ...(contentType ? { ContentType: contentType } : {}) }),
      );
      if (!out.UploadId) throw new Error(`S3 gave no upload id for ${key}`);
      return out.UploadId;
    },
    async uploadPart(key, uploadId, partNumber, body) {
      const out = await client.send(
        new UploadPartCommand({ Bucket, Key: key, UploadId: uploadId, PartNumber: partNumber, Body: body, ContentLength: body.length }),
      );
      if (!out.ETag) throw new Error(`S3 gave no ETag for part ${partNumber} of ${key}`);
      return out.ETag;
    },
    async complete(key, uploadId, parts) {
      await client.send(
        new CompleteMultipartUploadCommand({
          Bucket,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.partNumber, ETag: p.etag })) },
        }),
      );
    },
    async abort(key, uploadId) {
      await client.send(new AbortMultipartUploadCommand({ Bucket, Key: key, UploadId: uploadId })).catch((err: unknown) => {
        if (!notFound(err)) throw err;
      });
    },
  };

  const storage: S3Storage = {
    kind: 's3',
    location: `s3://${Bucket}`,
    bucket: Bucket,
    client,
    multipart,
    async ensureBucket() {
      try {
        await client.send(new HeadBucketCommand({ Bucket }));
      } catch (err) {
        if (!notFound(err)) throw err;
        await client.send(new CreateBucketCommand({ Bucket }));
      }
    },
    put: upload,
    async putFile(key, file) {
      const result = await upload(key, createReadStream(file));
      await rm(file, { force: true });
      return result;
    },
    async read(key, range) {
      const out = await client.send(
        new GetObjectCommand({ Bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
      );
      if (!(out.Body instanceof Readable)) throw new Error(`S3 gave no stream for ${key}`);
      return out.Body;
    },
    async size(key) {
      try {
        const out = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return out.ContentLength ?? 0;
      } catch (err) {
        if (notFound(err)) return undefined;
        throw err;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    async deletePrefix(prefix) {
      let batch: string[] = [];
      const flush = async () => {
        if (!batch.length) return;
        await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }));
        batch = [];
      };
      for await (const object of listKeys(prefix)) {
        batch.push(object.key);
        if (batch.length === 1000) await flush();
      }
      await flush();
      // The key itself, as `rm -r` removes a file named like the prefix.
      await client.send(new DeleteObjectCommand({ Bucket, Key: prefix }));
    },
    list: listKeys,
    async withLocalFile(key, scratch, work) {
      const size = await storage.size(key);
      if (size === undefined) throw Object.assign(new Error(`no object ${key}`), { code: 'ENOENT' });
      return scratch.withDir('copy-', size, async (dir) => {
        const file = path.join(dir, path.basename(key) || 'object');
        await pipeline(await storage.read(key), createWriteStream(file));
        return work(file);
      });
    },
    async presignedUrl(key, opts) {
      return getSignedUrl(
        client,
        new GetObjectCommand({ Bucket, Key: key, ...(opts.contentType ? { ResponseContentType: opts.contentType } : {}) }),
        { expiresIn: opts.expiresInSeconds },
      );
    },
  };
  return storage;
}
