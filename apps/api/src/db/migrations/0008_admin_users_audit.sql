ALTER TABLE "users" ADD COLUMN "deactivated_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "audit_log_action_created" ON "audit_log" USING btree ("action","created_at");--> statement-breakpoint
CREATE INDEX "audit_log_entity_id" ON "audit_log" USING btree ("entity_id");--> statement-breakpoint
CREATE INDEX "users_created" ON "users" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "users_roles" ON "users" USING gin ("roles");