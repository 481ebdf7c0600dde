import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { asc, eq, inArray } from 'drizzle-orm';
import type { Logger } from 'pino';
import { KPIS } from '@sutura/domain/analysis';
import { disagreementsOf, largestGap } from '@sutura/domain/review';
import { LEASE_MS } from '@sutura/domain/claims';
import { DEFAULT_NOTIFICATION_SETTINGS, DEFAULT_PREFERENCES } from '@sutura/domain/preferences';
import { DEFAULT_TIME_ZONE } from '@sutura/domain/time-zone';
import type { NasaTlx } from '@sutura/domain/videos';
import type { Db } from '../db/client.ts';
import {
  analyses,
  analysisComments,
  appState,
  disagreements,
  claims,
  learningCurveStale,
  programmeDirectors,
  programmeMembers,
  programmes,
  media,
  preparations,
  selfAssessments,
  specialties,
  surgeries,
  surgerySteps,
  users,
  videoSteps,
  videos,
} from '../db/schema.ts';
import { fileArg, run } from '../media-pipeline/ffmpeg.ts';
import { hashPassword } from '../modules/auth/auth.service.ts';
import type { Storage } from '../storage/storage.ts';
import type { Scratch } from '../storage/scratch.ts';
import type { ClaimsTx } from '../modules/claims/claims.service.ts';
import { writeCurves } from '../modules/programmes/programmes.curves.ts';
import { secondReview } from './second-review.ts';
import { DEMO_FONT } from './video-generator.ts';
import { DEMO_HISTORY_MARKER, DEMO_PASSWORD } from './seed.ts';

export { DEMO_HISTORY_MARKER };
const DAY_MS = 86_400_000;

/** Demo surgeons who only appear through their past cases: the average surgeon is not the demo learner alone. */
export const DEMO_HISTORY_LEARNERS = [
  { email: 'learner3@sutura.local', firstName: 'Sophie', lastName: 'Laurent', specialty: 'visceral_digestive_surgery' },
  { email: 'learner4@sutura.local', firstName: 'Thomas', lastName: 'Petit', specialty: 'visceral_digestive_surgery' },
  { email: 'learner5@sutura.local', firstName: 'Léa', lastName: 'Garnier', specialty: 'urology' },
  // Two residents of the demo programme, whose pyeloplasties make its learning curves (below).
  { email: 'learner6@sutura.local', firstName: 'Paul', lastName: 'Roux', specialty: 'urology' },
  { email: 'learner7@sutura.local', firstName: 'Emma', lastName: 'Faure', specialty: 'urology' },
] as const;

/**
 * The demo training programme (docs/learning-curves.md): the urology learners of the demo, directed
 * by the demo expert, with the default CUSUM settings.
 */
export const DEMO_PROGRAMME = {
  name: 'Internes d’urologie — promotion 2026',
  specialty: 'urology',
  startsOn: '2025-11-02',
  members: ['learner@sutura.local', 'learner2@sutura.local', 'learner5@sutura.local', 'learner6@sutura.local', 'learner7@sutura.local'],
  directors: ['expert@sutura.local'],
} as const;

/**
 * Each surgeon's analysed cases, oldest first: how many, from how many days ago to how many, the
 * surgeries they rotate through, and their global level at the first and at the last case.
 */
interface Track {
  email: string;
  cases: number;
  fromDaysAgo: number;
  toDaysAgo: number;
  surgeries: readonly string[];
  level: [number, number];
  /** NASA-TLX base at the first and the last case (the workload felt goes down with practice). */
  tlx: [number, number];
  /**
   * The global rating of each case, given: the skills follow it, no case is drawn for a second
   * review, and the learner gives the day of each operation (the day before sending). A learning
   * curve of the demo programme that shows a given state.
   */
  globals?: readonly number[];
}

