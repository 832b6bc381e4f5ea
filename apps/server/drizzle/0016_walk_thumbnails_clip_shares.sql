-- Thumbnails stored by the server (videos, moments, export posters) and exported clips
-- shared as unlisted, revocable /s/ pages.
ALTER TABLE "tasks" ADD COLUMN IF NOT EXISTS "thumbnail_key" text;--> statement-breakpoint
ALTER TABLE "moments" ADD COLUMN IF NOT EXISTS "thumbnail_key" text;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN IF NOT EXISTS "poster_key" text;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN IF NOT EXISTS "share_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "jobs_share_key" ON "jobs" ("share_id");
