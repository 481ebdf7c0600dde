CREATE TABLE "best_case_drawings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"best_case_id" uuid NOT NULL,
	"time" double precision NOT NULL,
	"drawing" jsonb NOT NULL,
	"note" text NOT NULL,
	"created_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "analysis_comments" ADD COLUMN "drawing" jsonb;--> statement-breakpoint
ALTER TABLE "best_case_drawings" ADD CONSTRAINT "best_case_drawings_best_case_id_best_cases_id_fk" FOREIGN KEY ("best_case_id") REFERENCES "public"."best_cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "best_case_drawings" ADD CONSTRAINT "best_case_drawings_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "best_case_drawings_case" ON "best_case_drawings" USING btree ("best_case_id","time");