import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const src = path.resolve(import.meta.dirname, '../src');
const work = mkdtempSync(path.join(tmpdir(), 'sutura-storage-select-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Builds the store the settings name in a child Node, and says whether the AWS SDK was loaded. */
function loadsAwsSdk(s3: boolean): boolean {
  const select = pathToFileURL(path.join(src, 'storage/select.ts')).href;
  const app = pathToFileURL(path.join(src, 'app.ts')).href;
  const settings = s3
    ? `{ dataDir: ${JSON.stringify(work)}, s3: { endpoint: 'http://127.0.0.1:1', bucket: 'b', region: 'us-east-1', accessKeyId: 'a', secretAccessKey: 's', forcePathStyle: true } }`
    : `{ dataDir: ${JSON.stringify(work)}, s3: undefined }`;
  const script = `import { registerHooks } from 'node:module';
let sdk = false;
registerHooks({ resolve(specifier, context, next) { if (specifier.startsWith('@aws-sdk/')) sdk = true; return next(specifier, context); } });
const { createStorageFromConfig } = await import(${JSON.stringify(select)});
await import(${JSON.stringify(app)});
const storage = await createStorageFromConfig(${settings});
process.stdout.write(JSON.stringify({ sdk, kind: storage.kind }));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 120_000 });
  expect(run.status, run.stderr).toBe(0);
  const result = JSON.parse(run.stdout) as { sdk: boolean; kind: string };
  expect(result.kind).toBe(s3 ? 's3' : 'local');
  return result.sdk;
}

describe('choosing the media store', () => {
  it('leaves the AWS SDK unloaded on local disk, and loads it for S3', () => {
    expect(loadsAwsSdk(false)).toBe(false);
    expect(loadsAwsSdk(true)).toBe(true);
  }, 240_000);
});
