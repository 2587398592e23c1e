-- Issue 33: a finalized document's contact_id moves only with a real merge of its contact. Migration 0016's check
-- (at commit) took any contact whose merged_into_id named the new one: an UPDATE of contacts setting merged_into_id,
-- to a contact of another org or on a contact still in use, let a finalized invoice be repointed anywhere. The merge
-- (lib/domain/contacts/merge.ts) repoints the documents, then soft-deletes the sources with merged_into_id, in one
-- transaction: the move is now accepted only when the old contact is merged as the merge leaves it (deleted and
-- merged into the new one) and both contacts belong to the document's org, the new one live. The invoiced buyer
-- itself stays client_snapshot, hashed in the chain.
-- PostgreSQL 15 SQL (production); PGlite (PostgreSQL 18) runs the same.
CREATE OR REPLACE FUNCTION billing_documents_contact_immutable() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (
    SELECT 1 FROM contacts source JOIN contacts target ON target.id = source.merged_into_id
    WHERE source.id = OLD.contact_id AND source.org_id = OLD.org_id AND source.deleted_at IS NOT NULL
      AND target.id = NEW.contact_id AND target.org_id = NEW.org_id AND target.deleted_at IS NULL AND target.merged_into_id IS NULL
  ) THEN
    RAISE EXCEPTION 'billing document % (%) is finalized: its contact can only follow a merge of contact %', OLD.id, OLD.number, OLD.contact_id
      USING ERRCODE = 'P0001', HINT = 'The invoiced buyer is client_snapshot; contact_id moves only when its contact is merged.';
  END IF;
  RETURN NULL;
END;
$$;
