CREATE TABLE IF NOT EXISTS "media_analyses" (
	"media_key" text NOT NULL,
	"kind" text NOT NULL,
	"span_key" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "media_analyses_media_key_kind_span_key_pk" PRIMARY KEY("media_key","kind","span_key")
);
