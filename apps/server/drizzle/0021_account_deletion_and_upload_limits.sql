-- A deleted account stays as an anonymous row (no email, name or usable password), so the credit
-- ledger and invoices that accounting keeps still point at something.
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "deleted_at" timestamp with time zone;--> statement-breakpoint
-- A change of email waits here until the link mailed to the new address is opened: single use,
-- expiring; only the token's SHA-256 is kept.
CREATE TABLE IF NOT EXISTS "email_changes" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"new_email" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_changes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "email_changes_user_idx" ON "email_changes" USING btree ("user_id");--> statement-breakpoint
-- Every upload a user starts (plain or resumable), for the per-plan upload rate.
CREATE TABLE IF NOT EXISTS "upload_starts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "upload_starts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "upload_starts_user_idx" ON "upload_starts" USING btree ("user_id","created_at");
