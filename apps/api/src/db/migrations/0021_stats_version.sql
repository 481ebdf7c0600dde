CREATE TABLE "stats_version" (
	"one" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"kpis" bigint DEFAULT 0 NOT NULL,
	"tlx" bigint DEFAULT 0 NOT NULL,
	"steps" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "stats_version_one" CHECK (one)
);
--> statement-breakpoint
DROP INDEX "analyses_specialty_submitted";--> statement-breakpoint
DROP INDEX "analyses_submitted";--> statement-breakpoint
CREATE INDEX "analyses_further_reviews" ON "analyses" USING btree ("video_id") WHERE round > 1 AND status = 'submitted';--> statement-breakpoint
CREATE INDEX "videos_result_awaited" ON "videos" USING btree ("id") WHERE reviews_required <> 1 AND result_released_at IS NULL;--> statement-breakpoint
CREATE INDEX "analyses_specialty_submitted" ON "analyses" USING btree ("author_specialty_id","submitted_at","author_id","kpi_depth_perception","kpi_bimanual_dexterity","kpi_efficiency","kpi_tissue_handling","kpi_autonomy","video_id","round") WHERE status = 'submitted';--> statement-breakpoint
CREATE INDEX "analyses_submitted" ON "analyses" USING btree ("submitted_at","author_id","kpi_depth_perception","kpi_bimanual_dexterity","kpi_efficiency","kpi_tissue_handling","kpi_autonomy","video_id","round") WHERE status = 'submitted';--> statement-breakpoint
INSERT INTO "stats_version" DEFAULT VALUES;--> statement-breakpoint
-- Written by hand (not generated from schema.ts): every write that changes the numbers behind an
-- average gives its counter a new random value, whatever writes it (the services, the demo seed, a
-- cascade); random rather than counted up, so that a database restored from a backup cannot come
-- back to a value a process already saw with other numbers. The
-- triggers are deferred to the commit, so that the one row is locked last and for the moment of
-- the commit only (no transaction waits for it while holding another row), and once per
-- transaction and counter.
CREATE OR REPLACE FUNCTION stats_version_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  flag text := 'sutura.stats_changed_' || TG_ARGV[0];
BEGIN
  IF current_setting(flag, true) IS DISTINCT FROM 'on' THEN
    EXECUTE format('UPDATE stats_version SET %I = floor(random() * 9007199254740991)', TG_ARGV[0]);
    PERFORM set_config(flag, 'on', true);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- The KPIs: the submitted reviews of a case, and whether the case counts yet.
CREATE CONSTRAINT TRIGGER stats_kpis_insert AFTER INSERT ON analyses DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW.status = 'submitted') EXECUTE FUNCTION stats_version_change('kpis');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER stats_kpis_update AFTER UPDATE ON analyses DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN ((OLD.status = 'submitted' OR NEW.status = 'submitted')
    AND (OLD.video_id, OLD.round, OLD.status, OLD.kpi_ratings, OLD.submitted_at, OLD.author_id, OLD.author_specialty_id)
      IS DISTINCT FROM (NEW.video_id, NEW.round, NEW.status, NEW.kpi_ratings, NEW.submitted_at, NEW.author_id, NEW.author_specialty_id))
  EXECUTE FUNCTION stats_version_change('kpis');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER stats_kpis_delete AFTER DELETE ON analyses DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.status = 'submitted') EXECUTE FUNCTION stats_version_change('kpis');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER stats_kpis_case AFTER UPDATE ON videos DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN ((OLD.reviews_required, OLD.result_released_at) IS DISTINCT FROM (NEW.reviews_required, NEW.result_released_at))
  EXECUTE FUNCTION stats_version_change('kpis');--> statement-breakpoint
-- The NASA-TLX of the cases sent.
CREATE CONSTRAINT TRIGGER stats_tlx_insert AFTER INSERT ON videos DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW.nasa_tlx IS NOT NULL) EXECUTE FUNCTION stats_version_change('tlx');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER stats_tlx_update AFTER UPDATE ON videos DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN ((OLD.nasa_tlx IS NOT NULL OR NEW.nasa_tlx IS NOT NULL)
    AND (OLD.nasa_tlx, OLD.sent_at, OLD.author_id, OLD.author_specialty_id)
      IS DISTINCT FROM (NEW.nasa_tlx, NEW.sent_at, NEW.author_id, NEW.author_specialty_id))
  EXECUTE FUNCTION stats_version_change('tlx');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER stats_tlx_delete AFTER DELETE ON videos DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.nasa_tlx IS NOT NULL) EXECUTE FUNCTION stats_version_change('tlx');--> statement-breakpoint
-- The steps of the prepared cases and their times.
CREATE CONSTRAINT TRIGGER stats_steps_insert AFTER INSERT ON video_steps DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW.surgery_step_id IS NOT NULL) EXECUTE FUNCTION stats_version_change('steps');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER stats_steps_update AFTER UPDATE ON video_steps DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.surgery_step_id IS NOT NULL OR NEW.surgery_step_id IS NOT NULL) EXECUTE FUNCTION stats_version_change('steps');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER stats_steps_delete AFTER DELETE ON video_steps DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.surgery_step_id IS NOT NULL) EXECUTE FUNCTION stats_version_change('steps');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER stats_steps_surgery AFTER UPDATE ON surgery_steps DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.surgery_id IS DISTINCT FROM NEW.surgery_id) EXECUTE FUNCTION stats_version_change('steps');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER stats_steps_case_insert AFTER INSERT ON videos DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW.active_seconds IS NOT NULL) EXECUTE FUNCTION stats_version_change('steps');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER stats_steps_case_update AFTER UPDATE ON videos DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN ((OLD.active_seconds IS NOT NULL OR NEW.active_seconds IS NOT NULL)
    AND (OLD.surgery_id, OLD.author_id, OLD.active_seconds, OLD.duration, OLD.surgery_duration)
      IS DISTINCT FROM (NEW.surgery_id, NEW.author_id, NEW.active_seconds, NEW.duration, NEW.surgery_duration))
  EXECUTE FUNCTION stats_version_change('steps');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER stats_steps_case_delete AFTER DELETE ON videos DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.active_seconds IS NOT NULL) EXECUTE FUNCTION stats_version_change('steps');