const TRACKS: readonly Track[] = [
  // The demo learner: a case every fortnight for ten months, clearly improving.
  {
    email: 'learner@sutura.local',
    cases: 20,
    fromDaysAgo: 300,
    toDaysAgo: 12,
    surgeries: ['pyeloplasty', 'prostate_enucleation', 'adrenalectomy'],
    level: [2.1, 4.2],
    tlx: [75, 40],
  },
  {
    email: 'learner2@sutura.local',
    cases: 8,
    fromDaysAgo: 280,
    toDaysAgo: 20,
    surgeries: ['prostate_enucleation', 'pyeloplasty'],
    level: [3, 3.4],
    tlx: [60, 55],
  },
  {
    email: 'learner3@sutura.local',
    cases: 6,
    fromDaysAgo: 260,
    toDaysAgo: 8,
    surgeries: ['cholecystectomy', 'colectomy'],
    level: [3.4, 3.8],
    tlx: [50, 45],
  },
  {
    email: 'learner4@sutura.local',
    cases: 5,
    fromDaysAgo: 240,
    toDaysAgo: 25,
    surgeries: ['colectomy', 'cholecystectomy'],
    level: [2.8, 3.1],
    tlx: [65, 60],
  },
  {
    email: 'learner5@sutura.local',
    cases: 5,
    fromDaysAgo: 230,
    toDaysAgo: 5,
    surgeries: ['adrenalectomy', 'pyeloplasty'],
    level: [3.2, 3.5],
    tlx: [55, 50],
  },
  // Two failures at first (an unacceptable rate signalled at the 2nd case), then nine successes in a
  // row: proficient at the 11th pyeloplasty, and still at the 13th.
  {
    email: 'learner6@sutura.local',
    cases: 13,
    fromDaysAgo: 200,
    toDaysAgo: 6,
    surgeries: ['pyeloplasty'],
    level: [2, 4],
    tlx: [70, 45],
    globals: [2, 2, 3, 3, 3, 4, 3, 4, 3, 4, 4, 4, 4],
  },
  // Nine successes (proficient at the 9th), then two failures in a row: a relapse at the 11th.
  {
    email: 'learner7@sutura.local',
    cases: 12,
    fromDaysAgo: 190,
    toDaysAgo: 4,
    surgeries: ['pyeloplasty'],
    level: [3, 3],
    tlx: [55, 60],
    globals: [3, 4, 3, 3, 4, 3, 3, 4, 3, 2, 2, 3],
  },
];

/** The length of each surgery's recording, in seconds: a clip is encoded once per surgery. */
const CLIP_SECONDS: Record<string, number> = {
  pyeloplasty: 420,
  prostate_enucleation: 480,
  adrenalectomy: 360,
  cholecystectomy: 300,
  colectomy: 540,
};
const CLIP = { width: 640, height: 360, fps: 5 };

/** Each KPI's distance from a surgeon's global level (dexterity comes first, autonomy last). */
const KPI_OFFSETS: Record<(typeof KPIS)[number], number> = {
  depthPerception: 0.2,
  bimanualDexterity: 0.3,
  efficiency: -0.1,
  tissueHandling: -0.2,
  autonomy: -0.4,
};

const ADVICE = [
  {
    assessment: 'Intervention menée avec méthode. L’exposition reste perfectible et la dissection hésite par moments.',
    advice: 'Préparez l’exposition avant chaque temps opératoire et limitez les changements d’instruments inutiles.',
    comment: 'Ici, la traction de la main gauche pourrait mieux exposer le plan.',
  },
  {
    assessment: 'Bonne progression : les gestes sont plus sûrs et les temps morts diminuent.',
    advice: 'Continuez à anticiper la caméra ; gardez le champ stable pendant la dissection fine.',
    comment: 'Geste fluide et économe, c’est exactement ce qu’on attend.',
  },
  {
    assessment: 'Dissection soigneuse et hémostase rigoureuse. Quelques allers-retours de caméra ralentissent le déroulé.',
    advice: 'Fixez un repère anatomique avant de déplacer la caméra pour garder l’orientation.',
    comment: 'Attention à la traction sur les tissus : relâchez un peu.',
  },
  {
    assessment: 'Très bonne intervention, autonome et efficace, avec une manipulation des tissus délicate.',
    advice: 'Vous pouvez maintenant travailler la vitesse d’exécution des sutures sans perdre en précision.',
    comment: 'Très belle suture, points réguliers.',
  },
];

