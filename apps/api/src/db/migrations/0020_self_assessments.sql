CREATE TABLE "self_assessments" (
	"video_id" uuid PRIMARY KEY NOT NULL,
	"author_id" uuid NOT NULL,
	"kpi_ratings" jsonb,
	"global_rating" integer,
	"submitted_at" timestamp with time zone,
	"skipped_at" timestamp with time zone,
	"result_seen_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "self_assessments" ADD CONSTRAINT "self_assessments_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "self_assessments" ADD CONSTRAINT "self_assessments_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "self_assessments_author_submitted" ON "self_assessments" USING btree ("author_id","submitted_at") WHERE submitted_at IS NOT NULL;