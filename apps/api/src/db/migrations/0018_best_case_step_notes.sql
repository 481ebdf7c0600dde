CREATE TABLE "best_case_step_notes" (
	"best_case_id" uuid NOT NULL,
	"video_step_id" uuid NOT NULL,
	"note_fr" text DEFAULT '' NOT NULL,
	"note_en" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "best_case_step_notes_best_case_id_video_step_id_pk" PRIMARY KEY("best_case_id","video_step_id")
);
--> statement-breakpoint
ALTER TABLE "best_case_step_notes" ADD CONSTRAINT "best_case_step_notes_best_case_id_best_cases_id_fk" FOREIGN KEY ("best_case_id") REFERENCES "public"."best_cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "best_case_step_notes" ADD CONSTRAINT "best_case_step_notes_video_step_id_video_steps_id_fk" FOREIGN KEY ("video_step_id") REFERENCES "public"."video_steps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "best_case_step_notes_step" ON "best_case_step_notes" USING btree ("video_step_id");