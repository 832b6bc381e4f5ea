-- Export all: a batch of clips rendered with one set of options. Each clip stays an ordinary
-- export job (its own render, progress and charge) that points at its batch; the batch keeps the
-- order of its clips and when it finished, so its one notification is sent once.
CREATE TABLE IF NOT EXISTS "export_batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"task_id" uuid,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"job_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "export_batches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action,
	CONSTRAINT "export_batches_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE set null ON UPDATE no action
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "export_batches_user_idx" ON "export_batches" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "export_batches_task_idx" ON "export_batches" USING btree ("task_id");--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN IF NOT EXISTS "batch_id" uuid CONSTRAINT "jobs_batch_id_export_batches_id_fk" REFERENCES "public"."export_batches"("id") ON DELETE set null;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "jobs_batch_idx" ON "jobs" USING btree ("batch_id") WHERE "batch_id" IS NOT NULL;
