-- The server processes sharing this database, each heart-beating its row: what it runs (roles,
-- job queues), its realtime bus, its PUBLIC_URL and a fingerprint of its APP_SECRET, so a process
-- whose settings differ from the live ones refuses at start, and `npm run jobs` can say which
-- queue has no worker. Browsers connected to an API process are kept too, so a worker-only
-- process knows who is watching live.
CREATE TABLE IF NOT EXISTS "server_processes" (
	"id" text PRIMARY KEY NOT NULL,
	"hostname" text NOT NULL,
	"pid" integer NOT NULL,
	"roles" jsonb NOT NULL,
	"queues" jsonb NOT NULL,
	"bus" text NOT NULL,
	"public_url" text NOT NULL,
	"secret_fingerprint" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "server_processes_seen_idx" ON "server_processes" USING btree ("seen_at");--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "realtime_presence" (
	"process_id" text NOT NULL,
	"user_id" uuid NOT NULL,
	"since" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "realtime_presence_pk" PRIMARY KEY ("user_id", "process_id"),
	CONSTRAINT "realtime_presence_process_id_fk" FOREIGN KEY ("process_id") REFERENCES "public"."server_processes"("id") ON DELETE cascade ON UPDATE no action,
	CONSTRAINT "realtime_presence_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action
);
