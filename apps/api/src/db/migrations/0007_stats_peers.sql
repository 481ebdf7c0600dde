ALTER TABLE "analyses" ADD COLUMN "author_id" uuid;--> statement-breakpoint
ALTER TABLE "analyses" ADD COLUMN "author_specialty_id" uuid;--> statement-breakpoint
ALTER TABLE "analyses" ADD CONSTRAINT "analyses_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analyses" ADD CONSTRAINT "analyses_author_specialty_id_specialties_id_fk" FOREIGN KEY ("author_specialty_id") REFERENCES "public"."specialties"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analyses_specialty_submitted" ON "analyses" USING btree ("author_specialty_id","submitted_at") WHERE status = 'submitted';--> statement-breakpoint
CREATE INDEX "videos_sent_tlx" ON "videos" USING btree ("sent_at") WHERE nasa_tlx IS NOT NULL;--> statement-breakpoint
CREATE INDEX "videos_surgery" ON "videos" USING btree ("surgery_id");--> statement-breakpoint
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
