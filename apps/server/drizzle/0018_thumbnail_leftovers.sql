-- Thumbnail loose ends: a video whose media can give no frame (audio only, or no picture
-- decodable) is marked, so the thumbnail backfill at each worker start passes it by; link
-- previews stored before any task are listed, so housekeeping removes the ones left a day.
ALTER TABLE "tasks" ADD COLUMN IF NOT EXISTS "frameless_reason" text;--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "link_previews" (
	"user_id" uuid NOT NULL,
	"id" text NOT NULL,
	"storage_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "link_previews_user_id_id_pk" PRIMARY KEY("user_id","id"),
	CONSTRAINT "link_previews_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "link_previews_created_idx" ON "link_previews" USING btree ("created_at");
