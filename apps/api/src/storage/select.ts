import path from 'node:path';
import type { Config } from '../config.ts';
import { createS3Storage } from './s3.ts';
import { createScratch, type Scratch } from './scratch.ts';
import { createLocalStorage, type Storage } from './storage.ts';

/**
 * The media store the environment names: S3 when S3_BUCKET is set, else local files in
 * DATA_DIR (`media/`, and `uploads/` for tus uploads). Nothing else decides it.
 */
export function createStorageFromConfig(config: Pick<Config, 'dataDir' | 's3'>): Storage {
  if (config.s3) return createS3Storage(config.s3);
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
