-- Trigram indexes need pg_trgm (a trusted extension: the database owner may create it).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "app_language" text;--> statement-breakpoint
CREATE INDEX "surgeries_name_fr_trgm" ON "surgeries" USING gin ("name_fr" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "surgeries_name_en_trgm" ON "surgeries" USING gin ("name_en" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_search_trgm" ON "users" USING gin ((first_name || ' ' || last_name || ' ' || first_name || ' ' || email) gin_trgm_ops);