import { and, eq, inArray } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from './db/client.ts';
import { bestCases, users, videos } from './db/schema.ts';

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
