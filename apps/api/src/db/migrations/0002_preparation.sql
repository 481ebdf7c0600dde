CREATE TABLE "claims" (
	"video_id" uuid NOT NULL,
	"fencing_token" bigint NOT NULL,
	"stage" text NOT NULL,
	"holder_id" uuid,
	"claimed_at" timestamp with time zone NOT NULL,
	"lease_ends_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"end_reason" text,
	CONSTRAINT "claims_video_id_fencing_token_pk" PRIMARY KEY("video_id","fencing_token")
);
--> statement-breakpoint
CREATE TABLE "preparations" (
	"video_id" uuid PRIMARY KEY NOT NULL,
	"editor_id" uuid,
	"phase" text DEFAULT 'trim' NOT NULL,
	"trims" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"steps" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"saved_at" timestamp with time zone,
	"submitted_at" timestamp with time zone,
	"render_status" text DEFAULT 'idle' NOT NULL,
	"render_error" text,
	"render_attempt" integer DEFAULT 0 NOT NULL,
	"rendered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "video_steps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"video_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"surgery_step_id" uuid,
	"name" text NOT NULL,
	"start" double precision NOT NULL,
	"end" double precision NOT NULL
);
--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "claim_holder_id" uuid;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "lease_ends_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "fencing_token" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "source_media_id" uuid;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "cut_suggestions" jsonb;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_holder_id_users_id_fk" FOREIGN KEY ("holder_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "preparations" ADD CONSTRAINT "preparations_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "preparations" ADD CONSTRAINT "preparations_editor_id_users_id_fk" FOREIGN KEY ("editor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_steps" ADD CONSTRAINT "video_steps_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_steps" ADD CONSTRAINT "video_steps_surgery_step_id_surgery_steps_id_fk" FOREIGN KEY ("surgery_step_id") REFERENCES "public"."surgery_steps"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "claims_holder" ON "claims" USING btree ("holder_id","claimed_at");--> statement-breakpoint
CREATE INDEX "preparations_editor" ON "preparations" USING btree ("editor_id","submitted_at");--> statement-breakpoint
CREATE UNIQUE INDEX "video_steps_video_position" ON "video_steps" USING btree ("video_id","position");--> statement-breakpoint
ALTER TABLE "videos" ADD CONSTRAINT "videos_claim_holder_id_users_id_fk" FOREIGN KEY ("claim_holder_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "videos_claim_holder" ON "videos" USING btree ("claim_holder_id");