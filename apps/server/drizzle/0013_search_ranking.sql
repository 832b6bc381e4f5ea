-- The home search ranks with BM25 over stemmed content words
-- (PostgreSQL's 'english' configuration: Snowball stems, function words dropped), fused with
-- sentence embeddings. Transcripts are searched as passages (a few sentences each), so a task hit
-- points at the part of the video that answers. The same SQL runs on PostgreSQL and PGlite.

-- BM25's document length: content words, counting repeats (a tsvector keeps each word once).
CREATE FUNCTION "search_length"("terms" tsvector) RETURNS integer
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT coalesce(sum(coalesce(array_length(positions, 1), 1)), 0)::integer FROM unnest(terms) $$;
--> statement-breakpoint
DROP INDEX IF EXISTS "moments_search_idx";
--> statement-breakpoint
ALTER TABLE "moments" DROP COLUMN IF EXISTS "search_vec";
--> statement-breakpoint
DROP INDEX IF EXISTS "transcripts_search_idx";
--> statement-breakpoint
ALTER TABLE "transcripts" DROP COLUMN IF EXISTS "search_vec";
--> statement-breakpoint
-- The title's words carry weight A: BM25 counts each of them three times (a title says what it is about).
ALTER TABLE "moments" ADD COLUMN "search_terms" tsvector GENERATED ALWAYS AS (setweight(to_tsvector('english'::regconfig, "title"), 'A') || to_tsvector('english'::regconfig, "description" || ' ' || translate("hashtags"::text, '[]",#', '     ') || ' ' || "transcript")) STORED;
--> statement-breakpoint
ALTER TABLE "moments" ADD COLUMN "search_len" integer GENERATED ALWAYS AS (search_length(setweight(to_tsvector('english'::regconfig, "title"), 'A') || to_tsvector('english'::regconfig, "description" || ' ' || translate("hashtags"::text, '[]",#', '     ') || ' ' || "transcript"))) STORED;
--> statement-breakpoint
-- The sentence embedding (int8, unit length before rounding), its sign bits for a cheap first
-- pass (Hamming distance), and the model that made them.
ALTER TABLE "moments" ADD COLUMN "search_embedding" bytea;
--> statement-breakpoint
ALTER TABLE "moments" ADD COLUMN "search_code" bit varying;
--> statement-breakpoint
ALTER TABLE "moments" ADD COLUMN "search_model" text;
--> statement-breakpoint
-- Whether the corpus statistics (search_term_docs) count this row yet.
ALTER TABLE "moments" ADD COLUMN "search_counted" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
CREATE INDEX "moments_search_terms_idx" ON "moments" USING gin ("search_terms");
--> statement-breakpoint
-- The meaning candidates' first pass reads the sign bits from these covering indexes alone.
CREATE INDEX "moments_search_code_idx" ON "moments" USING btree ("user_id") INCLUDE ("search_model", "search_code", "id");
--> statement-breakpoint
CREATE INDEX "moments_search_published_idx" ON "moments" USING btree ("user_id") INCLUDE ("search_model", "search_code", "id") WHERE "share_id" IS NOT NULL AND "published";
--> statement-breakpoint
CREATE INDEX "moments_uncounted_idx" ON "moments" USING btree ("task_id") WHERE NOT "search_counted" OR "search_embedding" IS NULL;
--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "search_terms" tsvector GENERATED ALWAYS AS (setweight(to_tsvector('english'::regconfig, coalesce("video"->>'title', '')), 'A')) STORED;
--> statement-breakpoint
CREATE TABLE "search_passages" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"task_id" uuid NOT NULL REFERENCES "tasks"("id") ON DELETE CASCADE,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"start_ms" integer NOT NULL,
	"end_ms" integer NOT NULL,
	-- One line per transcript segment; segment_starts[i] is where line i is heard.
	"text" text NOT NULL,
	"segment_starts" integer[] NOT NULL,
	"search_terms" tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, "text")) STORED,
	"search_len" integer GENERATED ALWAYS AS (search_length(to_tsvector('english'::regconfig, "text"))) STORED,
	"search_embedding" bytea,
	"search_code" bit varying,
	"search_model" text,
	"search_counted" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE INDEX "search_passages_task_idx" ON "search_passages" USING btree ("task_id", "start_ms");
--> statement-breakpoint
CREATE INDEX "search_passages_user_idx" ON "search_passages" USING btree ("user_id") INCLUDE ("search_model", "search_code", "id");
--> statement-breakpoint
CREATE INDEX "search_passages_terms_idx" ON "search_passages" USING gin ("search_terms");
--> statement-breakpoint
CREATE INDEX "search_passages_pending_idx" ON "search_passages" USING btree ("task_id") WHERE NOT "search_counted" OR "search_embedding" IS NULL;
--> statement-breakpoint
-- Corpus statistics for BM25: in how many documents (moments and passages) each stem occurs, and
-- the number and total length of the documents. Added to when a task's documents are indexed;
-- recounted from scratch by the search-index job (deleted documents count until then, as in
-- Lucene until a merge).
CREATE TABLE "search_term_docs" (
	"lexeme" text PRIMARY KEY NOT NULL,
	"docs" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "search_corpus" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL CHECK ("id"),
	"docs" bigint NOT NULL,
	"length" bigint NOT NULL
);
--> statement-breakpoint
INSERT INTO "search_corpus" ("id", "docs", "length") VALUES (true, 0, 0);
--> statement-breakpoint
-- A moment whose words change (a re-analysis keeps it with a new text, a title edit) is embedded again.
CREATE FUNCTION "moments_search_stale"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.title IS DISTINCT FROM OLD.title OR NEW.description IS DISTINCT FROM OLD.description
     OR NEW.transcript IS DISTINCT FROM OLD.transcript OR NEW.hashtags IS DISTINCT FROM OLD.hashtags THEN
    NEW.search_embedding := NULL;
    NEW.search_code := NULL;
    NEW.search_model := NULL;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "moments_search_stale" BEFORE UPDATE ON "moments" FOR EACH ROW EXECUTE FUNCTION "moments_search_stale"();
