-- Re-analysis keeps the user's moments and marks the ones it found for the first time (issue 14 #1).
ALTER TABLE "moments" ADD COLUMN "is_new" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
-- A run is claimed atomically when a worker starts it; queued runs have none (issue 14 #3).
ALTER TABLE "tasks" ADD COLUMN "started_at" timestamp with time zone;
