-- The counter's check (migration finalize_path_only) finds the document heading the chain by its primary key. It
-- joined hash_chains to documents on the org's columns, and PostgreSQL could keep a plan that reads every issued
-- document of the org through an org index to find the head: a finalization then cost as much as the invoices before
-- it (seen on a monthly run, docs/recurring.md). The rule it enforces is unchanged.
CREATE OR REPLACE FUNCTION number_counters_finalize_only() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  head_id uuid;
  head record;
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
  SELECT h.head_document_id INTO head_id FROM hash_chains h WHERE h.org_id = NEW.org_id;
  SELECT d.id, d.org_id, d.finalized_at, d.type, d.issue_date, d.number INTO head FROM documents d WHERE d.id = head_id;
  IF NEW.last_number <> OLD.last_number + 1 OR head.id IS NULL OR head.org_id <> NEW.org_id OR head.finalized_at IS NULL
     OR head.type <> NEW.type OR extract(year FROM head.issue_date)::integer <> NEW.year
     OR right(head.number, length(billing_number_suffix(NEW.year, NEW.last_number))) IS DISTINCT FROM billing_number_suffix(NEW.year, NEW.last_number)
  THEN
    RAISE EXCEPTION 'the % % counter of org % only advances by one (from %), to the number of the document just finalized', OLD.type, OLD.year, OLD.org_id, OLD.last_number
      USING ERRCODE = 'P0001';
  END IF;
  RETURN NEW;
END;
$$;
