CREATE TABLE "disagreements" (
	"video_id" uuid PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'flagged' NOT NULL,
	"items" jsonb NOT NULL,
	"max_gap" smallint NOT NULL,
	"flagged_at" timestamp with time zone NOT NULL,
	"resolved_by_id" uuid,
	"resolved_at" timestamp with time zone,
	"note" text
);
--> statement-breakpoint
ALTER TABLE "analysis_comments" DROP CONSTRAINT "analysis_comments_video_id_analyses_video_id_fk";
--> statement-breakpoint
DROP INDEX "analysis_comments_video";--> statement-breakpoint
ALTER TABLE "analyses" DROP CONSTRAINT "analyses_pkey";--> statement-breakpoint
ALTER TABLE "analyses" ADD COLUMN "round" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "analyses" ADD CONSTRAINT "analyses_video_id_round_pk" PRIMARY KEY("video_id","round");--> statement-breakpoint
ALTER TABLE "analysis_comments" ADD COLUMN "round" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "surgeries" ADD COLUMN "second_review_share" smallint;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "reviews_required" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "review_round" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "second_review_share" smallint;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "second_review_draw" double precision;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "second_review_reason" text;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "result_released_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "disagreements" ADD CONSTRAINT "disagreements_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disagreements" ADD CONSTRAINT "disagreements_resolved_by_id_users_id_fk" FOREIGN KEY ("resolved_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "disagreements_status_flagged" ON "disagreements" USING btree ("status","flagged_at");--> statement-breakpoint
ALTER TABLE "analysis_comments" ADD CONSTRAINT "analysis_comments_review_fk" FOREIGN KEY ("video_id","round") REFERENCES "public"."analyses"("video_id","round") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analysis_comments_video" ON "analysis_comments" USING btree ("video_id","round","start");--> statement-breakpoint
-- hand-written: every existing review is round 1 (the column defaults); a case already analysed
-- had its result shown when its single review was submitted.
UPDATE "videos" v SET "result_released_at" = a."submitted_at"
  FROM "analyses" a
  WHERE a."video_id" = v."id" AND a."round" = 1 AND a."status" = 'submitted' AND v."status" = 'analysed';
