CREATE TABLE "realtime_tickets" (
	"ticket_hash" text PRIMARY KEY NOT NULL,
	"session_hash" text NOT NULL,
	"user_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "realtime_tickets" ADD CONSTRAINT "realtime_tickets_session_hash_sessions_token_hash_fk" FOREIGN KEY ("session_hash") REFERENCES "public"."sessions"("token_hash") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "realtime_tickets" ADD CONSTRAINT "realtime_tickets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "realtime_tickets_expires_idx" ON "realtime_tickets" USING btree ("expires_at");
--> statement-breakpoint
CREATE INDEX "jobs_orphan_idx" ON "jobs" USING btree ("heartbeat_at") WHERE "status" = 'IN_PROGRESS';
--> statement-breakpoint
CREATE INDEX "jobs_moment_idx" ON "jobs" USING btree ("moment_id");
--> statement-breakpoint
CREATE INDEX "jobs_task_idx" ON "jobs" USING btree ("task_id");
--> statement-breakpoint
CREATE INDEX "moments_shared_type_idx" ON "moments" USING btree ("type", "score" DESC, "created_at" DESC) WHERE "share_id" IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "moments" ADD COLUMN "search_text" text GENERATED ALWAYS AS ("description" || ' ' || translate("hashtags"::text, '[]",', '    ') || ' ' || "transcript") STORED;
--> statement-breakpoint
ALTER TABLE "moments" ADD COLUMN "search_vec" tsvector GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, "title"), 'A') || setweight(to_tsvector('simple'::regconfig, "description" || ' ' || translate("hashtags"::text, '[]",', '    ') || ' ' || "transcript"), 'B')) STORED;
--> statement-breakpoint
CREATE INDEX "moments_search_idx" ON "moments" USING gin ("search_vec");
--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "search_title" text GENERATED ALWAYS AS (coalesce("video"->>'title', '')) STORED;
--> statement-breakpoint
ALTER TABLE "transcripts" ADD COLUMN "search_text" text GENERATED ALWAYS AS (translate(jsonb_path_query_array("segments", '$[*].text')::text, '[]",', '    ')) STORED;
--> statement-breakpoint
ALTER TABLE "transcripts" ADD COLUMN "search_vec" tsvector GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, translate(jsonb_path_query_array("segments", '$[*].text')::text, '[]",', '    ')), 'B')) STORED;
--> statement-breakpoint
CREATE INDEX "transcripts_search_idx" ON "transcripts" USING gin ("search_vec");
