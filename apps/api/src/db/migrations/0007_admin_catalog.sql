CREATE TABLE "vocabulary_seeds" (
	"kind" text NOT NULL,
	"code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vocabulary_seeds_kind_code_pk" PRIMARY KEY("kind","code")
);
--> statement-breakpoint
ALTER TABLE "organs" ADD COLUMN "retired_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "specialties" ADD COLUMN "retired_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "surgeries" ADD COLUMN "retired_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "surgery_steps" ADD COLUMN "retired_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "organs_name_fr_unique" ON "organs" USING btree (lower("name_fr"));--> statement-breakpoint
CREATE UNIQUE INDEX "organs_name_en_unique" ON "organs" USING btree (lower("name_en"));--> statement-breakpoint
CREATE UNIQUE INDEX "specialties_name_fr_unique" ON "specialties" USING btree (lower("name_fr"));--> statement-breakpoint
CREATE UNIQUE INDEX "specialties_name_en_unique" ON "specialties" USING btree (lower("name_en"));--> statement-breakpoint
CREATE UNIQUE INDEX "surgeries_name_fr_unique" ON "surgeries" USING btree (lower("name_fr"));--> statement-breakpoint
CREATE UNIQUE INDEX "surgeries_name_en_unique" ON "surgeries" USING btree (lower("name_en"));--> statement-breakpoint
CREATE INDEX "surgeries_organ" ON "surgeries" USING btree ("organ_id");--> statement-breakpoint
CREATE UNIQUE INDEX "surgery_steps_name_fr_unique" ON "surgery_steps" USING btree ("surgery_id",lower("name_fr"));--> statement-breakpoint
CREATE UNIQUE INDEX "surgery_steps_name_en_unique" ON "surgery_steps" USING btree ("surgery_id",lower("name_en"));--> statement-breakpoint
CREATE INDEX "users_specialty" ON "users" USING btree ("specialty_id");--> statement-breakpoint
CREATE INDEX "video_steps_surgery_step" ON "video_steps" USING btree ("surgery_step_id");--> statement-breakpoint
CREATE INDEX "videos_created" ON "videos" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "videos_surgery" ON "videos" USING btree ("surgery_id");--> statement-breakpoint
CREATE INDEX "videos_organ" ON "videos" USING btree ("organ_id");--> statement-breakpoint
CREATE INDEX "videos_key_steps" ON "videos" USING gin ("key_step_ids");