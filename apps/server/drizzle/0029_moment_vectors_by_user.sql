-- The moments' embeddings again, in a side table partitioned by owner like the passages (0028):
-- a signed-in search looks for the requester's nearest moments in one partition's HNSW graph
-- instead of walking the graph of every user's moments filtered to theirs (at a million
-- passages, 100,000 moments: 12.6 ms of the search). Moments themselves cannot be partitioned:
-- exports and feedback reference a moment by its id alone. The database keeps the copy in step
-- (a trigger on the moment's vector, a cascade on its deletion), so no code path can forget it.
-- moments.search_vector stays: the published moments' graph (moments_published_vector_idx) and
-- the meaning rescoring of word candidates read it.
CREATE TABLE "moment_vectors" (
	"moment_id" uuid NOT NULL REFERENCES "moments"("id") ON DELETE CASCADE,
	"user_id" uuid NOT NULL,
	"task_id" uuid NOT NULL,
	"search_model" text NOT NULL,
	"search_vector" halfvec(384) NOT NULL,
	PRIMARY KEY ("moment_id", "user_id")
) PARTITION BY HASH ("user_id");
--> statement-breakpoint
DO $$
BEGIN
  FOR i IN 0..15 LOOP
    EXECUTE format(
      'CREATE TABLE %I PARTITION OF "moment_vectors" FOR VALUES WITH (MODULUS 16, REMAINDER %s)',
      'moment_vectors_p' || lpad(i::text, 2, '0'), i);
  END LOOP;
END $$;
--> statement-breakpoint
CREATE FUNCTION "moment_vectors_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM "moment_vectors" WHERE "moment_id" = OLD."id" AND "user_id" = OLD."user_id";
  END IF;
  IF NEW."search_vector" IS NOT NULL AND NEW."search_model" IS NOT NULL THEN
    INSERT INTO "moment_vectors" ("moment_id", "user_id", "task_id", "search_model", "search_vector")
      VALUES (NEW."id", NEW."user_id", NEW."task_id", NEW."search_model", NEW."search_vector");
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "moments_vector_follow"
  AFTER INSERT OR UPDATE OF "search_vector", "search_model", "user_id", "task_id" ON "moments"
  FOR EACH ROW EXECUTE FUNCTION "moment_vectors_follow"();
--> statement-breakpoint
INSERT INTO "moment_vectors" ("moment_id", "user_id", "task_id", "search_model", "search_vector")
  SELECT "id", "user_id", "task_id", "search_model", "search_vector" FROM "moments"
  WHERE "search_vector" IS NOT NULL AND "search_model" IS NOT NULL;
--> statement-breakpoint
-- On each partition (named moment_vectors_pNN_...): the owner's moments, and their graph.
CREATE INDEX "moment_vectors_user_idx" ON "moment_vectors" USING btree ("user_id");
--> statement-breakpoint
CREATE INDEX "moment_vectors_vector_idx" ON "moment_vectors" USING hnsw ("search_vector" halfvec_cosine_ops) WITH (m = 24, ef_construction = 128);
--> statement-breakpoint
-- Every user's moments in one graph: no query reads it any more.
DROP INDEX IF EXISTS "moments_vector_idx";
--> statement-breakpoint
-- Statistics now, not at autovacuum's leisure: without them the planner takes the copied table
-- for empty and ranks the requester's moments by reading all of them.
ANALYZE "moment_vectors";
