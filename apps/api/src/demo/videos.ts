import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { NasaTlx } from '@sutura/domain/videos';
import type { Db } from '../db/client.ts';
import { claims, preparations, surgeries, surgerySteps, users, videoPictures, videoShares, videos } from '../db/schema.ts';
import type { Queue } from '../jobs/queue.ts';
import type { MediaService } from '../modules/media/media.service.ts';
import { UPLOADS_DIR } from '../modules/videos/upload-files.ts';
import type { Scratch } from '../storage/scratch.ts';
import type { Storage } from '../storage/storage.ts';
import { generateDemoClip } from './video-generator.ts';

interface DemoCase {
  author: string;
  surgery: string;
  /** 'prepared': trimmed and cut into steps by the demo editor, rendered once processed. */
  status: 'saved' | 'pending_preparation' | 'prepared' | 'analysed';
  seconds: number;
  favourite?: boolean;
  priority?: boolean;
  sharedWith?: string;
  tlx: NasaTlx;
}

/** Cases of the demo learners, in the states that fill every tab of "My videos". */
const CASES: DemoCase[] = [
  { author: 'learner@sutura.local', surgery: 'cholecystectomy', status: 'saved', seconds: 150, favourite: true, tlx: tlx(55) },
  { author: 'learner@sutura.local', surgery: 'adrenalectomy', status: 'pending_preparation', seconds: 180, priority: true, tlx: tlx(65) },
  { author: 'learner@sutura.local', surgery: 'pyeloplasty', status: 'analysed', seconds: 120, tlx: tlx(40) },
  // Rendered by the preparation stage, it then waits in the demo expert's pool.
  { author: 'learner@sutura.local', surgery: 'prostate_enucleation', status: 'prepared', seconds: 150, tlx: tlx(60) },
  {
    author: 'learner2@sutura.local',
    surgery: 'colectomy',
    status: 'saved',
    seconds: 120,
    sharedWith: 'learner@sutura.local',
    tlx: tlx(70),
  },
];

const DEMO_EDITOR = 'editor@sutura.local';
/** The camera taken out at the start and cleaned in the middle. */
const OUT_OF_BODY = [
  { start: 0, end: 8, colour: 'black' as const },
  { start: 52, end: 58, colour: 'black' as const },
  { start: 58, end: 64.4, colour: 'white' as const },
];

/**
 * The demo editor's work on a case: two kept ranges (the start and a stretch in the middle cut
 * out) and three steps, submitted; the render job runs once the source is processed.
 */
async function preparedByDemoEditor(db: Db, videoId: string, editorId: string, steps: { id: string }[]) {
  const now = new Date();
  await db.update(videos).set({ claimHolderId: editorId, fencingToken: 1 }).where(eq(videos.id, videoId));
  await db.insert(claims).values({
    videoId,
    fencingToken: 1,
    stage: 'preparation',
    holderId: editorId,
    claimedAt: now,
    leaseEndsAt: now,
    endedAt: now,
    endReason: 'submitted',
  });
  await db.insert(preparations).values({
    videoId,
    editorId,
    phase: 'steps',
    trims: [
      { start: 8, end: 52 },
      { start: 64.4, end: 140 },
    ],
    steps: [
      { surgeryStepId: steps[0]!.id, name: '', start: 10, end: 40 },
      { surgeryStepId: steps[1]!.id, name: '', start: 40, end: 52 },
      { surgeryStepId: steps[2]!.id, name: '', start: 66, end: 138 },
    ],
    savedAt: now,
    submittedAt: now,
    renderStatus: 'rendering',
    renderAttempt: 1,
  });
}

function tlx(base: number): NasaTlx {
  const at = (d: number) => Math.max(0, Math.min(100, Math.round((base + d) / 5) * 5));
  return {
    mentalDemand: at(10),
    physicalDemand: at(-10),
    temporalDemand: at(5),
    performance: at(-20),
    effort: at(15),
    frustration: at(-25),
  };
}

/**
 * Demo videos for a newcomer: clips generated with ffmpeg (a visible clock and a tone), put
 * through the real media pipeline, plus a pictures-only case. Runs once, after the server is up.
 * Answers the length of each clip by video id, for the stages that follow (analysis.ts).
 */
