import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3Settings } from '../src/config.ts';

/** A real S3 HTTP server (s3rver) on a port the OS picks, its objects in a temporary folder. */
export async function startS3Server(bucket = 'sutura-test'): Promise<{ settings: S3Settings; directory: string; close(): Promise<void> }> {
  const directory = await mkdtemp(path.join(tmpdir(), 'sutura-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const address = (await server.run()) as AddressInfo;
  return {
    directory,
    settings: {
      endpoint: `http://127.0.0.1:${address.port}`,
      bucket,
      region: 'us-east-1',
      // s3rver's own keys.
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
