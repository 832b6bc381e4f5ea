-- The HNSW graphs rebuilt denser: with pgvector's defaults (m 16, ef_construction 64) recall@10
-- at a million passages was 0.88 however wide the search (ef_search 400: 0.89), so the limit was
-- the graph, not the query. m 24 and ef_construction 128 cost a larger index and a slower build.
DROP INDEX IF EXISTS "search_passages_vector_idx";
--> statement-breakpoint
CREATE INDEX "search_passages_vector_idx" ON "search_passages" USING hnsw ("search_vector" halfvec_cosine_ops) WITH (m = 24, ef_construction = 128);
--> statement-breakpoint
DROP INDEX IF EXISTS "moments_vector_idx";
--> statement-breakpoint
CREATE INDEX "moments_vector_idx" ON "moments" USING hnsw ("search_vector" halfvec_cosine_ops) WITH (m = 24, ef_construction = 128);
--> statement-breakpoint
DROP INDEX IF EXISTS "moments_published_vector_idx";
--> statement-breakpoint
CREATE INDEX "moments_published_vector_idx" ON "moments" USING hnsw ("search_vector" halfvec_cosine_ops) WITH (m = 24, ef_construction = 128) WHERE "share_id" IS NOT NULL AND "published";
