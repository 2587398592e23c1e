-- A finalized document's PDF is rendered once and never silently replaced: once a render row points at a
-- stored object (storage_key set), the object's identity (key, size, SHA-256, type, Factur-X profile and XML
-- hash, rendering time) cannot change and the row cannot be deleted, whoever writes to the table.
-- PostgreSQL 15 SQL (production); PGlite (PostgreSQL 18) runs the same.
CREATE OR REPLACE FUNCTION document_renders_immutable() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.storage_key IS NULL THEN
    IF TG_OP = 'DELETE' THEN
      RETURN OLD;
    END IF;
    RETURN NEW;
  END IF;
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'the stored PDF of document % cannot be deleted', OLD.document_id USING ERRCODE = 'P0001';
  END IF;
  IF (NEW.storage_key, NEW.sha256, NEW.size, NEW.content_type, NEW.facturx_profile, NEW.xml_sha256, NEW.rendered_at)
     IS DISTINCT FROM (OLD.storage_key, OLD.sha256, OLD.size, OLD.content_type, OLD.facturx_profile, OLD.xml_sha256, OLD.rendered_at) THEN
    RAISE EXCEPTION 'the stored PDF of document % cannot be replaced', OLD.document_id USING ERRCODE = 'P0001';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER document_renders_immutable
  BEFORE UPDATE OR DELETE ON document_renders
  FOR EACH ROW EXECUTE FUNCTION document_renders_immutable();
