ALTER TABLE "sessions" ADD COLUMN "token_id" uuid;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "previous_token_id" uuid;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "previous_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "verification_codes" ADD COLUMN "used_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "upload_warned_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "audit_log_ip_action_created" ON "audit_log" USING btree ("ip","action","created_at");