CREATE TABLE "legal_holds" (
	"video_id" uuid PRIMARY KEY NOT NULL,
	"reason" text NOT NULL,
	"held_by_id" uuid,
	"held_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "retention_rules" (
	"rule" text PRIMARY KEY NOT NULL,
	"days" integer,
	"updated_by_id" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "storage_objects" (
	"key" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"size" bigint NOT NULL,
	"video_id" uuid,
	"written_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "legal_holds" ADD CONSTRAINT "legal_holds_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_holds" ADD CONSTRAINT "legal_holds_held_by_id_users_id_fk" FOREIGN KEY ("held_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retention_rules" ADD CONSTRAINT "retention_rules_updated_by_id_users_id_fk" FOREIGN KEY ("updated_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "storage_objects_video" ON "storage_objects" USING btree ("video_id");--> statement-breakpoint
CREATE INDEX "storage_objects_written" ON "storage_objects" USING btree ("written_at");--> statement-breakpoint
-- Written by hand: the objects stored before the accounting, from the rows that name them (the
-- kinds as storage/accounted.ts reads them from the key); what no row names is the reconciliation's.
INSERT INTO "storage_objects" ("key", "kind", "size", "video_id", "written_at")
SELECT "storage_key",
	CASE
		WHEN "storage_key" LIKE 'uploads/%' THEN 'uploads'
		WHEN "storage_key" ~ '^users/[^/]+/avatar-' THEN 'avatars'
		WHEN "storage_key" ~ '^videos/[0-9a-f-]{36}/hls/' THEN 'renditions'
		WHEN "storage_key" ~ '^videos/[0-9a-f-]{36}/prepared-' THEN 'rendered'
		WHEN "storage_key" ~ '^videos/[0-9a-f-]{36}/pictures/' THEN 'pictures'
		WHEN "storage_key" ~ '^videos/[0-9a-f-]{36}/analysis/voice-' THEN 'voice'
		WHEN "storage_key" ~ '^videos/[0-9a-f-]{36}/' THEN 'sources'
		ELSE 'other'
	END,
	"size",
	CASE WHEN "storage_key" ~ '^videos/[0-9a-f-]{36}/' THEN substring("storage_key" from 8 for 36)::uuid END,
	"created_at"
FROM "media"
ON CONFLICT ("key") DO NOTHING;--> statement-breakpoint
INSERT INTO "storage_objects" ("key", "kind", "size", "video_id", "written_at")
SELECT "source_key", 'uploads', "source_size", NULL, "updated_at"
FROM "videos"
WHERE "source_key" LIKE 'uploads/%' AND "source_size" IS NOT NULL
ON CONFLICT ("key") DO NOTHING;
