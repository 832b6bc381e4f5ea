-- Re-analysis keeps the user's moments and marks the ones it found for the first time.
ALTER TABLE "moments" ADD COLUMN "is_new" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
-- A run is claimed atomically when a worker starts it; queued runs have none.
ALTER TABLE "tasks" ADD COLUMN "started_at" timestamp with time zone;
