ALTER TABLE "tasks" ADD COLUMN "clip_length" text DEFAULT 'auto' NOT NULL;
