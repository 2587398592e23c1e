-- Issue 33: where the seal job stands on each envelope, so that a completed envelope without evidence is visible
-- (the API's `evidence`, lib/domain/signature/evidence-state.ts). The status is read from these and proof_key: stored
-- is sealed, evidence_failed_at set is failed (every retry of the job failed), any other finished envelope pending.
-- evidence_error_code is the cause's code (original_missing, signature_image_invalid…), evidence_error the message
-- for the operators. No backfill: an envelope already sealed reads sealed from its proof_key, with 0 attempts.
-- PostgreSQL 15 SQL (production); PGlite (PostgreSQL 18) runs the same.
ALTER TABLE "signature_envelopes" ADD COLUMN "evidence_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "signature_envelopes" ADD COLUMN "evidence_error_code" text;--> statement-breakpoint
ALTER TABLE "signature_envelopes" ADD COLUMN "evidence_error" text;--> statement-breakpoint
ALTER TABLE "signature_envelopes" ADD COLUMN "evidence_failed_at" timestamp with time zone;
