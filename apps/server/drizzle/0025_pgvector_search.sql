-- Meaning search through pgvector: each moment's and passage's sentence embedding is a halfvec
-- (half the size of a vector, ample precision for a cosine) with an HNSW index (cosine distance),
-- so the nearest documents come from the index instead of a scan of every document's sign bits.
-- The same statements run on PostgreSQL (pgvector installed from the distribution or PostgreSQL's
-- apt repository) and on the embedded PGlite (its vector extension, loaded by the app).
CREATE EXTENSION IF NOT EXISTS vector;
--> statement-breakpoint
ALTER TABLE "moments" ADD COLUMN "search_vector" halfvec(384);
--> statement-breakpoint
ALTER TABLE "search_passages" ADD COLUMN "search_vector" halfvec(384);
--> statement-breakpoint
-- The stored int8 embeddings (one signed byte per dimension, any scale) become unit vectors;
-- an embedding of another size is dropped and made again by the search-index job.
CREATE FUNCTION "search_int8_halfvec"("stored" bytea) RETURNS halfvec
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT l2_normalize(array_agg(((get_byte(stored, i) # 128) - 128)::real ORDER BY i)::halfvec)
        FROM generate_series(0, length(stored) - 1) AS i $$;
--> statement-breakpoint
UPDATE "moments" SET "search_vector" = search_int8_halfvec("search_embedding")
  WHERE length("search_embedding") = 384;
--> statement-breakpoint
UPDATE "search_passages" SET "search_vector" = search_int8_halfvec("search_embedding")
  WHERE length("search_embedding") = 384;
--> statement-breakpoint
UPDATE "moments" SET "search_model" = NULL WHERE "search_vector" IS NULL;
--> statement-breakpoint
UPDATE "search_passages" SET "search_model" = NULL WHERE "search_vector" IS NULL;
--> statement-breakpoint
DROP FUNCTION "search_int8_halfvec"(bytea);
--> statement-breakpoint
-- Dropping the old columns drops the indexes built on them (the sign-bit covering indexes and
-- the pending-work indexes), recreated below on the new column.
ALTER TABLE "moments" DROP COLUMN "search_embedding", DROP COLUMN "search_code";
--> statement-breakpoint
ALTER TABLE "search_passages" DROP COLUMN "search_embedding", DROP COLUMN "search_code";
--> statement-breakpoint
DROP INDEX IF EXISTS "moments_search_code_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "moments_search_published_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "search_passages_user_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "moments_uncounted_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "search_passages_pending_idx";
--> statement-breakpoint
-- The word search's scan of a requester's own documents, for words too common for the GIN index.
CREATE INDEX "search_passages_user_idx" ON "search_passages" USING btree ("user_id");
--> statement-breakpoint
CREATE INDEX "moments_search_published_idx" ON "moments" USING btree ("user_id") WHERE "share_id" IS NOT NULL AND "published";
--> statement-breakpoint
CREATE INDEX "moments_uncounted_idx" ON "moments" USING btree ("task_id") WHERE NOT "search_counted" OR "search_vector" IS NULL;
--> statement-breakpoint
CREATE INDEX "search_passages_pending_idx" ON "search_passages" USING btree ("task_id") WHERE NOT "search_counted" OR "search_vector" IS NULL;
--> statement-breakpoint
-- The nearest neighbours: every passage (filtered to the requester's by an iterative index scan),
-- every moment, and the published moments everyone searches (a partial index of their own).
CREATE INDEX "search_passages_vector_idx" ON "search_passages" USING hnsw ("search_vector" halfvec_cosine_ops);
--> statement-breakpoint
CREATE INDEX "moments_vector_idx" ON "moments" USING hnsw ("search_vector" halfvec_cosine_ops);
--> statement-breakpoint
CREATE INDEX "moments_published_vector_idx" ON "moments" USING hnsw ("search_vector" halfvec_cosine_ops) WHERE "share_id" IS NOT NULL AND "published";
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "moments_search_stale"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.title IS DISTINCT FROM OLD.title OR NEW.description IS DISTINCT FROM OLD.description
     OR NEW.transcript IS DISTINCT FROM OLD.transcript OR NEW.hashtags IS DISTINCT FROM OLD.hashtags THEN
    NEW.search_vector := NULL;
    NEW.search_model := NULL;
  END IF;
  RETURN NEW;
END $$;
