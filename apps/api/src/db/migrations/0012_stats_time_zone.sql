DROP INDEX "analyses_specialty_submitted";--> statement-breakpoint
DROP INDEX "analyses_submitted";--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "author_specialty_id" uuid;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "received_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "videos" ADD CONSTRAINT "videos_author_specialty_id_specialties_id_fk" FOREIGN KEY ("author_specialty_id") REFERENCES "public"."specialties"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "videos_received" ON "videos" USING btree ("received_at") WHERE received_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX "videos_specialty_sent_tlx" ON "videos" USING btree ("author_specialty_id","sent_at","author_id","tlx_mental_demand","tlx_physical_demand","tlx_temporal_demand","tlx_performance","tlx_effort","tlx_frustration") WHERE nasa_tlx IS NOT NULL;--> statement-breakpoint
CREATE INDEX "analyses_specialty_submitted" ON "analyses" USING btree ("author_specialty_id","submitted_at","author_id","kpi_depth_perception","kpi_bimanual_dexterity","kpi_efficiency","kpi_tissue_handling","kpi_autonomy") WHERE status = 'submitted';--> statement-breakpoint
CREATE INDEX "analyses_submitted" ON "analyses" USING btree ("submitted_at","author_id","kpi_depth_perception","kpi_bimanual_dexterity","kpi_efficiency","kpi_tissue_handling","kpi_autonomy") WHERE status = 'submitted';--> statement-breakpoint
-- Written by hand (not generated from schema.ts): the author's specialty when a case is sent, the
-- NASA-TLX peer group of the statistics, filled whatever writes the row (the video service, the
-- demo seed); sent again, the case takes the specialty of that moment.
CREATE OR REPLACE FUNCTION videos_sent_snapshot() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.sent_at IS NULL THEN
    NEW.author_specialty_id := NULL;
  ELSIF TG_OP = 'INSERT' THEN
    IF NEW.author_specialty_id IS NULL THEN
      SELECT u.specialty_id INTO NEW.author_specialty_id FROM users u WHERE u.id = NEW.author_id;
    END IF;
  ELSIF OLD.sent_at IS DISTINCT FROM NEW.sent_at AND NEW.author_specialty_id IS NOT DISTINCT FROM OLD.author_specialty_id THEN
    SELECT u.specialty_id INTO NEW.author_specialty_id FROM users u WHERE u.id = NEW.author_id;
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER videos_sent_snapshot BEFORE INSERT OR UPDATE OF sent_at, author_specialty_id ON videos
  FOR EACH ROW EXECUTE FUNCTION videos_sent_snapshot();--> statement-breakpoint
UPDATE videos v SET author_specialty_id = u.specialty_id
FROM users u WHERE u.id = v.author_id AND v.sent_at IS NOT NULL;--> statement-breakpoint
-- Also by hand: when the file of a case arrived whole (the admin dashboard's "uploaded this
-- month"): cleared while a file is being received, set when it is no longer (processing, ready,
-- or refused), whatever writes the row; a pictures case has it from its creation.
CREATE OR REPLACE FUNCTION videos_received_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.media_status = 'uploading' THEN
    NEW.received_at := NULL;
  ELSIF NEW.received_at IS NULL THEN
    NEW.received_at := now();
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER videos_received_at BEFORE INSERT OR UPDATE OF media_status, received_at ON videos
  FOR EACH ROW EXECUTE FUNCTION videos_received_at();--> statement-breakpoint
-- Files that arrived before this column: the end of their processing, or the last change of a
-- case still processing or refused; a pictures case, its creation.
UPDATE videos SET received_at = CASE
    WHEN kind = 'pictures' THEN created_at
    WHEN media_status = 'ready' THEN coalesce(ready_at, updated_at)
    ELSE updated_at
  END
WHERE media_status <> 'uploading';
