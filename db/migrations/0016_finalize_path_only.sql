-- Issue 11, defect 7: the rows the finalize path writes accept no other write (docs/hash-chain.md, "What protects
-- the chain"). Whoever writes to the tables without disabling triggers:
--   - a document is inserted as a draft, and sealed only at the next number of its series and the next place of the
--     chain (billing_documents_finalize_only);
--   - a finalized document never goes back to draft, and its contact_id only follows a merge of its contact
--     (billing_documents_immutable, billing_documents_contact_immutable; the invoiced buyer, contact id included,
--     is the hashed client_snapshot);
--   - a chain head starts empty and only advances by one, to the document just sealed after it; anything else but
--     verified_at (POST /v1/invoices/chain/verify) and updated_at is refused (hash_chains_finalize_only);
--   - a number counter starts at 0 and only advances by one, to the number of the document at the head of the
--     chain: the finalize path seals the document, advances the head, then the counter (number_counters_finalize_only).
-- The counter and head functions are not named *_immutable: a refusal there is a bug of ours (a 500), not a
-- client's conflict (lib/http/handler.ts answers the *_immutable ones 409 document_finalized).
-- PostgreSQL 15 SQL (production); PGlite (PostgreSQL 18) runs the same.

-- The end of a number formatNumber (lib/documents/numbering.ts) gives n in a series of that year: "-2026-00042".
CREATE OR REPLACE FUNCTION billing_number_suffix(series_year integer, n integer) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT '-' || series_year::text || '-' || lpad(n::text, greatest(5, length(n::text)), '0')
$$;
--> statement-breakpoint
-- Same allow-list as migration 0005, and the status of a finalized document can no longer say draft.
-- contact_id stays in the list here: a merge repoints it before it marks the source merged, so the check waits for
-- the commit (billing_documents_contact_immutable below).
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
  IF OLD.finalized_at IS NOT NULL AND NEW.status = 'draft' THEN
    RAISE EXCEPTION 'billing document % (%) is finalized: its status cannot go back to draft', OLD.id, OLD.number
      USING ERRCODE = 'P0001';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
-- Checked at commit, once the merge has set the source's merged_into_id: a finalized document's contact may only move
-- from a contact to the one it was merged into.
CREATE OR REPLACE FUNCTION billing_documents_contact_immutable() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM contacts c WHERE c.id = OLD.contact_id AND c.merged_into_id = NEW.contact_id) THEN
    RAISE EXCEPTION 'billing document % (%) is finalized: its contact can only follow a merge of contact %', OLD.id, OLD.number, OLD.contact_id
      USING ERRCODE = 'P0001', HINT = 'The invoiced buyer is client_snapshot; contact_id moves only when its contact is merged.';
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER billing_documents_contact_immutable
  AFTER UPDATE ON documents
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW
  WHEN (OLD.finalized_at IS NOT NULL AND NEW.contact_id IS DISTINCT FROM OLD.contact_id)
  EXECUTE FUNCTION billing_documents_contact_immutable();
