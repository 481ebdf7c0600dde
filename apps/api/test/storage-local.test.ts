import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalStorage } from '../src/storage/storage.ts';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'sutura-storage-local-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('the local store', () => {
  it('removes a folder while a job still writes into it (a video deleted during its ladder)', async () => {
    const storage = createLocalStorage(path.join(root, 'media'), { uploadsRoot: path.join(root, 'uploads') });
    for (let round = 0; round < 20; round++) {
      const prefix = `videos/v${round}`;
      for (let i = 0; i < 50; i++) await storage.put(`${prefix}/hls/720/seg-${i}.m4s`, Buffer.alloc(256));
      // The writer goes on while the folder is removed: new segments keep arriving in its folders.
      let writing = true;
      // It stops at its first write refused once its folder has gone, as the ladder's job does.
      const writer = (async () => {
        for (let i = 50; writing; i++) await storage.put(`${prefix}/hls/${i % 2 ? 720 : 360}/seg-${i}.m4s`, Buffer.alloc(256));
      })().catch(() => undefined);
      await expect(storage.deletePrefix(prefix)).resolves.toBeUndefined();
      writing = false;
      await writer;
      // What the writer put after the removal goes with its own clean-up.
      await storage.deletePrefix(prefix);
      expect(await readdir(path.join(root, 'media', 'videos', `v${round}`)).catch(() => [])).toEqual([]);
    }
  }, 120_000);
});
