-- The anonymous home list (moments published, of one type, best first) gets an index
-- whose predicate is the query's own. With `share_id IS NOT NULL` alone the planner, multiplying
-- the selectivities of two conditions that always go together, expected a handful of rows and
-- read another partial index, then sorted (query-plans.test.ts, on the load bench's data).
DROP INDEX IF EXISTS "moments_shared_type_idx";--> statement-breakpoint
CREATE INDEX "moments_shared_type_idx" ON "moments" USING btree ("type", "score" DESC, "created_at" DESC) WHERE "share_id" IS NOT NULL AND "published";
