-- The clip editor's settings of a moment, kept as the user edits, so leaving the editor, a reload
-- or another device opens the clip as it was left.
CREATE TABLE IF NOT EXISTS "clip_drafts" (
	"user_id" uuid NOT NULL,
	"moment_id" uuid NOT NULL,
	"settings" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "clip_drafts_user_id_moment_id_pk" PRIMARY KEY("user_id","moment_id"),
	CONSTRAINT "clip_drafts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action,
	CONSTRAINT "clip_drafts_moment_id_moments_id_fk" FOREIGN KEY ("moment_id") REFERENCES "public"."moments"("id") ON DELETE cascade ON UPDATE no action
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "clip_drafts_moment_idx" ON "clip_drafts" USING btree ("moment_id");--> statement-breakpoint
-- Why credits went back (the work failed, was deleted, or its summary could not be made), so the
-- credit history can say it in the reader's words; null for other movements and older refunds.
ALTER TABLE "credit_ledger" ADD COLUMN IF NOT EXISTS "cause" text;