export async function seedDemoVideos(deps: {
  db: Db;
  queue: Queue;
  mediaService: MediaService;
  storage: Storage;
  scratch: Scratch;
  log: Logger;
  /** Told after each case is made (the pictures-only case last). */
  onProgress?: (done: number, total: number) => void;
}): Promise<Map<string, number>> {
  const durations = new Map<string, number>();
  const { db, queue, log } = deps;
  const emails = [...new Set([...CASES.flatMap((c) => [c.author, c.sharedWith ?? c.author]), DEMO_EDITOR])];
  const people = new Map(
    (await db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.email, emails))).map((u) => [u.email, u.id]),
  );

  const total = CASES.length + 1;
  for (const [made, demo] of CASES.entries()) {
    if (made > 0) deps.onProgress?.(made, total);
    const authorId = people.get(demo.author);
    const [surgery] = await db.select().from(surgeries).where(eq(surgeries.code, demo.surgery));
    if (!authorId || !surgery) continue;
    const steps = await db
      .select({ id: surgerySteps.id })
      .from(surgerySteps)
      .where(eq(surgerySteps.surgeryId, surgery.id))
      .orderBy(surgerySteps.position);
    const sourceKey = `${UPLOADS_DIR}/demo-${randomUUID()}.mp4`;
    // Made in the scratch space, then stored as an upload would be.
    await deps.scratch.withDir('demo-', 0, async (work) => {
      const clip = path.join(work, 'clip.mp4');
      await generateDemoClip(clip, {
        seconds: demo.seconds,
        label: `Sutura demo — ${surgery.nameEn}`,
        // Cases in the editors' hands show what cut suggestions find (and the prepared one cuts).
        ...(demo.status === 'pending_preparation' || demo.status === 'prepared' ? { outOfBody: OUT_OF_BODY } : {}),
      });
      await deps.storage.putFile(sourceKey, clip);
    });
    const [row] = await db
      .insert(videos)
      .values({
        authorId,
        kind: 'video',
        // A prepared case waits in 'processing' for its source, then for its render.
        status: demo.status === 'prepared' ? 'processing' : demo.status,
        mediaStatus: 'processing',
        surgeryId: surgery.id,
        organId: surgery.organId,
        keyStepIds: steps.slice(1, 4).map((s) => s.id),
        equipmentBrand: 'Intuitive Surgical',
        equipmentUsed: 'da Vinci Xi, 4 arms, 30° endoscope',
        ageRange: '45_59',
        patientSex: 'man',
        bmi: 'under_30',
        complication: false,
        surgicalHistory: 'Demo case: no previous abdominal surgery',
        radiationHistory: false,
        medicalBackground: ['anti_aggregant'],
        mainHand: 'right',
        surgeryDuration: 95,
        messageToProctor: 'Demo case: please look at the dissection steps and my exposure.',
        nasaTlx: demo.tlx,
        favourite: demo.favourite ?? false,
        priority: demo.priority ?? false,
        sentAt: demo.status === 'saved' ? null : new Date(),
        sourceKey,
      })
      .returning({ id: videos.id });
    const editorId = people.get(DEMO_EDITOR);
    if (demo.status === 'prepared' && editorId && steps.length >= 3) {
      await preparedByDemoEditor(db, row!.id, editorId, steps.slice(0, 3));
    }
    if (demo.sharedWith && people.get(demo.sharedWith))
      await db.insert(videoShares).values({ videoId: row!.id, userId: people.get(demo.sharedWith)! });
    durations.set(row!.id, demo.seconds);
    await queue.send('video.process', { videoId: row!.id });
    log.info({ videoId: row!.id, surgery: demo.surgery }, 'demo video queued');
  }

  deps.onProgress?.(CASES.length, total);
  // A pictures-only case: two docking pictures drawn here.
  const authorId = people.get('learner@sutura.local');
  const [surgery] = await db.select().from(surgeries).where(eq(surgeries.code, 'kidney_transplantation'));
  if (authorId && surgery) {
    const [row] = await db
      .insert(videos)
      .values({
        authorId,
        kind: 'pictures',
        status: 'saved',
        mediaStatus: 'ready',
        surgeryId: surgery.id,
        organId: surgery.organId,
        ageRange: '60_74',
        patientSex: 'woman',
        bmi: '30_40',
        complication: false,
        radiationHistory: false,
        mainHand: 'right',
        surgeryDuration: 180,
        messageToProctor: 'Demo case: is my docking position right for this patient?',
        nasaTlx: tlx(50),
        readyAt: new Date(),
      })
      .returning({ id: videos.id });
    // Loaded here rather than at start-up: the server only needs libvips for images.
    const { default: sharp } = await import('sharp');
    for (const [i, colour] of ['#17C7A4', '#1D69EE'].entries()) {
      const image = await sharp({ create: { width: 1280, height: 720, channels: 3, background: colour } })
        .composite([
          {
            input: Buffer.from(
              `<svg width="1280" height="720"><text x="640" y="380" font-size="64" text-anchor="middle" fill="white" font-family="DejaVu Sans">Docking ${i + 1}</text></svg>`,
            ),
          },
        ])
        .jpeg()
        .toBuffer();
      const picture = await deps.mediaService.storePicture(authorId, row!.id, image);
      await db.insert(videoPictures).values({ videoId: row!.id, mediaId: picture.id, position: i });
    }
  }
  deps.onProgress?.(total, total);
  return durations;
}
