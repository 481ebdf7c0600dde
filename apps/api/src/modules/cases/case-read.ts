import { asc, eq, inArray } from 'drizzle-orm';
import type { Language } from '@sutura/domain/i18n';
import type { Db } from '../../db/client.ts';
import { media, organs, surgeries, surgerySteps, videoPictures, videoSteps, videos } from '../../db/schema.ts';
import { localName } from './names.ts';

type VideoRow = typeof videos.$inferSelect;

/** A rendered step of a case, named in the reader's language (a vocabulary step) or as the editor wrote it. */
export interface CaseStep {
  id: string;
  position: number;
  surgeryStepId: string | null;
  name: string;
  start: number;
  end: number;
}

/**
 * The case read model shared by every module that shows a case (its learner's page, the editor's
 * and the expert's workspaces, the best cases): its surgery, organ, key steps, rendered steps and
 * pictures, with the vocabulary named in the reader's language.
 */
export function createCaseReads(db: Db) {
  return {
    /** The rendered steps, in order. */
    async steps(videoId: string, lang: Language): Promise<CaseStep[]> {
      const rows = await db
        .select({ step: videoSteps, vocabulary: { nameFr: surgerySteps.nameFr, nameEn: surgerySteps.nameEn } })
        .from(videoSteps)
        .leftJoin(surgerySteps, eq(surgerySteps.id, videoSteps.surgeryStepId))
        .where(eq(videoSteps.videoId, videoId))
        .orderBy(asc(videoSteps.position));
      return rows.map(({ step, vocabulary }) => ({
        id: step.id,
        position: step.position,
        surgeryStepId: step.surgeryStepId,
        name: vocabulary ? localName(vocabulary, lang) : step.name,
        start: step.start,
        end: step.end,
      }));
    },

    /** The case's surgery, organ and key steps (in the vocabulary's order), named in the reader's language. */
    async refs(video: Pick<VideoRow, 'surgeryId' | 'organId' | 'keyStepIds'>, lang: Language) {
      const [[surgery], [organ], keySteps] = await Promise.all([
        video.surgeryId ? db.select().from(surgeries).where(eq(surgeries.id, video.surgeryId)) : [],
        video.organId ? db.select().from(organs).where(eq(organs.id, video.organId)) : [],
        video.keyStepIds.length
          ? db.select().from(surgerySteps).where(inArray(surgerySteps.id, video.keyStepIds)).orderBy(asc(surgerySteps.position))
          : [],
      ]);
      return {
        surgery: surgery ? { id: surgery.id, name: localName(surgery, lang) } : null,
        organ: organ ? { id: organ.id, name: localName(organ, lang), icon: organ.icon } : null,
        keySteps: keySteps.map((s) => ({ id: s.id, name: localName(s, lang) })),
      };
    },

    /** The case's pictures with their sizes, in the learner's order. */
    async pictures(videoId: string) {
      return db
        .select({ id: videoPictures.id, mediaId: videoPictures.mediaId, width: media.width, height: media.height })
        .from(videoPictures)
        .innerJoin(media, eq(media.id, videoPictures.mediaId))
        .where(eq(videoPictures.videoId, videoId))
        .orderBy(asc(videoPictures.position), asc(videoPictures.createdAt));
    },
  };
}
export type CaseReads = ReturnType<typeof createCaseReads>;