/** A reproducible series of numbers in [0, 1): the demo is the same at every first start. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const clamp = (v: number, min: number, max: number) => Math.max(min, Math.min(max, v));
const lerp = (a: number, b: number, p: number) => a + (b - a) * p;

function tlxAt(base: number, jitter: () => number): NasaTlx {
  const at = (d: number) => clamp(Math.round((base + d + (jitter() - 0.5) * 10) / 5) * 5, 0, 100);
  return {
    mentalDemand: at(10),
    physicalDemand: at(-10),
    temporalDemand: at(5),
    performance: at(-20),
    effort: at(15),
    frustration: at(-25),
  };
}

/** A recording of a surgery: a plain field with its name and a running clock, light to store many times over. */
async function encodeClip(work: string, surgery: { code: string; nameEn: string }, seconds: number, ffmpegPath?: string) {
  const video = path.join(work, `${surgery.code}.mp4`);
  const poster = path.join(work, `${surgery.code}.jpg`);
  const filters = ['format=yuv420p'];
  if (existsSync(DEMO_FONT)) {
    const labelFile = path.join(work, `${surgery.code}.txt`);
    await writeFile(labelFile, `Sutura demo — ${surgery.nameEn}`);
    const box = 'box=1:boxcolor=black@0.55:boxborderw=8:fontcolor=white';
    filters.push(
      `drawtext=fontfile=${DEMO_FONT}:textfile=${labelFile}:expansion=none:fontsize=26:x=(w-tw)/2:y=24:${box}`,
      `drawtext=fontfile=${DEMO_FONT}:text='%{pts\\:hms}':fontsize=40:x=(w-tw)/2:y=h-th-28:${box}`,
    );
  }
  await run(
    [
      ...['-f', 'lavfi', '-i', `color=c=0x3a1f2b:size=${CLIP.width}x${CLIP.height}:rate=${CLIP.fps}:duration=${seconds}`],
      ...['-vf', filters.join(','), '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '30', '-g', String(CLIP.fps * 10)],
      ...['-pix_fmt', 'yuv420p', '-an', '-map_metadata', '-1', '-movflags', '+faststart', '-f', 'mp4', fileArg(video)],
    ],
    { bin: ffmpegPath, timeoutMs: 5 * 60_000 },
  );
  await run(['-ss', '5', '-i', fileArg(video), '-frames:v', '1', '-q:v', '4', '-f', 'image2', fileArg(poster)], {
    bin: ffmpegPath,
    timeoutMs: 60_000,
  });
  return { video: await readFile(video), poster: await readFile(poster) };
}

/** Four steps over the recording; the pauses between them (non-active time) shrink with practice. */
function stepLayout(seconds: number, progress: number, jitter: () => number) {
  const lead = Math.round(lerp(30, 8, progress) + jitter() * 6);
  const gap = lerp(18, 5, progress);
  const tail = lerp(40, 10, progress);
  const weights = [0.2, 0.35, 0.3, 0.15].map((w) => w * (0.85 + jitter() * 0.3));
  const total = weights.reduce((a, b) => a + b, 0);
  const active = seconds - lead - tail - gap * 3;
  let at = lead;
  return weights.map((w) => {
    const start = Math.round(at);
    const end = Math.round(at + (active * w) / total);
    at = end + gap;
    return { start, end };
  });
}

/**
 * Months of analysed cases for the demo surgeons (the demo learner improving, a few colleagues of
 * two specialties), so that the statistics show every series at first start. Each case is a real
 * case of the workflow — sent, claimed and prepared by a demo editor, claimed and analysed by the
 * demo expert, with its claims history — and owns its files: one short recording is encoded per
 * surgery, then stored once for each case under that case's own keys, so deleting a case never
 * touches another. Made once (DEMO_HISTORY_MARKER); the rows go in one transaction with the marker.
 */
export async function seedDemoHistory(deps: {
  db: Db;
  storage: Storage;
  scratch: Scratch;
  log: Logger;
  ffmpegPath?: string;
  clock?: () => Date;
  /** The installation's time zone: the demo programme's curves read the days cases were sent on its clock. */
  timeZone?: string;
  /** Told after each clip encoded, each case's files stored, and the rows written. */
  onProgress?: (done: number, total: number) => void;
}): Promise<{ created: number }> {
  const { db, storage, log } = deps;
  const now = (deps.clock ?? (() => new Date()))();
  const [done] = await db.select().from(appState).where(eq(appState.key, DEMO_HISTORY_MARKER));
  if (done) return { created: 0 };

  const staff = new Map(
    (
      await db
        .select({ id: users.id, email: users.email })
        .from(users)
        .where(
          inArray(users.email, [
            'expert@sutura.local',
            'expert2@sutura.local',
            'editor@sutura.local',
            'editor2@sutura.local',
            'learner@sutura.local',
          ]),
        )
    ).map((u) => [u.email, u.id]),
  );
  const expertId = staff.get('expert@sutura.local');
  const secondExpertId = staff.get('expert2@sutura.local');
  const editorIds = [staff.get('editor@sutura.local'), staff.get('editor2@sutura.local')].filter((id): id is string => !!id);
  // Without the demo learner (deleted, or no demo accounts) there is nobody to make a history for.
  if (!expertId || editorIds.length === 0 || !staff.get('learner@sutura.local')) return { created: 0 };

  const surgeryCodes = [...new Set(TRACKS.flatMap((t) => t.surgeries))];
  const surgeryRows = await db.select().from(surgeries).where(inArray(surgeries.code, surgeryCodes));
  const surgeryByCode = new Map(surgeryRows.map((s) => [s.code, s]));
  const stepsBySurgery = new Map<string, { id: string; nameEn: string; nameFr: string }[]>();
  for (const s of surgeryRows) {
    stepsBySurgery.set(
      s.id,
      await db
        .select({ id: surgerySteps.id, nameEn: surgerySteps.nameEn, nameFr: surgerySteps.nameFr })
        .from(surgerySteps)
        .where(eq(surgerySteps.surgeryId, s.id))
        .orderBy(asc(surgerySteps.position))
        .limit(4),
    );
  }

  // Encoded in the scratch space (a few MB), kept in memory to be stored once per case.
  const plannedCases = TRACKS.reduce((sum, t) => sum + t.cases, 0);
  const stepsToDo = surgeryRows.length + plannedCases + 1;
  let stepsMade = 0;
  const stepDone = () => deps.onProgress?.(++stepsMade, stepsToDo);
  const clips = new Map<string, { video: Buffer; poster: Buffer }>();
  await deps.scratch.withDir('demo-history-', 64 * 1024 * 1024, async (work) => {
    for (const s of surgeryRows) {
      clips.set(s.code, await encodeClip(work, s, CLIP_SECONDS[s.code] ?? 420, deps.ffmpegPath));
      stepDone();
    }
  });

  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const specialtyRows = await db.select({ id: specialties.id, code: specialties.code }).from(specialties);
  const specialtyId = new Map(specialtyRows.map((s) => [s.code, s.id]));

  type Plan = {
    videoId: string;
    authorEmail: string;
    surgeryCode: string;
    submittedAt: Date;
    progress: number;
    track: Track;
    index: number;
  };
  const plans: Plan[] = [];
  for (const [t, track] of TRACKS.entries()) {
    const jitter = random(7 + t);
    for (let i = 0; i < track.cases; i++) {
      const progress = track.cases === 1 ? 1 : i / (track.cases - 1);
      const daysAgo = lerp(track.fromDaysAgo, track.toDaysAgo, progress) + (jitter() - 0.5) * 4;
      const day = new Date(now.getTime() - Math.max(1, daysAgo) * DAY_MS);
      // During the working day (UTC), never in the future.
      day.setUTCHours(8 + Math.floor(jitter() * 9), Math.floor(jitter() * 60), 0, 0);
      const submittedAt = day > now ? new Date(now.getTime() - 3600_000) : day;
      plans.push({
        videoId: randomUUID(),
        authorEmail: track.email,
        surgeryCode: track.surgeries[i % track.surgeries.length]!,
        submittedAt,
        progress,
        track,
        index: i,
      });
    }
  }

  // Files first, each case under its own keys; the rows that name them come in one transaction.
  const files = new Map<
    string,
    { videoMediaId: string; posterMediaId: string; videoKey: string; posterKey: string; sizes: [number, number] }
  >();
  for (const plan of plans) {
    const clip = clips.get(plan.surgeryCode);
    stepDone();
    if (!clip) continue;
    const videoMediaId = randomUUID();
    const posterMediaId = randomUUID();
    const videoKey = `videos/${plan.videoId}/prepared-1/video.mp4`;
    const posterKey = `videos/${plan.videoId}/prepared-1/poster.jpg`;
    const videoSize = (await storage.put(videoKey, clip.video)).size;
    const posterSize = (await storage.put(posterKey, clip.poster)).size;
    files.set(plan.videoId, { videoMediaId, posterMediaId, videoKey, posterKey, sizes: [videoSize, posterSize] });
  }

  let created = 0;
  try {
    await db.transaction(async (tx) => {
      const [marked] = await tx
        .insert(appState)
        .values({ key: DEMO_HISTORY_MARKER, value: { at: now.toISOString() } })
        .onConflictDoNothing()
        .returning();
      // Another process made it meanwhile.
      if (!marked) throw new HistoryAlreadyMade();

      for (const person of DEMO_HISTORY_LEARNERS) {
        await tx
          .insert(users)
          .values({
            email: person.email,
            passwordHash,
            roles: ['learner'],
            firstName: person.firstName,
            lastName: person.lastName,
            emailVerifiedAt: now,
            termsAcceptedAt: now,
            specialtyId: specialtyId.get(person.specialty) ?? null,
            country: 'France',
            city: 'Bordeaux',
            careCentreType: 'public',
            yearsOfExperience: 6,
            yearsOfRoboticExperience: 2,
            robot: 'da Vinci Xi',
            preferences: DEFAULT_PREFERENCES,
            notificationSettings: DEFAULT_NOTIFICATION_SETTINGS,
          })
          .onConflictDoNothing();
      }
      const authors = new Map(
        (
          await tx
            .select({ id: users.id, email: users.email })
            .from(users)
            .where(inArray(users.email, [...new Set(TRACKS.map((t) => t.email))]))
        ).map((u) => [u.email, u.id]),
      );

      let doubleReviewed = 0;
      for (const plan of plans) {
        const authorId = authors.get(plan.authorEmail);
        const surgery = surgeryByCode.get(plan.surgeryCode);
        const file = files.get(plan.videoId);
        const vocabulary = surgery ? (stepsBySurgery.get(surgery.id) ?? []) : [];
        if (!authorId || !surgery || !file || vocabulary.length === 0) continue;
        const jitter = random(plan.index * 31 + plan.track.cases * 7 + plan.authorEmail.length);
        const seconds = CLIP_SECONDS[plan.surgeryCode] ?? 420;
        const editorId = editorIds[plan.index % editorIds.length]!;
        const submittedAt = plan.submittedAt;
        const at = (hoursBefore: number) => new Date(submittedAt.getTime() - hoursBefore * 3600_000);
        const createdAt = at(24 * 6 + 3);
        const sentAt = at(24 * 6);
        const preparedAt = at(24 * 2 + 5);
        const renderedAt = at(24 * 2 + 4);
        const analysisClaimedAt = at(3);

        await tx.insert(videos).values({
          id: plan.videoId,
          authorId,
          kind: 'video',
          status: 'analysed',
          mediaStatus: 'ready',
          processingProgress: 100,
          surgeryId: surgery.id,
          organId: surgery.organId,
          keyStepIds: vocabulary.slice(1, 3).map((s) => s.id),
          equipmentBrand: 'Intuitive Surgical',
          equipmentUsed: 'da Vinci Xi, 4 arms, 30° endoscope',
          ageRange: (['45_59', '60_74', '30_44'] as const)[plan.index % 3],
          patientSex: plan.index % 2 ? 'woman' : 'man',
          bmi: plan.index % 4 === 0 ? '30_40' : 'under_30',
          complication: plan.index % 7 === 3,
          radiationHistory: false,
          medicalBackground: plan.index % 5 === 0 ? ['anti_aggregant'] : [],
          mainHand: 'right',
          surgeryDuration: Math.round(lerp(190, 120, plan.progress) + jitter() * 30),
          messageToProctor: 'Demo case: what should I work on first?',
          nasaTlx: tlxAt(lerp(plan.track.tlx[0], plan.track.tlx[1], plan.progress), jitter),
          sentAt,
          ...(plan.track.globals ? { operatedOn: new Date(sentAt.getTime() - DAY_MS).toISOString().slice(0, 10) } : {}),
          videoMediaId: file.videoMediaId,
          posterMediaId: file.posterMediaId,
          duration: seconds,
          width: CLIP.width,
          height: CLIP.height,
          frameRate: CLIP.fps,
          videoCodec: 'h264',
          audioCodec: null,
          remuxed: false,
          readyAt: at(24 * 6 + 2),
          claimHolderId: expertId,
          fencingToken: 2,
          createdAt,
          updatedAt: submittedAt,
        });
        await tx.insert(media).values([
          {
            id: file.videoMediaId,
            ownerId: authorId,
            videoId: plan.videoId,
            kind: 'prepared-video',
            storageKey: file.videoKey,
            contentType: 'video/mp4',
            size: file.sizes[0],
            width: CLIP.width,
            height: CLIP.height,
            createdAt: renderedAt,
          },
          {
            id: file.posterMediaId,
            ownerId: authorId,
            videoId: plan.videoId,
            kind: 'prepared-poster',
            storageKey: file.posterKey,
            contentType: 'image/jpeg',
            size: file.sizes[1],
            width: CLIP.width,
            height: CLIP.height,
            createdAt: renderedAt,
          },
        ]);
        await tx.insert(claims).values([
          {
            videoId: plan.videoId,
            fencingToken: 1,
            stage: 'preparation',
            holderId: editorId,
            claimedAt: at(24 * 3),
            leaseEndsAt: new Date(at(24 * 3).getTime() + LEASE_MS),
            endedAt: preparedAt,
            endReason: 'submitted',
          },
          {
            videoId: plan.videoId,
            fencingToken: 2,
            stage: 'analysis',
            holderId: expertId,
            claimedAt: analysisClaimedAt,
            leaseEndsAt: new Date(analysisClaimedAt.getTime() + LEASE_MS),
            endedAt: submittedAt,
            endReason: 'submitted',
          },
        ]);

        const layout = stepLayout(seconds, plan.progress, jitter);
        const steps = vocabulary.map((s, i) => ({
          id: randomUUID(),
          surgeryStepId: s.id,
          name: s.nameEn,
          nameFr: s.nameFr,
          ...layout[i]!,
        }));
        await tx.insert(preparations).values({
          videoId: plan.videoId,
          editorId,
          phase: 'steps',
          trims: [{ start: 0, end: seconds }],
          steps: steps.map((s) => ({ surgeryStepId: s.surgeryStepId, name: '', start: s.start, end: s.end })),
          savedAt: preparedAt,
          submittedAt: preparedAt,
          renderStatus: 'done',
          renderAttempt: 1,
          renderedAt,
        });
        await tx.insert(videoSteps).values(
          steps.map((s, position) => ({
            id: s.id,
            videoId: plan.videoId,
            position,
            surgeryStepId: s.surgeryStepId,
            name: s.name,
            start: s.start,
            end: s.end,
          })),
        );

        const given = plan.track.globals?.[plan.index];
        const level = given ?? lerp(plan.track.level[0], plan.track.level[1], plan.progress) + (jitter() - 0.5) * 0.6;
        const rate = (offset: number) => clamp(Math.round(level + offset + (jitter() - 0.5) * 0.8), 1, 5);
        const kpiRatings = Object.fromEntries(KPIS.map((k) => [k, rate(KPI_OFFSETS[k])]));
        const stepRatings = Object.fromEntries(steps.map((s, i) => [s.id, rate([0.3, 0, -0.2, 0.2][i % 4]!)]));
        const words = ADVICE[clamp(Math.floor(level) - 2, 0, ADVICE.length - 1)]!;
        await tx.insert(analyses).values({
          videoId: plan.videoId,
          expertId,
          status: 'submitted',
          stepRatings,
          kpiRatings,
          globalRating: clamp(Math.round(level), 1, 5),
          assessment: words.assessment,
          advice: words.advice,
          createdAt: analysisClaimedAt,
          updatedAt: submittedAt,
          submittedAt,
        });
        // Every past result was read an hour after it was released (a second review 20 hours
        // after the first); the demo learner answered or skipped their self-assessment before.
        const twice = secondExpertId && !plan.track.globals && plan.index % 6 === 2;
        const releasedAt = new Date(submittedAt.getTime() + (twice ? 20 * 3600_000 : 0));
        const resultSeenAt = new Date(releasedAt.getTime() + 3600_000);
        const self = demoSelfAssessment(plan, kpiRatings, jitter, resultSeenAt);
        await tx.insert(selfAssessments).values({ videoId: plan.videoId, authorId, ...self });
        await tx.insert(analysisComments).values({
          videoId: plan.videoId,
          start: steps[1]!.start + 12,
          text: words.comment,
          createdAt: submittedAt,
          updatedAt: submittedAt,
        });
        // Every sixth case was drawn for a second review (docs/double-review.md), given by a second
        // person (second-review.ts): within a level of the first expert on most items, and on a few
        // cases two or three levels apart on one skill or one step, which flags them. Its ratings
        // reached its learner once the result was released and the self-assessment answered (the
        // demo learner's, before) or the result read (docs/self-assessment.md).
        await tx
          .update(videos)
          .set({
            resultReleasedAt: releasedAt,
            ratingsReleasedAt: self.submittedAt || self.skippedAt ? releasedAt : resultSeenAt,
            ...(twice ? { reviewsRequired: 2, secondReviewReason: 'drawn', secondReviewShare: 20, secondReviewDraw: 0.1 } : {}),
          })
          .where(eq(videos.id, plan.videoId));
        if (twice) {
          const second = secondReview({
            order: doubleReviewed++,
            kpiRatings,
            steps: steps.map((s) => ({ id: s.id, nameFr: s.nameFr, start: s.start, rating: stepRatings[s.id]! })),
            globalRating: clamp(Math.round(level), 1, 5),
            random: random(9001 + plan.index * 37 + plan.authorEmail.length * 11 + plan.track.cases),
          });
          const secondAt = new Date(submittedAt.getTime() + 20 * 3600_000);
          await tx.insert(analyses).values({
            videoId: plan.videoId,
            round: 2,
            expertId: secondExpertId,
            status: 'submitted',
            stepRatings: second.stepRatings,
            kpiRatings: second.kpiRatings,
            globalRating: second.globalRating,
            assessment: second.assessment,
            advice: second.advice,
            createdAt: new Date(secondAt.getTime() - 2 * 3600_000),
            updatedAt: secondAt,
            submittedAt: secondAt,
          });
          await tx.insert(analysisComments).values(
            second.comments.map((c) => ({
              videoId: plan.videoId,
              round: 2,
              start: c.start,
              text: c.text,
              createdAt: secondAt,
              updatedAt: secondAt,
            })),
          );
          const items = disagreementsOf(
            [
              { round: 1, kpiRatings, stepRatings },
              { round: 2, kpiRatings: second.kpiRatings, stepRatings: second.stepRatings },
            ],
            steps.map((s) => s.id),
          );
          if (items.length) {
            await tx.insert(disagreements).values({ videoId: plan.videoId, items, maxGap: largestGap(items), flaggedAt: secondAt });
          }
        }
        created++;
      }
      await seedDemoProgramme(tx, specialtyId.get(DEMO_PROGRAMME.specialty) ?? null, now, deps.timeZone ?? DEFAULT_TIME_ZONE);
    });
  } catch (err) {
    // Nothing was recorded: the files stored for it go too.
    for (const plan of plans) await storage.deletePrefix(`videos/${plan.videoId}`).catch(() => {});
    if (err instanceof HistoryAlreadyMade) return { created: 0 };
    throw err;
  }
  stepDone();
  log.info({ created }, 'demo history seeded');
  return { created };
}

class HistoryAlreadyMade extends Error {}

/**
 * The demo programme, in the history's transaction: its learners and director, and its curves
 * computed as they stand (the director is not told of what happened before the first start).
 */
async function seedDemoProgramme(tx: ClaimsTx, specialtyId: string | null, now: Date, timeZone: string): Promise<void> {
  const people = await tx
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(inArray(users.email, [...DEMO_PROGRAMME.members, ...DEMO_PROGRAMME.directors]));
  const idOf = new Map(people.map((p) => [p.email, p.id]));
  const members = DEMO_PROGRAMME.members.map((e) => idOf.get(e)).filter((id): id is string => !!id);
  const directors = DEMO_PROGRAMME.directors.map((e) => idOf.get(e)).filter((id): id is string => !!id);
  if (members.length === 0) return;
  const [programme] = await tx
    .insert(programmes)
    .values({ name: DEMO_PROGRAMME.name, specialtyId, startsOn: DEMO_PROGRAMME.startsOn, createdAt: now, updatedAt: now })
    .returning({ id: programmes.id });
  await tx.insert(programmeMembers).values(members.map((userId) => ({ programmeId: programme!.id, userId, addedAt: now })));
  if (directors.length) {
    await tx.insert(programmeDirectors).values(directors.map((userId) => ({ programmeId: programme!.id, userId, addedAt: now })));
  }
  for (const learnerId of members) await writeCurves(tx, learnerId, { timeZone, notify: false, programmeId: programme!.id, at: now });
  await tx.delete(learningCurveStale).where(inArray(learningCurveStale.learnerId, members));
}

/** The demo learner's self-assessments of their past cases: the ones who rate themselves, and from when. */
const SELF_ASSESSING = 'learner@sutura.local';

/**
 * A past case's self-assessment (docs/self-assessment.md): the demo learner rated most of their
 * cases, overrating by about a level and a half at first and by little at the end (the gap
 * narrows month by month); every fifth case skipped. The result was seen an hour after it came.
 */
function demoSelfAssessment(
  plan: { authorEmail: string; submittedAt: Date; progress: number; index: number },
  expert: Record<string, number>,
  jitter: () => number,
  resultSeenAt: Date,
): { kpiRatings?: Record<string, number>; submittedAt?: Date; skippedAt?: Date; resultSeenAt: Date; createdAt: Date; updatedAt: Date } {
  // The other learners read their results without assessing themselves.
  if (plan.authorEmail !== SELF_ASSESSING) return { resultSeenAt, createdAt: resultSeenAt, updatedAt: resultSeenAt };
  const ratedAt = new Date(plan.submittedAt.getTime() - 30 * 3600_000);
  if (plan.index % 5 === 4) return { skippedAt: ratedAt, resultSeenAt, createdAt: ratedAt, updatedAt: ratedAt };
  const bias = lerp(1.6, 0.2, plan.progress);
  const kpiRatings = Object.fromEntries(KPIS.map((k) => [k, clamp(Math.round(expert[k]! + bias + (jitter() - 0.5) * 0.8), 1, 5)]));
  return { kpiRatings, submittedAt: ratedAt, resultSeenAt, createdAt: ratedAt, updatedAt: ratedAt };
}
