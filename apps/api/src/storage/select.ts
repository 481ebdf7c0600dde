import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { createLocalUploadStore } from './local-uploads.ts';
import type { S3Storage } from './s3.ts';
import { createS3UploadStore } from './s3-uploads.ts';
import { createScratch, type Scratch } from './scratch.ts';
import { createLocalStorage, type LocalStorage, type Storage } from './storage.ts';
import type { UploadStore } from './uploads.ts';

/**
 * The media store the environment names: S3 when S3_BUCKET is set, else local files in
 * DATA_DIR (`media/`, and `uploads/` for tus uploads). Nothing else decides it. The AWS SDK
 * (tens of megabytes, seconds to load) is loaded only by an installation that uses S3.
 */
export async function createStorageFromConfig(config: Pick<Config, 'dataDir' | 's3'>): Promise<Storage> {
  if (config.s3) return (await import('./s3.ts')).createS3Storage(config.s3);
  return createLocalStorage(path.join(config.dataDir, 'media'), { uploadsRoot: path.join(config.dataDir, 'uploads') });
}

export function createScratchFromConfig(config: Pick<Config, 'scratch'>): Scratch {
  return createScratch(config.scratch);
}

/** The operator's line about where media goes. */
export function storageLine(storage: Storage, scratch: Scratch): string {
  const gib = (n: number) => `${(n / 1024 ** 3).toFixed(n % 1024 ** 3 ? 1 : 0)} GiB`;
  return `Storage: ${storage.kind === 's3' ? 'S3' : 'local files'} (${storage.location}), scratch ${scratch.dir} up to ${gib(scratch.maxBytes)}`;
}

/** Where tus uploads go as they arrive: beside the local media, or into the same S3 bucket. */
export function createUploadStoreFor(storage: Storage, deps: { db: Db; log: Logger }): UploadStore {
  if (storage.kind === 's3') return createS3UploadStore({ db: deps.db, storage: storage as S3Storage, log: deps.log });
  return createLocalUploadStore((storage as LocalStorage).uploadsRoot);
}
export { createAccountedStorage } from './accounted.ts';
