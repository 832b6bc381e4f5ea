-- One ledger with credit buckets (plan grant, rewards, purchased top-ups), typed credit
-- operations, subscription order and scheduled plan changes, reusable checkout sessions.
CREATE TABLE "credit_buckets" (
	"user_id" uuid NOT NULL,
	"feature" text NOT NULL,
	"bucket" text NOT NULL,
	"balance" integer DEFAULT 0 NOT NULL,
	"unlimited" boolean DEFAULT false NOT NULL,
	"period_used" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_buckets_user_id_feature_bucket_pk" PRIMARY KEY("user_id","feature","bucket"),
	CONSTRAINT "credit_buckets_balance_check" CHECK ("credit_buckets"."balance" >= 0)
);
--> statement-breakpoint
ALTER TABLE "credit_buckets" ADD CONSTRAINT "credit_buckets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE TABLE "credit_operations" (
	"key" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"charge_kind" text,
	"feature" text NOT NULL,
	"amount" integer NOT NULL,
	"reason" text NOT NULL,
	"task_id" uuid,
	"job_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "credit_operations" ADD CONSTRAINT "credit_operations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "credit_operations_task_idx" ON "credit_operations" USING btree ("task_id");
--> statement-breakpoint
CREATE INDEX "credit_operations_job_idx" ON "credit_operations" USING btree ("job_id");
--> statement-breakpoint
-- The old ledger's rows become operations and movements (the old plan grants wrote one row per
-- feature under `<key>:<feature>`, so every old row is its own operation).
DROP INDEX "credit_ledger_charge_key";
--> statement-breakpoint
ALTER TABLE "credit_ledger" RENAME COLUMN "charge_key" TO "operation_key";
--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD COLUMN "kind" text DEFAULT 'charge' NOT NULL;
--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD COLUMN "bucket" text DEFAULT 'plan' NOT NULL;
--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD COLUMN "balance_after" integer;
--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD COLUMN "task_id" uuid;
--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD COLUMN "job_id" uuid;
--> statement-breakpoint
UPDATE "credit_ledger" SET
	"kind" = CASE
		WHEN "operation_key" LIKE 'refund:%' THEN 'refund'
		WHEN "amount" < 0 THEN 'charge'
		ELSE 'grant' END,
	"bucket" = CASE
		WHEN "action" = 'CREDIT' THEN 'purchased'
		WHEN "reason" = 'invite reward' THEN 'reward'
		ELSE 'plan' END,
	"task_id" = CASE WHEN "operation_key" ~ '^(refund:)?(task|summary):[0-9a-f-]{36}:'
		THEN substring("operation_key" from '(?:task|summary):([0-9a-f-]{36})')::uuid END,
	"job_id" = CASE WHEN "operation_key" ~ '^(refund:)?job:[0-9a-f-]{36}$'
		THEN substring("operation_key" from 'job:([0-9a-f-]{36})')::uuid END;
--> statement-breakpoint
INSERT INTO "credit_operations" ("key", "user_id", "kind", "feature", "amount", "reason", "task_id", "job_id", "created_at")
	SELECT "operation_key", "user_id", "kind", "feature", abs("amount"), "reason", "task_id", "job_id", "created_at"
	FROM "credit_ledger" ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE INDEX "credit_ledger_user_idx" ON "credit_ledger" USING btree ("user_id","created_at");
--> statement-breakpoint
CREATE INDEX "credit_ledger_operation_idx" ON "credit_ledger" USING btree ("operation_key");
--> statement-breakpoint
-- Balances into buckets. CREDIT: top-ups and rewards added since the last plan grant are the
-- purchased and reward buckets, the rest of the limit is the plan's grant; what was used is taken
-- in the spending order (plan, then rewards, then purchased). Credits the old plan reset wiped
-- before this release are not reconstructed.
INSERT INTO "credit_buckets" ("user_id", "feature", "bucket", "balance", "unlimited", "period_used")
	WITH "since" AS (
		SELECT e."user_id", e."limit", e."usage",
			coalesce((SELECT sum(l."amount") FROM "credit_ledger" l WHERE l."user_id" = e."user_id"
				AND l."bucket" = 'purchased' AND l."amount" > 0 AND l."created_at" > coalesce((
					SELECT max(g."created_at") FROM "credit_ledger" g WHERE g."user_id" = e."user_id"
					AND g."feature" = 'CREDIT' AND g."action" IN ('CREATE', 'UPGRADE', 'Recharge', 'UNSUBSCRIBE')),
				'-infinity'::timestamptz)), 0)::integer AS "purchased",
			coalesce((SELECT sum(l."amount") FROM "credit_ledger" l WHERE l."user_id" = e."user_id"
				AND l."bucket" = 'reward' AND l."amount" > 0 AND l."created_at" > coalesce((
					SELECT max(g."created_at") FROM "credit_ledger" g WHERE g."user_id" = e."user_id"
					AND g."feature" = 'CREDIT' AND g."action" IN ('CREATE', 'UPGRADE', 'Recharge', 'UNSUBSCRIBE')),
				'-infinity'::timestamptz)), 0)::integer AS "reward"
		FROM "entitlements" e WHERE e."feature" = 'CREDIT'
	), "split" AS (
		SELECT *, greatest("limit" - "purchased" - "reward", 0) AS "grant" FROM "since"
	)
	SELECT "user_id", 'CREDIT', 'plan',
		CASE WHEN "limit" = -1 THEN 0 ELSE greatest("grant" - "usage", 0) END, "limit" = -1, "usage"
		FROM "split"
	UNION ALL
	SELECT "user_id", 'CREDIT', 'reward',
		CASE WHEN "limit" = -1 THEN "reward"
			ELSE greatest("reward" - greatest("usage" - "grant", 0), 0) END, false, 0
		FROM "split" WHERE "reward" > 0
	UNION ALL
	SELECT "user_id", 'CREDIT', 'purchased',
		CASE WHEN "limit" = -1 THEN "purchased"
			ELSE greatest("purchased" - greatest("usage" - "grant" - "reward", 0), 0) END, false, 0
		FROM "split" WHERE "purchased" > 0;
--> statement-breakpoint
INSERT INTO "credit_buckets" ("user_id", "feature", "bucket", "balance", "unlimited", "period_used")
	SELECT "user_id", "feature", 'plan', CASE WHEN "limit" = -1 THEN 0 ELSE greatest("limit" - "usage", 0) END,
		"limit" = -1, "usage"
	FROM "entitlements" WHERE "feature" IN ('FREE_TOOL_CREDIT', 'CANVAS_EXPORT');
--> statement-breakpoint
DROP TABLE "entitlements";
--> statement-breakpoint
ALTER TABLE "billing_subscriptions" ADD COLUMN "scheduled_plan" text;
--> statement-breakpoint
ALTER TABLE "billing_subscriptions" ADD COLUMN "last_event_at" bigint DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "billing_checkout_sessions" ADD COLUMN "url" text;
--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "reuses_transcript" boolean DEFAULT false NOT NULL;
