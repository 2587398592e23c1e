-- The job whose run holds a `rendering` claim: the same job retried (handed back by a graceful stop) takes its own
-- claim over at once instead of waiting for it to go stale (lib/domain/pdf/render-stored-document.ts).
ALTER TABLE "document_renders" ADD COLUMN "claimed_by_job" text;
