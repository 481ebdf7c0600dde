import { execFileSync } from 'node:child_process';
import { asc, eq, isNotNull } from 'drizzle-orm';
import { surgeries, surgerySteps } from '../src/db/schema.ts';
import type { TestContext } from './harness.ts';

/** A complete case form for POST /v1/videos, on the first surgery of an organ in the seeded vocabulary. */
export async function videoForm(ctx: TestContext, kind: 'video' | 'pictures' = 'video') {
  const db = ctx.database.db;
  const [surgery] = await db.select().from(surgeries).where(isNotNull(surgeries.organId)).orderBy(asc(surgeries.position)).limit(1);
  const steps = await db.select().from(surgerySteps).where(eq(surgerySteps.surgeryId, surgery!.id)).orderBy(asc(surgerySteps.position));
  return {
    kind,
    surgeryId: surgery!.id,
    organId: surgery!.organId!,
    keyStepIds: steps.slice(0, 2).map((s) => s.id),
    equipmentBrand: 'Intuitive',
    equipmentUsed: 'da Vinci Xi, 4 arms',
    ageRange: '45_59',
    patientSex: 'man',
    bmi: 'under_30',
    complication: false,
    surgicalHistory: 'Appendectomy',
    radiationHistory: false,
    medicalBackground: ['anticoagulant'],
    mainHand: 'right',
    surgeryDuration: 135,
    messageToProctor: 'Please look at the dissection of the bladder neck',
    nasaTlx: { mentalDemand: 60, physicalDemand: 40, temporalDemand: 50, performance: 30, effort: 55, frustration: 20 },
  };
}

/** A short H.264 + AAC clip made by ffmpeg. */
export function makeClip(file: string, seconds = 4): void {
  execFileSync(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440'],
      ...['-t', String(seconds), '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', file],
    ],
    { stdio: 'ignore' },
  );
}

/** A tus Upload-Metadata header: `key base64(value)` pairs. */
export function tusMetadata(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');
}
