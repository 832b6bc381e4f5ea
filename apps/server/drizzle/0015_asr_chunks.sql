CREATE TABLE IF NOT EXISTS "asr_chunks" (
	"task_id" uuid NOT NULL,
	"idx" integer NOT NULL,
	"start_ms" integer NOT NULL,
	"end_ms" integer NOT NULL,
	"audio_key" text NOT NULL,
	"language" text,
	"status" text DEFAULT 'QUEUED' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"run_token" text,
	"worker" text,
	"heartbeat_at" timestamp with time zone,
	"result" jsonb,
	"error" text,
	CONSTRAINT "asr_chunks_task_id_idx_pk" PRIMARY KEY("task_id","idx")
);
--> statement-breakpoint
ALTER TABLE "asr_chunks" ADD CONSTRAINT "asr_chunks_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;
