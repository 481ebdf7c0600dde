CREATE TABLE "video_ladders" (
	"media_id" uuid PRIMARY KEY NOT NULL,
	"video_id" uuid NOT NULL,
	"status" text DEFAULT 'working' NOT NULL,
	"progress" smallint DEFAULT 0 NOT NULL,
	"rungs" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"source_bytes" bigint DEFAULT 0 NOT NULL,
	"work_ms" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ready_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "video_ladders" ADD CONSTRAINT "video_ladders_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_ladders" ADD CONSTRAINT "video_ladders_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "video_ladders_video" ON "video_ladders" USING btree ("video_id");