-- Written by hand: the deferred triggers of the statistics (0021) may have events pending from the
-- migrations before this one, run in the same transaction (0022 fills videos), and PostgreSQL alters
-- no table with pending events: they fire now.
SET CONSTRAINTS ALL IMMEDIATE;--> statement-breakpoint
CREATE TABLE "learning_curve_stale" (
	"learner_id" uuid PRIMARY KEY NOT NULL,
	"marked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "programme_curves" (
	"programme_id" uuid NOT NULL,
	"learner_id" uuid NOT NULL,
	"surgery_id" uuid NOT NULL,
	"cases" integer NOT NULL,
	"judged" integer NOT NULL,
	"failures" integer NOT NULL,
	"state" text NOT NULL,
	"proficient_at" integer,
	"relapse_at" integer,
	"unacceptable_at" integer,
	"cusum" double precision NOT NULL,
	"latest_rating" double precision,
	"latest_average" double precision,
	"trend" double precision,
	"last_case_on" date,
	"notified_proficient_at" integer,
	"notified_relapse_at" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "programme_curves_programme_id_learner_id_surgery_id_pk" PRIMARY KEY("programme_id","learner_id","surgery_id")
);
--> statement-breakpoint
CREATE TABLE "programme_directors" (
	"programme_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "programme_directors_programme_id_user_id_pk" PRIMARY KEY("programme_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "programme_members" (
	"programme_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "programme_members_programme_id_user_id_pk" PRIMARY KEY("programme_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "programmes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"specialty_id" uuid,
	"starts_on" date,
	"ends_on" date,
	"p0" double precision DEFAULT 0.1 NOT NULL,
	"p1" double precision DEFAULT 0.3 NOT NULL,
	"alpha" double precision DEFAULT 0.1 NOT NULL,
	"beta" double precision DEFAULT 0.1 NOT NULL,
	"failure_rule" text DEFAULT 'globalBelow3' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "operated_on" date;--> statement-breakpoint
ALTER TABLE "programme_curves" ADD CONSTRAINT "programme_curves_programme_id_programmes_id_fk" FOREIGN KEY ("programme_id") REFERENCES "public"."programmes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "programme_curves" ADD CONSTRAINT "programme_curves_learner_id_users_id_fk" FOREIGN KEY ("learner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "programme_curves" ADD CONSTRAINT "programme_curves_surgery_id_surgeries_id_fk" FOREIGN KEY ("surgery_id") REFERENCES "public"."surgeries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "programme_directors" ADD CONSTRAINT "programme_directors_programme_id_programmes_id_fk" FOREIGN KEY ("programme_id") REFERENCES "public"."programmes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "programme_directors" ADD CONSTRAINT "programme_directors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "programme_members" ADD CONSTRAINT "programme_members_programme_id_programmes_id_fk" FOREIGN KEY ("programme_id") REFERENCES "public"."programmes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "programme_members" ADD CONSTRAINT "programme_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "programmes" ADD CONSTRAINT "programmes_specialty_id_specialties_id_fk" FOREIGN KEY ("specialty_id") REFERENCES "public"."specialties"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "programme_directors_user" ON "programme_directors" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "programme_members_user" ON "programme_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "programmes_name" ON "programmes" USING btree ("name");--> statement-breakpoint
-- Written by hand (not generated from schema.ts). A learner's learning curves change whenever a
-- case of theirs whose ratings reached them changes (docs/learning-curves.md, *The read model*):
-- its ratings released, a further review submitted, its operation day, its surgery, the case
-- deleted. Whatever writes it, the learner is listed in learning_curve_stale, and modules/programmes
-- computes their curves again before any cohort is read.
CREATE OR REPLACE FUNCTION learning_curve_case_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO learning_curve_stale (learner_id)
    VALUES (CASE WHEN TG_OP = 'DELETE' THEN OLD.author_id ELSE NEW.author_id END)
    ON CONFLICT (learner_id) DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER learning_curve_case_insert AFTER INSERT ON videos
  FOR EACH ROW WHEN (NEW.ratings_released_at IS NOT NULL) EXECUTE FUNCTION learning_curve_case_changed();--> statement-breakpoint
CREATE TRIGGER learning_curve_case_update AFTER UPDATE ON videos
  FOR EACH ROW WHEN ((OLD.ratings_released_at IS NOT NULL OR NEW.ratings_released_at IS NOT NULL) AND (
    OLD.ratings_released_at IS DISTINCT FROM NEW.ratings_released_at OR OLD.operated_on IS DISTINCT FROM NEW.operated_on
    OR OLD.surgery_id IS DISTINCT FROM NEW.surgery_id OR OLD.sent_at IS DISTINCT FROM NEW.sent_at))
  EXECUTE FUNCTION learning_curve_case_changed();--> statement-breakpoint
CREATE TRIGGER learning_curve_case_delete AFTER DELETE ON videos
  FOR EACH ROW WHEN (OLD.ratings_released_at IS NOT NULL) EXECUTE FUNCTION learning_curve_case_changed();--> statement-breakpoint
CREATE OR REPLACE FUNCTION learning_curve_review_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO learning_curve_stale (learner_id)
    SELECT v.author_id FROM videos v
    WHERE v.id = (CASE WHEN TG_OP = 'DELETE' THEN OLD.video_id ELSE NEW.video_id END) AND v.ratings_released_at IS NOT NULL
    ON CONFLICT (learner_id) DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER learning_curve_review_insert AFTER INSERT ON analyses
  FOR EACH ROW WHEN (NEW.status = 'submitted') EXECUTE FUNCTION learning_curve_review_changed();--> statement-breakpoint
CREATE TRIGGER learning_curve_review_update AFTER UPDATE ON analyses
  FOR EACH ROW WHEN (OLD.status = 'submitted' OR NEW.status = 'submitted') EXECUTE FUNCTION learning_curve_review_changed();--> statement-breakpoint
CREATE TRIGGER learning_curve_review_delete AFTER DELETE ON analyses
  FOR EACH ROW WHEN (OLD.status = 'submitted') EXECUTE FUNCTION learning_curve_review_changed();
