-- The framing layout kept with a clip (auto, speaker, split, fit, slide_speaker);
-- null for clips never framed by hand. Shot analyses go into media_analyses (kind `faces`).
ALTER TABLE "moments" ADD COLUMN IF NOT EXISTS "layout" text;
