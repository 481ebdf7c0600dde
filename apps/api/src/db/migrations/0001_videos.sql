CREATE TABLE "video_pictures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"video_id" uuid NOT NULL,
	"media_id" uuid NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "video_shares" (
	"video_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "video_shares_video_id_user_id_pk" PRIMARY KEY("video_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "videos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"author_id" uuid NOT NULL,
	"kind" text DEFAULT 'video' NOT NULL,
	"status" text DEFAULT 'saved' NOT NULL,
	"media_status" text DEFAULT 'uploading' NOT NULL,
	"processing_progress" integer DEFAULT 0 NOT NULL,
	"failure_reason" text,
	"surgery_id" uuid,
	"organ_id" uuid,
	"key_step_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"equipment_brand" text,
	"equipment_used" text,
	"age_range" text,
	"patient_sex" text,
	"bmi" text,
	"complication" boolean,
	"surgical_history" text,
	"radiation_history" boolean,
	"medical_background" text[] DEFAULT '{}'::text[] NOT NULL,
	"main_hand" text,
	"surgery_duration" integer,
	"message_to_proctor" text,
	"nasa_tlx" jsonb,
	"priority" boolean DEFAULT false NOT NULL,
	"favourite" boolean DEFAULT false NOT NULL,
	"sent_at" timestamp with time zone,
	"upload_id" text,
	"source_key" text,
	"source_size" bigint,
	"video_media_id" uuid,
	"poster_media_id" uuid,
	"storyboard" jsonb,
	"duration" double precision,
	"width" integer,
	"height" integer,
	"frame_rate" double precision,
	"video_codec" text,
	"audio_codec" text,
	"remuxed" boolean,
	"ready_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "video_id" uuid;--> statement-breakpoint
ALTER TABLE "video_pictures" ADD CONSTRAINT "video_pictures_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_pictures" ADD CONSTRAINT "video_pictures_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_shares" ADD CONSTRAINT "video_shares_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_shares" ADD CONSTRAINT "video_shares_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "videos" ADD CONSTRAINT "videos_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "videos" ADD CONSTRAINT "videos_surgery_id_surgeries_id_fk" FOREIGN KEY ("surgery_id") REFERENCES "public"."surgeries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "videos" ADD CONSTRAINT "videos_organ_id_organs_id_fk" FOREIGN KEY ("organ_id") REFERENCES "public"."organs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "video_pictures_video" ON "video_pictures" USING btree ("video_id");--> statement-breakpoint
CREATE INDEX "video_shares_user" ON "video_shares" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "videos_author_created" ON "videos" USING btree ("author_id","created_at");--> statement-breakpoint
CREATE INDEX "videos_status" ON "videos" USING btree ("status");--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "media_video" ON "media" USING btree ("video_id");