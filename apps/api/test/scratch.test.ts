import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratch, ScratchFull } from '../src/storage/scratch.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sutura-scratch-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the scratch space', () => {
  it('removes each folder after its work, even when the work fails', async () => {
    const scratch = createScratch({ dir: path.join(dir, 'a'), maxBytes: 1000 });
    let seen = '';
    await expect(
      scratch.withDir('video-x-', 100, async (folder) => {
        seen = folder;
        await writeFile(path.join(folder, 'out.mp4'), 'bytes');
        throw new Error('ffmpeg died');
      }),
    ).rejects.toThrow('ffmpeg died');
    expect(path.basename(seen)).toMatch(new RegExp(`^video-x-${process.pid}\\.`));
    expect(await readdir(path.join(dir, 'a'))).toEqual([]);
    expect(scratch.reserved()).toBe(0);
  });

  it('makes a job wait for room while others hold the space, and gives up after its wait', async () => {
    const scratch = createScratch({ dir: path.join(dir, 'b'), maxBytes: 1000, waitMs: 300, pollMs: 20 });
    let release!: () => void;
    const holding = scratch.withDir('render-', 800, () => new Promise<void>((r) => (release = r)));
    await new Promise((r) => setTimeout(r, 50));
    // 800 + 300 > 1000: it waits, then gives up.
    await expect(scratch.withDir('copy-', 300, async () => 'ran')).rejects.toBeInstanceOf(ScratchFull);
    // It runs once the other work ends.
    const waiting = scratch.withDir('copy-', 300, async () => 'ran');
    setTimeout(() => release(), 50);
    expect(await waiting).toBe('ran');
    await holding;
    // Alone, a job bigger than the bound still runs.
    expect(await scratch.withDir('big-', 5000, async () => 'alone')).toBe('alone');
  });

  it('removes what killed processes left, an earlier life of this pid included, and keeps live ones', async () => {
    const root = path.join(dir, 'c');
    await mkdir(root, { recursive: true });
    // A pid that does not exist (above the kernel's pid_max), the parent (alive), this pid in an earlier life.
    const dead = path.join(root, 'video-1-4194999.0badc0de-abc');
    const live = path.join(root, `video-1-${process.ppid}.0badc0de-abc`);
    const earlier = path.join(root, `video-1-${process.pid}.0badc0de-abc`);
    const legacy = path.join(root, 'video-1-Xy12');
    for (const folder of [dead, live, earlier, legacy]) await mkdir(folder);
    const old = new Date(Date.now() - 2 * 86_400_000);
    await utimes(legacy, old, old);
    await createScratch({ dir: root, maxBytes: 1000 }).sweep();
    expect((await readdir(root)).sort()).toEqual([path.basename(live)]);
  });
});
