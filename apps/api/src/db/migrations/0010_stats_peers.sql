DROP INDEX "analyses_submitted";--> statement-breakpoint
DROP INDEX "video_steps_surgery_step";--> statement-breakpoint
ALTER TABLE "analyses" ADD COLUMN "kpi_depth_perception" real GENERATED ALWAYS AS ((kpi_ratings ->> 'depthPerception')::real) STORED;--> statement-breakpoint
ALTER TABLE "analyses" ADD COLUMN "kpi_bimanual_dexterity" real GENERATED ALWAYS AS ((kpi_ratings ->> 'bimanualDexterity')::real) STORED;--> statement-breakpoint
ALTER TABLE "analyses" ADD COLUMN "kpi_efficiency" real GENERATED ALWAYS AS ((kpi_ratings ->> 'efficiency')::real) STORED;--> statement-breakpoint
ALTER TABLE "analyses" ADD COLUMN "kpi_tissue_handling" real GENERATED ALWAYS AS ((kpi_ratings ->> 'tissueHandling')::real) STORED;--> statement-breakpoint
ALTER TABLE "analyses" ADD COLUMN "kpi_autonomy" real GENERATED ALWAYS AS ((kpi_ratings ->> 'autonomy')::real) STORED;--> statement-breakpoint
ALTER TABLE "analyses" ADD COLUMN "author_id" uuid;--> statement-breakpoint
ALTER TABLE "analyses" ADD COLUMN "author_specialty_id" uuid;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "tlx_mental_demand" real GENERATED ALWAYS AS ((nasa_tlx ->> 'mentalDemand')::real) STORED;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "tlx_physical_demand" real GENERATED ALWAYS AS ((nasa_tlx ->> 'physicalDemand')::real) STORED;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "tlx_temporal_demand" real GENERATED ALWAYS AS ((nasa_tlx ->> 'temporalDemand')::real) STORED;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "tlx_performance" real GENERATED ALWAYS AS ((nasa_tlx ->> 'performance')::real) STORED;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "tlx_effort" real GENERATED ALWAYS AS ((nasa_tlx ->> 'effort')::real) STORED;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "tlx_frustration" real GENERATED ALWAYS AS ((nasa_tlx ->> 'frustration')::real) STORED;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "active_seconds" double precision;--> statement-breakpoint
ALTER TABLE "analyses" ADD CONSTRAINT "analyses_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analyses" ADD CONSTRAINT "analyses_author_specialty_id_specialties_id_fk" FOREIGN KEY ("author_specialty_id") REFERENCES "public"."specialties"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analyses_specialty_submitted" ON "analyses" USING btree ("author_specialty_id","submitted_at","kpi_depth_perception","kpi_bimanual_dexterity","kpi_efficiency","kpi_tissue_handling","kpi_autonomy") WHERE status = 'submitted';--> statement-breakpoint
CREATE INDEX "videos_sent_tlx" ON "videos" USING btree ("sent_at","author_id","tlx_mental_demand","tlx_physical_demand","tlx_temporal_demand","tlx_performance","tlx_effort","tlx_frustration") WHERE nasa_tlx IS NOT NULL;--> statement-breakpoint
CREATE INDEX "videos_surgery_times" ON "videos" USING btree ("surgery_id","author_id","active_seconds","duration","surgery_duration") WHERE active_seconds IS NOT NULL;--> statement-breakpoint
CREATE INDEX "analyses_submitted" ON "analyses" USING btree ("submitted_at","kpi_depth_perception","kpi_bimanual_dexterity","kpi_efficiency","kpi_tissue_handling","kpi_autonomy") WHERE status = 'submitted';--> statement-breakpoint
CREATE INDEX "video_steps_surgery_step" ON "video_steps" USING btree ("surgery_step_id","video_id","start","end") WHERE surgery_step_id IS NOT NULL;--> statement-breakpoint
-- Written by hand (not generated from schema.ts): the author of a submitted analysis and their
-- specialty at the time, filled whatever writes the row (the analysis service, the demo seed).
CREATE OR REPLACE FUNCTION analyses_author_snapshot() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status = 'submitted' AND NEW.author_id IS NULL THEN
    SELECT v.author_id, u.specialty_id INTO NEW.author_id, NEW.author_specialty_id
    FROM videos v JOIN users u ON u.id = v.author_id
    WHERE v.id = NEW.video_id;
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER analyses_author_snapshot BEFORE INSERT OR UPDATE ON analyses
  FOR EACH ROW EXECUTE FUNCTION analyses_author_snapshot();--> statement-breakpoint
UPDATE analyses a SET author_id = v.author_id, author_specialty_id = u.specialty_id
FROM videos v JOIN users u ON u.id = v.author_id
WHERE v.id = a.video_id AND a.status = 'submitted';
--> statement-breakpoint
-- Written by hand as well: each video's active time, the length of the union of its steps (a step
-- overlapping another counts once), null without steps; recomputed for the videos whose steps change.
CREATE OR REPLACE FUNCTION video_active_seconds(ids uuid[]) RETURNS void LANGUAGE sql AS $$
  UPDATE videos v SET active_seconds = a.active
  FROM (
    SELECT x.id, (
      SELECT sum(greatest(0, m."end" - greatest(m.start, coalesce(m.reached, m.start))))
      FROM (
        SELECT s.start, s."end",
          max(s."end") OVER (ORDER BY s.start ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS reached
        FROM video_steps s WHERE s.video_id = x.id
      ) m
    ) AS active
    FROM unnest(ids) AS x(id)
  ) a
  WHERE v.id = a.id AND v.active_seconds IS DISTINCT FROM a.active;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION video_steps_active_time() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM video_active_seconds(ARRAY(SELECT DISTINCT video_id FROM new_steps));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM video_active_seconds(ARRAY(SELECT DISTINCT video_id FROM old_steps));
  ELSE
    PERFORM video_active_seconds(ARRAY(SELECT video_id FROM new_steps UNION SELECT video_id FROM old_steps));
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER video_steps_active_time_insert AFTER INSERT ON video_steps
  REFERENCING NEW TABLE AS new_steps FOR EACH STATEMENT EXECUTE FUNCTION video_steps_active_time();--> statement-breakpoint
CREATE TRIGGER video_steps_active_time_update AFTER UPDATE ON video_steps
  REFERENCING OLD TABLE AS old_steps NEW TABLE AS new_steps FOR EACH STATEMENT EXECUTE FUNCTION video_steps_active_time();--> statement-breakpoint
CREATE TRIGGER video_steps_active_time_delete AFTER DELETE ON video_steps
  REFERENCING OLD TABLE AS old_steps FOR EACH STATEMENT EXECUTE FUNCTION video_steps_active_time();--> statement-breakpoint
SELECT video_active_seconds(ARRAY(SELECT DISTINCT video_id FROM video_steps));