--> statement-breakpoint
-- A document is born a draft; the update that seals it (finalized_at set) must take the next place of the chain (the
-- head is locked by the finalization) and the next number of its series (the counter, locked too, is advanced once
-- the document heads the chain).
CREATE OR REPLACE FUNCTION billing_documents_finalize_only() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  head_length bigint;
  head_hash text;
  last_issued integer;
  series_year integer;
  expected text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.finalized_at IS NOT NULL OR NEW.chain_index IS NOT NULL OR NEW.content_hash IS NOT NULL OR NEW.prev_hash IS NOT NULL THEN
      RAISE EXCEPTION 'billing document % is created as a draft: only its finalization seals it', NEW.id USING ERRCODE = 'P0001';
    END IF;
    RETURN NEW;
  END IF;
  IF OLD.finalized_at IS NOT NULL OR NEW.finalized_at IS NULL THEN
    RETURN NEW;
  END IF;
  SELECT h.length, h.head_hash INTO head_length, head_hash FROM hash_chains h WHERE h.org_id = NEW.org_id;
  IF NEW.chain_index IS DISTINCT FROM coalesce(head_length, 0) + 1 OR NEW.prev_hash IS DISTINCT FROM head_hash OR NEW.content_hash IS NULL THEN
    RAISE EXCEPTION 'billing document % must be sealed at chain index % after hash %', NEW.id, coalesce(head_length, 0) + 1, coalesce(head_hash, '(none)')
      USING ERRCODE = 'P0001';
  END IF;
  series_year := extract(year FROM NEW.issue_date)::integer;
  SELECT c.last_number INTO last_issued FROM number_counters c
    WHERE c.org_id = NEW.org_id AND c.type = NEW.type AND c.year = series_year;
  expected := billing_number_suffix(series_year, coalesce(last_issued, 0) + 1);
  IF NEW.number IS NULL OR right(NEW.number, length(expected)) <> expected THEN
    RAISE EXCEPTION 'billing document % must be sealed with the next number of its series (…%), not %', NEW.id, expected, coalesce(NEW.number, 'none')
      USING ERRCODE = 'P0001';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER billing_documents_finalize_only
  BEFORE INSERT OR UPDATE ON documents
  FOR EACH ROW EXECUTE FUNCTION billing_documents_finalize_only();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION hash_chains_finalize_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.length <> 0 OR NEW.head_hash IS NOT NULL OR NEW.head_document_id IS NOT NULL THEN
      RAISE EXCEPTION 'the hash chain of org % starts empty', NEW.org_id USING ERRCODE = 'P0001';
    END IF;
    RETURN NEW;
  END IF;
  IF TG_OP = 'DELETE' THEN
    IF OLD.length > 0 THEN
      RAISE EXCEPTION 'the hash chain of org % (% documents) cannot be deleted', OLD.org_id, OLD.length USING ERRCODE = 'P0001';
    END IF;
    RETURN OLD;
  END IF;
  IF NEW.org_id <> OLD.org_id THEN
    RAISE EXCEPTION 'the hash chain of org % cannot move to another org', OLD.org_id USING ERRCODE = 'P0001';
  END IF;
  -- verified_at and updated_at only: the verifier's record.
  IF (NEW.length, NEW.head_hash, NEW.head_document_id) IS NOT DISTINCT FROM (OLD.length, OLD.head_hash, OLD.head_document_id) THEN
    RETURN NEW;
  END IF;
  IF NEW.length <> OLD.length + 1 OR NOT EXISTS (
    SELECT 1 FROM documents d
    WHERE d.id = NEW.head_document_id AND d.org_id = NEW.org_id AND d.finalized_at IS NOT NULL
      AND d.chain_index = NEW.length AND d.prev_hash IS NOT DISTINCT FROM OLD.head_hash AND d.content_hash = NEW.head_hash
  ) THEN
    RAISE EXCEPTION 'the hash chain of org % only advances by one, to the document sealed at index % after %', OLD.org_id, OLD.length + 1, coalesce(OLD.head_hash, '(none)')
      USING ERRCODE = 'P0001';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER hash_chains_finalize_only
  BEFORE INSERT OR UPDATE OR DELETE ON hash_chains
  FOR EACH ROW EXECUTE FUNCTION hash_chains_finalize_only();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION number_counters_finalize_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.last_number <> 0 THEN
      RAISE EXCEPTION 'the % % counter of org % starts at 0', NEW.type, NEW.year, NEW.org_id USING ERRCODE = 'P0001';
    END IF;
    RETURN NEW;
  END IF;
  IF TG_OP = 'DELETE' THEN
    IF OLD.last_number > 0 THEN
      RAISE EXCEPTION 'the % % counter of org % (at %) cannot be deleted', OLD.type, OLD.year, OLD.org_id, OLD.last_number USING ERRCODE = 'P0001';
    END IF;
    RETURN OLD;
  END IF;
  IF (NEW.org_id, NEW.type, NEW.year) IS DISTINCT FROM (OLD.org_id, OLD.type, OLD.year) THEN
    RAISE EXCEPTION 'the % % counter of org % cannot become another series', OLD.type, OLD.year, OLD.org_id USING ERRCODE = 'P0001';
  END IF;
  IF NEW.last_number = OLD.last_number THEN
    RETURN NEW;
  END IF;
  -- The finalization advances the counter last, once the document with the new number heads the chain.
  IF NEW.last_number <> OLD.last_number + 1 OR NOT EXISTS (
    SELECT 1 FROM hash_chains h JOIN documents d ON d.id = h.head_document_id
    WHERE h.org_id = NEW.org_id AND d.org_id = NEW.org_id AND d.finalized_at IS NOT NULL AND d.type = NEW.type
      AND extract(year FROM d.issue_date)::integer = NEW.year
      AND right(d.number, length(billing_number_suffix(NEW.year, NEW.last_number))) = billing_number_suffix(NEW.year, NEW.last_number)
  ) THEN
    RAISE EXCEPTION 'the % % counter of org % only advances by one (from %), to the number of the document just finalized', OLD.type, OLD.year, OLD.org_id, OLD.last_number
      USING ERRCODE = 'P0001';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER number_counters_finalize_only
  BEFORE INSERT OR UPDATE OR DELETE ON number_counters
  FOR EACH ROW EXECUTE FUNCTION number_counters_finalize_only();
