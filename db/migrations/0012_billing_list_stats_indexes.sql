-- Billing lists and statistics on a large org (bench:billing-list, 200,000 documents; plans in docs/billing.md).
-- PostgreSQL 15 SQL; PGlite (PostgreSQL 18) runs the same.

-- q on GET /v1/invoices is a substring of the number, title and invoiced client name: a trigram index answers it
-- without scanning the org. The expression is the one lib/billing/list-documents.ts writes, letter for letter.
-- No GIN pending list (fastupdate off): PGlite never runs autovacuum to flush it (see migration 0009).
CREATE INDEX IF NOT EXISTS "documents_search_trgm" ON "documents" USING gin (
  (lower(coalesce("number", '') || ' ' || coalesce("title", '') || ' ' || coalesce("client_snapshot"->>'name', ''))) gin_trgm_ops
) WITH (fastupdate = off);
--> statement-breakpoint
-- Stats and revenue sum the totals of finalized documents over a range of issue dates (by type and status, by
-- day, by client): with those in the index, an index-only scan reads no table page of a long history.
CREATE INDEX IF NOT EXISTS "documents_org_issued" ON "documents" ("org_id", "issue_date")
  INCLUDE ("type", "status", "contact_id", "total_ht", "total_tva", "total_ttc")
  WHERE "finalized_at" IS NOT NULL;
--> statement-breakpoint
-- Outstanding and overdue balances start from the open receivables (issued invoices and deposits, finalized or
-- sent): a small index, whatever the history, with what the balance needs. The predicate is the stats query's.
CREATE INDEX IF NOT EXISTS "documents_org_receivable" ON "documents" ("org_id", "contact_id")
  INCLUDE ("id", "due_date", "total_ttc")
  WHERE "type" IN ('facture', 'acompte') AND "status" IN ('finalized', 'sent');
--> statement-breakpoint
-- Cash collected over a range sums the payments' amounts: with the amount in the index, no table page is read.
-- Same name and key as the index db/schema/billing.ts declares, plus INCLUDE, which Drizzle cannot declare.
DROP INDEX IF EXISTS "payments_org_paid_at";
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "payments_org_paid_at" ON "payments" ("org_id", "paid_at") INCLUDE ("amount");
