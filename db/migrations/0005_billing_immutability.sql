-- Finalized billing documents are immutable at the database layer too (not only in lib/billing): whatever
-- writes to the tables (a script, a psql session, a future bug), a finalized document's legal content, its
-- items and its hash-chain columns cannot change, and neither it nor its items can be deleted.
-- Allow-list, not deny-list: a column added later is frozen unless it is added here on purpose.
-- Mutable after finalization: lifecycle status (status, status_changed_at), delivery state (render_*,
-- transmission_*, lifecycle_*, sent_at), updated_at, and contact_id (a contact merge repoints the logical
-- reference; the buyer's identity that was invoiced is client_snapshot, which is frozen).
-- PostgreSQL 15 SQL (production); PGlite (PostgreSQL 18) runs the same.
CREATE OR REPLACE FUNCTION billing_documents_immutable() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  mutable_columns CONSTANT text[] := ARRAY[
    'status', 'status_changed_at', 'contact_id', 'render_status', 'transmission_status', 'transmission_id',
    'lifecycle_status', 'lifecycle_reason', 'lifecycle_at', 'sent_at', 'updated_at'
  ];
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF OLD.finalized_at IS NOT NULL THEN
      RAISE EXCEPTION 'billing document % (%) is finalized: it cannot be deleted', OLD.id, OLD.number
        USING ERRCODE = 'P0001', HINT = 'Issue a credit note (avoir) instead.';
    END IF;
    RETURN OLD;
  END IF;
  IF OLD.finalized_at IS NOT NULL
     AND (to_jsonb(NEW) - mutable_columns) IS DISTINCT FROM (to_jsonb(OLD) - mutable_columns) THEN
    RAISE EXCEPTION 'billing document % (%) is finalized: its legal content cannot change', OLD.id, OLD.number
      USING ERRCODE = 'P0001', HINT = 'Only status and delivery columns may change after finalization.';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER billing_documents_immutable
  BEFORE UPDATE OR DELETE ON documents
  FOR EACH ROW EXECUTE FUNCTION billing_documents_immutable();
--> statement-breakpoint
-- Items of a finalized document: no insert, update or delete. An update that moves an item checks both documents.
CREATE OR REPLACE FUNCTION billing_items_immutable() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND EXISTS (
    SELECT 1 FROM documents d WHERE d.id = OLD.document_id AND d.finalized_at IS NOT NULL
  ) THEN
    RAISE EXCEPTION 'item % belongs to finalized billing document %: it cannot change', OLD.id, OLD.document_id
      USING ERRCODE = 'P0001';
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND EXISTS (
    SELECT 1 FROM documents d WHERE d.id = NEW.document_id AND d.finalized_at IS NOT NULL
  ) THEN
    RAISE EXCEPTION 'billing document % is finalized: items cannot be added', NEW.document_id
      USING ERRCODE = 'P0001';
  END IF;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER billing_items_immutable
  BEFORE INSERT OR UPDATE OR DELETE ON document_items
  FOR EACH ROW EXECUTE FUNCTION billing_items_immutable();
