CREATE TABLE "best_cases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"video_id" uuid NOT NULL,
	"origin" text NOT NULL,
	"title_fr" text NOT NULL,
	"title_en" text NOT NULL,
	"description_fr" text NOT NULL,
	"description_en" text NOT NULL,
	"surgery_id" uuid,
	"organ_id" uuid,
	"consent" text NOT NULL,
	"consent_at" timestamp with time zone,
	"published" boolean DEFAULT false NOT NULL,
	"published_at" timestamp with time zone,
	"created_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "purpose" text DEFAULT 'case' NOT NULL;--> statement-breakpoint
ALTER TABLE "best_cases" ADD CONSTRAINT "best_cases_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "best_cases" ADD CONSTRAINT "best_cases_surgery_id_surgeries_id_fk" FOREIGN KEY ("surgery_id") REFERENCES "public"."surgeries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "best_cases" ADD CONSTRAINT "best_cases_organ_id_organs_id_fk" FOREIGN KEY ("organ_id") REFERENCES "public"."organs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "best_cases" ADD CONSTRAINT "best_cases_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "best_cases_video" ON "best_cases" USING btree ("video_id");--> statement-breakpoint
CREATE INDEX "best_cases_created" ON "best_cases" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "best_cases_published_surgery" ON "best_cases" USING btree ("surgery_id","organ_id","published_at") WHERE published;--> statement-breakpoint
CREATE INDEX "best_cases_published" ON "best_cases" USING btree ("published_at") WHERE published;