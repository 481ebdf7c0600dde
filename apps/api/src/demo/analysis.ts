import path from 'node:path';
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { Logger } from 'pino';
import { KPIS } from '@sutura/domain/analysis';
import type { Db } from '../db/client.ts';
import { analyses, analysisComments, surgerySteps, users, videoSteps, videos } from '../db/schema.ts';
import { fileArg, run } from '../media-pipeline/ffmpeg.ts';
import { VOICE_SCRATCH_BYTES, type VoiceStore } from '../modules/analysis/voice.ts';
import type { Scratch } from '../storage/scratch.ts';

export const DEMO_EXPERT_EMAIL = 'expert@sutura.local';

/**
 * The analysis stage of the demo: the demo learner's prepared cases get their steps (as an
 * editor would have marked them), the one marked 'analysed' gets the demo expert's analysis —
 * ratings, assessment, advice, time-coded comments and a voice advice — so that a newcomer reads
 * a full result at once, and the one 'pending_analysis' waits in the expert's pool.
 */
export async function seedDemoAnalysis(deps: {
  db: Db;
  voice: VoiceStore;
  scratch: Scratch;
  log: Logger;
  /** Length in seconds of each demo video, by id (the pipeline may not have measured it yet). */
  durations: Map<string, number>;
  ffmpegPath?: string;
}) {
  const { db, log } = deps;
  const [expert] = await db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_EXPERT_EMAIL));
  const ids = [...deps.durations.keys()];
  if (!expert || !ids.length) return;
  const cases = await db
    .select()
    .from(videos)
    .where(and(inArray(videos.id, ids), inArray(videos.status, ['pending_analysis', 'analysed'])));

  for (const video of cases) {
    const seconds = deps.durations.get(video.id)!;
    const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(videoSteps).where(eq(videoSteps.videoId, video.id));
    if (n === 0 && video.surgeryId) {
      const vocabulary = await db
        .select()
        .from(surgerySteps)
        .where(eq(surgerySteps.surgeryId, video.surgeryId))
        .orderBy(asc(surgerySteps.position))
        .limit(4);
      // Four steps over the video, with short pauses between them (non-active time).
      const slot = seconds / Math.max(1, vocabulary.length);
      await db.insert(videoSteps).values(
        vocabulary.map((s, i) => ({
          videoId: video.id,
          position: i,
          surgeryStepId: s.id,
          name: s.nameEn,
          start: Math.round(i * slot),
          end: Math.round((i + 1) * slot - (i < vocabulary.length - 1 ? 4 : 0)),
        })),
      );
    }
    if (video.status !== 'analysed') continue;

    const steps = await db.select().from(videoSteps).where(eq(videoSteps.videoId, video.id)).orderBy(asc(videoSteps.position));
    const stepRatings = Object.fromEntries(steps.map((s, i) => [s.id, [4, 3, 5, 2][i % 4]!]));
    const kpiRatings = Object.fromEntries(KPIS.map((k, i) => [k, [4, 3, 4, 2, 3][i]!]));
    const [inserted] = await db
      .insert(analyses)
      .values({
        videoId: video.id,
        expertId: expert.id,
        status: 'submitted',
        stepRatings,
        kpiRatings,
        globalRating: 4,
        assessment:
          'Bonne intervention dans l’ensemble, avec une exposition claire et un déroulé logique. La manipulation des tissus reste à affiner lors de la dissection.',
        advice:
          'Travaillez la traction de la main non dominante pendant la dissection : exposez d’abord, puis disséquez. Réduisez les allers-retours de caméra pour garder le plan de travail stable.',
        submittedAt: new Date(),
      })
      .onConflictDoNothing()
      .returning();
    if (!inserted) continue;
    // Its result is released; its ratings are not, until the demo learner answers the invitation.
    await db
      .update(videos)
      .set({ claimHolderId: expert.id, fencingToken: 1, resultReleasedAt: inserted.submittedAt })
      .where(eq(videos.id, video.id));
    const at = (fraction: number) => Math.round(seconds * fraction);
    // Two comments carry a drawing on their frame (issue 18): what the expert points at.
    await db.insert(analysisComments).values([
      {
        videoId: video.id,
        start: at(0.1),
        text: 'Bonne mise en place des trocarts, triangulation correcte.',
        drawing: {
          time: at(0.1),
          shapes: [
            { kind: 'ellipse', color: 'green', center: [0.5, 0.5], rx: 0.16, ry: 0.2 },
            { kind: 'arrow', color: 'cyan', from: [0.14, 0.82], to: [0.36, 0.6] },
            { kind: 'text', color: 'white', at: [0.06, 0.92], text: 'Triangulation' },
          ],
        },
      },
      {
        videoId: video.id,
        start: at(0.4),
        end: at(0.5),
        text: 'Traction trop forte ici : risque de déchirure, relâchez un peu.',
        drawing: {
          time: at(0.4),
          shapes: [
            {
              kind: 'freehand',
              color: 'yellow',
              points: [
                [0.42, 0.36],
                [0.47, 0.4],
                [0.52, 0.42],
                [0.58, 0.41],
                [0.63, 0.37],
              ],
            },
            { kind: 'arrow', color: 'yellow', from: [0.8, 0.15], to: [0.62, 0.33] },
            { kind: 'text', color: 'yellow', at: [0.62, 0.12], text: 'Relâchez ici' },
          ],
        },
      },
      { videoId: video.id, start: at(0.8), text: 'Hémostase soigneuse avant la fermeture, c’est très bien.' },
    ]);
    try {
      const mediaId = await demoVoice(deps, expert.id, video.id);
      await db
        .update(analyses)
        .set({ voiceMediaId: mediaId.mediaId, voiceDuration: mediaId.duration })
        .where(eq(analyses.videoId, video.id));
    } catch (err) {
      log.warn({ err }, 'demo voice advice could not be made');
    }
  }
}

/** A few seconds of a voice-like sound (a hum with the rhythm of speech), through the real voice store. */
async function demoVoice(deps: { voice: VoiceStore; scratch: Scratch; ffmpegPath?: string }, expertId: string, videoId: string) {
  return deps.scratch.withDir('demo-voice-', VOICE_SCRATCH_BYTES, async (work) => {
    const file = path.join(work, 'voice.wav');
    await run(
      [
        ...['-f', 'lavfi', '-i', 'sine=frequency=140:sample_rate=48000:duration=8'],
        ...['-f', 'lavfi', '-i', 'anoisesrc=color=pink:amplitude=0.08:sample_rate=48000:duration=8'],
        ...['-filter_complex', '[0][1]amix=inputs=2,tremolo=f=4:d=0.9,lowpass=f=3400,highpass=f=90'],
        ...['-ac', '1', '-c:a', 'pcm_s16le', '-f', 'wav', fileArg(file)],
      ],
      { bin: deps.ffmpegPath, timeoutMs: 60_000 },
    );
    return deps.voice.store(expertId, videoId, file);
  });
}
