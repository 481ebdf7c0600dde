CREATE TABLE "tus_uploads" (
	"id" uuid PRIMARY KEY NOT NULL,
	"video_id" uuid NOT NULL,
	"owner_id" uuid NOT NULL,
	"size" bigint NOT NULL,
	"filetype" text,
	"offset" bigint DEFAULT 0 NOT NULL,
	"multipart_id" text,
	"parts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"tail_key" text,
	"tail_size" bigint DEFAULT 0 NOT NULL,
	"completed" boolean DEFAULT false NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "tus_uploads_video" ON "tus_uploads" USING btree ("video_id");