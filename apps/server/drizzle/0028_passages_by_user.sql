-- Transcript passages partitioned by their owner (hash of user_id, 16 partitions): only the owner
-- searches a passage, so a signed-in search reads one partition, whose HNSW graph holds that user's
-- passages and few others'. On one shared graph the nearest-passage scan filtered to the requester
-- had to walk past everyone else's (at a million passages, 545-594 index tuples read to find 50 of
-- a tenth's: 12-20 ms of the search; 1.8-4.1 ms on a partition). The key becomes (id, user_id), as
-- a partitioned table's key must hold the partition key; ids keep coming from one sequence (no
-- identity column: PostgreSQL before 17 has none on a partitioned table). Nothing references a
-- passage by a foreign key. Existing passages, embeddings and counts are copied as they are.
ALTER TABLE "search_passages" RENAME TO "search_passages_before_0028";
--> statement-breakpoint
CREATE TABLE "search_passages" (
	"id" bigint NOT NULL,
	"task_id" uuid NOT NULL REFERENCES "tasks"("id") ON DELETE CASCADE,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"start_ms" integer NOT NULL,
	"end_ms" integer NOT NULL,
	-- One line per transcript segment; segment_starts[i] is where line i is heard.
	"text" text NOT NULL,
	"segment_starts" integer[] NOT NULL,
	"search_terms" tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, "text")) STORED,
	"search_len" integer GENERATED ALWAYS AS (search_length(to_tsvector('english'::regconfig, "text"))) STORED,
	"search_model" text,
	"search_counted" boolean DEFAULT false NOT NULL,
	"search_vector" halfvec(384),
	PRIMARY KEY ("id", "user_id")
) PARTITION BY HASH ("user_id");
--> statement-breakpoint
DO $$
BEGIN
  FOR i IN 0..15 LOOP
    EXECUTE format(
      'CREATE TABLE %I PARTITION OF "search_passages" FOR VALUES WITH (MODULUS 16, REMAINDER %s)',
      'search_passages_p' || lpad(i::text, 2, '0'), i);
  END LOOP;
END $$;
--> statement-breakpoint
INSERT INTO "search_passages" ("id", "task_id", "user_id", "start_ms", "end_ms", "text",
    "segment_starts", "search_model", "search_counted", "search_vector")
  SELECT "id", "task_id", "user_id", "start_ms", "end_ms", "text", "segment_starts",
    "search_model", "search_counted", "search_vector"
  FROM "search_passages_before_0028";
--> statement-breakpoint
DROP TABLE "search_passages_before_0028";
--> statement-breakpoint
CREATE SEQUENCE "search_passages_id_seq" OWNED BY "search_passages"."id";
--> statement-breakpoint
SELECT setval('search_passages_id_seq', coalesce((SELECT max("id") FROM "search_passages"), 0) + 1, false);
--> statement-breakpoint
ALTER TABLE "search_passages" ALTER COLUMN "id" SET DEFAULT nextval('search_passages_id_seq');
--> statement-breakpoint
-- The indexes as before, made on each partition (named search_passages_pNN_...).
CREATE INDEX "search_passages_task_idx" ON "search_passages" USING btree ("task_id", "start_ms");
--> statement-breakpoint
CREATE INDEX "search_passages_user_idx" ON "search_passages" USING btree ("user_id");
--> statement-breakpoint
CREATE INDEX "search_passages_terms_idx" ON "search_passages" USING gin ("search_terms");
--> statement-breakpoint
CREATE INDEX "search_passages_pending_idx" ON "search_passages" USING btree ("task_id") WHERE NOT "search_counted" OR "search_vector" IS NULL;
--> statement-breakpoint
CREATE INDEX "search_passages_vector_idx" ON "search_passages" USING hnsw ("search_vector" halfvec_cosine_ops) WITH (m = 24, ef_construction = 128);
