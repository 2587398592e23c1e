-- Issue 35: the e-mails of a settled online payment (lib/domain/payments/payment-emails.ts). `language` is the /pay
-- page's language when the payer opened Checkout (their receipt is written in it; null for an off-session debit,
-- which takes the contact's). `receipts_queued_at` is set in the transaction that queues the receipt and the org's
-- notice: a retried job, or a second job for the same payment, finds it set and sends nothing again.
-- PostgreSQL 15 SQL (production); PGlite (PostgreSQL 18) runs the same.
ALTER TABLE "online_payments" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "online_payments" ADD COLUMN "receipts_queued_at" timestamp with time zone;
