import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import { bestCaseStepNotes, bestCases, surgeries, surgerySteps, users, videoSteps, videos } from '../db/schema.ts';
import type { Queue } from '../jobs/queue.ts';
import { UPLOADS_DIR } from '../modules/videos/upload-files.ts';
import type { Scratch } from '../storage/scratch.ts';
import type { Storage } from '../storage/storage.ts';
import { generateDemoClip } from './video-generator.ts';

const DEMO_ADMIN_EMAIL = 'admin@sutura.local';

/**
 * The best case of the demo: the demo administrator turned the analysed demo case into one, its
 * author accepted, and it is published — /best-cases shows it on a fresh install (once the
 * pipeline has made its video playable).
 */
export async function seedDemoBestCase(deps: { db: Db; log: Logger; videoIds: readonly string[] }) {
  const { db } = deps;
  if (!deps.videoIds.length) return;
  const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_ADMIN_EMAIL));
  const [analysed] = await db
    .select()
    .from(videos)
    .where(and(inArray(videos.id, [...deps.videoIds]), eq(videos.status, 'analysed')));
  if (!analysed) return;
  const now = new Date();
  await db
    .insert(bestCases)
    .values({
      videoId: analysed.id,
      origin: 'converted',
      titleFr: 'Pyéloplastie robot-assistée : un déroulé de référence',
      titleEn: 'Robot-assisted pyeloplasty: a reference procedure',
      descriptionFr:
        'Exposition claire de la jonction pyélo-urétérale, dissection soigneuse et hémostase rigoureuse avant la fermeture. Suivez les étapes pour revoir chaque temps opératoire.',
      descriptionEn:
        'Clear exposure of the pelvi-ureteric junction, careful dissection and thorough haemostasis before closure. Follow the steps to review each stage of the operation.',
      surgeryId: analysed.surgeryId,
      organId: analysed.organId,
      consent: 'accepted',
      consentAt: now,
      published: true,
      publishedAt: now,
      createdById: admin?.id ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing();
  deps.log.info({ videoId: analysed.id }, 'demo best case published');
}

/** The uploaded reference of the demo: which steps of the pyeloplasty vocabulary it shows, where, and the note on each. */
const REFERENCE_SECONDS = 96;
const REFERENCE_STEPS = [
  {
    vocabulary: 0,
    start: 0,
    end: 18,
    noteFr: 'Trocarts placés en triangle autour de la jonction : les instruments ne se gênent pas.',
    noteEn: 'Trocars placed in a triangle around the junction: the instruments never clash.',
  },
  {
    vocabulary: 1,
    start: 18,
    end: 52,
    noteFr: 'Le côlon est décollé largement avant de chercher la jonction : l’exposition fait la suite.',
    noteEn: 'The colon is mobilised widely before looking for the junction: exposure makes the rest easy.',
  },
  {
    vocabulary: 2,
    start: 52,
    end: REFERENCE_SECONDS,
    noteFr: 'Traction douce sur l’uretère, jamais directement sur la jonction.',
    noteEn: 'Gentle traction on the ureter, never on the junction itself.',
  },
] as const;

/**
 * A second pyeloplasty best case, uploaded by the demo administrator and published: the analysed
 * demo case is compared with it on a fresh install (the first demo best case is that case itself).
 * It marks three of the four steps the demo case has, with a note on each, so the comparison shows
 * matched steps and one the best case lacks. Its clip goes through the real media pipeline.
 */
export async function seedDemoReferenceBestCase(deps: { db: Db; queue: Queue; storage: Storage; scratch: Scratch; log: Logger }) {
  const { db } = deps;
  const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_ADMIN_EMAIL));
  const [surgery] = await db.select().from(surgeries).where(eq(surgeries.code, 'pyeloplasty'));
  if (!admin || !surgery) return;
  const vocabulary = await db.select().from(surgerySteps).where(eq(surgerySteps.surgeryId, surgery.id)).orderBy(asc(surgerySteps.position));
  if (vocabulary.length < REFERENCE_STEPS.length + 1) return;

  const sourceKey = `${UPLOADS_DIR}/demo-${randomUUID()}.mp4`;
  await deps.scratch.withDir('demo-', 0, async (work) => {
    const clip = path.join(work, 'clip.mp4');
    await generateDemoClip(clip, { seconds: REFERENCE_SECONDS, label: `Sutura demo — ${surgery.nameEn} (best case)` });
    await deps.storage.putFile(sourceKey, clip);
  });
  const now = new Date();
  const bestCaseId = await db.transaction(async (tx) => {
    const [video] = await tx
      .insert(videos)
      .values({
        authorId: admin.id,
        kind: 'video',
        purpose: 'best_case',
        status: 'saved',
        mediaStatus: 'processing',
        surgeryId: surgery.id,
        organId: surgery.organId,
        sourceKey,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: videos.id });
    const [created] = await tx
      .insert(bestCases)
      .values({
        videoId: video!.id,
        origin: 'uploaded',
        titleFr: 'Pyéloplastie : l’exposition avant tout',
        titleEn: 'Pyeloplasty: exposure first',
        descriptionFr:
          'Une pyéloplastie filmée pour l’enseignement : chaque étape est commentée. Comparez-y votre cas étape par étape pour voir où le temps se joue.',
        descriptionEn:
          'A pyeloplasty filmed for teaching, with a note on each step. Compare your case with it step by step to see where the time goes.',
        surgeryId: surgery.id,
        organId: surgery.organId,
        consent: 'not_needed',
        published: true,
        publishedAt: now,
        createdById: admin.id,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: bestCases.id });
    const steps = await tx
      .insert(videoSteps)
      .values(
        REFERENCE_STEPS.map((s, position) => ({
          videoId: video!.id,
          position,
          surgeryStepId: vocabulary[s.vocabulary]!.id,
          name: vocabulary[s.vocabulary]!.nameEn,
          start: s.start,
          end: s.end,
        })),
      )
      .returning({ id: videoSteps.id, position: videoSteps.position });
    await tx.insert(bestCaseStepNotes).values(
      steps.map((step) => ({
        bestCaseId: created!.id,
        videoStepId: step.id,
        noteFr: REFERENCE_STEPS[step.position]!.noteFr,
        noteEn: REFERENCE_STEPS[step.position]!.noteEn,
      })),
    );
    await deps.queue.send('video.process', { videoId: video!.id }, { tx });
    return created!.id;
  });
  deps.log.info({ bestCaseId }, 'demo reference best case queued');
}
