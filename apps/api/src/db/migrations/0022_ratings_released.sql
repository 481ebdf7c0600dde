DROP INDEX "videos_result_awaited";--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "ratings_released_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "videos_ratings_withheld" ON "videos" USING btree ("id") WHERE ratings_released_at IS NULL;--> statement-breakpoint
-- Written by hand (not generated from schema.ts). The statistics count a case once its ratings
-- reached its learner (docs/statistics.md): the KPIs' version changes with that moment, and no
-- longer with reviews_required or result_released_at, which they do not read any more.
DROP TRIGGER "stats_kpis_case" ON "videos";--> statement-breakpoint
CREATE CONSTRAINT TRIGGER stats_kpis_case AFTER UPDATE ON videos DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.ratings_released_at IS DISTINCT FROM NEW.ratings_released_at)
  EXECUTE FUNCTION stats_version_change('kpis');--> statement-breakpoint
-- The cases of before, by the rule of docs/self-assessment.md: a case whose result is shown and
-- whose self-assessment was answered, skipped or whose result was read got its ratings at the
-- later of the two moments (the first answer, and the result's release, or its last review for a
-- case analysed before the release was recorded). The others wait for their learner.
UPDATE "videos" v SET "ratings_released_at" = greatest(
    coalesce(
      v."result_released_at",
      (SELECT max(a."submitted_at") FROM "analyses" a WHERE a."video_id" = v."id" AND a."status" = 'submitted'),
      v."updated_at"),
    least(s."submitted_at", s."skipped_at", s."result_seen_at"))
  FROM "self_assessments" s
  WHERE s."video_id" = v."id"
    AND (v."status" = 'analysed' OR v."result_released_at" IS NOT NULL)
    AND (s."submitted_at" IS NOT NULL OR s."skipped_at" IS NOT NULL OR s."result_seen_at" IS NOT NULL);
