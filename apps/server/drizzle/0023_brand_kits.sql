-- Brand kits: a logo (a PNG in storage) in a corner, a caption style and intro/outro card texts,
-- applied to a clip together. Kits go with their user (ON DELETE cascade); the logo files live
-- under the user's storage folder, which the account deletion empties.
CREATE TABLE IF NOT EXISTS "brand_kits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"logo_key" text,
	"logo_width" integer,
	"logo_height" integer,
	"logo_position" text NOT NULL,
	"logo_opacity" real NOT NULL,
	"logo_scale" real NOT NULL,
	"style" jsonb NOT NULL,
	"intro_text" text,
	"outro_text" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "brand_kits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "brand_kits_user_idx" ON "brand_kits" USING btree ("user_id","created_at");
