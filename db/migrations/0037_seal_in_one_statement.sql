-- Issue 36, item 2: the section of a finalization that holds the org's chain lock is one statement, so that the lock is
-- held for PostgreSQL's work only, never while the application's event loop serves other requests
-- (docs/hash-chain.md « The sealing statement », docs/billing-performance.md). Everything else — reads, rules,
-- snapshots, totals, the e-invoice validation, the event with its jobs and webhook deliveries — is written before, in
-- the same transaction; the statement then locks, numbers, dates, hashes, freezes and seals the draft in one update,
-- advances head and counter, and fills the event's lock-dependent fields. The triggers of migration 0016 still check every row it writes.
-- PostgreSQL 15 SQL (production); PGlite (PostgreSQL 18) runs the same.

-- Owned by platform/events (the events table's owner): fills in fields of an event's object that its writer could only
-- know later in the same transaction. Top-level keys of the object only, replaced or added.
CREATE OR REPLACE FUNCTION events_merge_object(p_event uuid, p_fields jsonb) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE events SET payload = jsonb_set(payload, '{object}', (payload -> 'object') || p_fields) WHERE id = p_event;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'event % does not exist', p_event USING ERRCODE = 'P0001';
  END IF;
END;
$$;
--> statement-breakpoint
-- Owned by documents. Seals the draft p_doc as the next document of the org's chain and the next number of its
-- (p_type, p_year) series, with what the finalization froze (p_values: dates, snapshots, totals, transmission_required,
-- a credit note's contact_id — the columns of the same names, those absent kept):
--   1. locks the chain head, then the series' counter (each created on first use), in that order, as before;
--   2. reads the clock (p_at when given: a replayed date, or the time a first call read); with p_jcs null it stops
--      there and answers 'locked' with that time and the number the series would give, writing nothing (the caller
--      then validates with them and calls again with that time); when the time falls outside [p_day_start,
--      p_day_end) — midnight in Paris passed while waiting for the lock — nothing is written and the outcome is
--      'replan' with the time read; either way the locks stay the caller's until its commit;
--   3. number = p_prefix || billing_number_suffix(p_year, last + 1), refused unless it matches BR-FR-01/02;
--   4. content_hash = sha256_hex(coalesce(head, '') || E'\n' || JCS), JCS being p_jcs with the JSON strings
--      p_number_token and p_time_token replaced by the number's and finalized_at's JSON strings (RFC 8785 writes both
--      as plain strings: their characters need no escape), finalized_at written as JavaScript's toISOString does;
--   5. writes the document, the head and the counter (the triggers' only accepted order), then the event's fields;
--   6. answers too how long it waited for the locks (waited_ms) and how long it then ran holding them (held_ms: the
--      lock is held from there until the commit), which the finalization logs.
CREATE OR REPLACE FUNCTION billing_seal_document(
  p_org uuid, p_doc uuid, p_type text, p_year integer, p_prefix text,
  p_day_start timestamptz, p_day_end timestamptz, p_at timestamptz,
  p_jcs text, p_number_token text, p_time_token text, p_values jsonb, p_event uuid
) RETURNS TABLE (outcome text, number text, sequence integer, sealed_at text, chain_index bigint, prev_hash text, content_hash text, waited_ms double precision, held_ms double precision)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_length bigint;
  v_head text;
  v_last integer;
  v_ts timestamptz;
  v_iso text;
  v_number text;
  v_hash text;
  v_waited double precision;
  v_locked timestamptz;
BEGIN
  SELECT h.length, h.head_hash INTO v_length, v_head FROM hash_chains h WHERE h.org_id = p_org FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO hash_chains (org_id) VALUES (p_org) ON CONFLICT DO NOTHING;
    SELECT h.length, h.head_hash INTO v_length, v_head FROM hash_chains h WHERE h.org_id = p_org FOR UPDATE;
  END IF;
  SELECT c.last_number INTO v_last FROM number_counters c
    WHERE c.org_id = p_org AND c.type = p_type AND c.year = p_year FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO number_counters (org_id, type, year, last_number) VALUES (p_org, p_type, p_year, 0) ON CONFLICT DO NOTHING;
    SELECT c.last_number INTO v_last FROM number_counters c
      WHERE c.org_id = p_org AND c.type = p_type AND c.year = p_year FOR UPDATE;
  END IF;

  -- How long this statement waited for the two locks (statement_timestamp: when the statement arrived).
  v_locked := clock_timestamp();
  v_waited := extract(epoch FROM v_locked - statement_timestamp()) * 1000;
  -- Millisecond precision: the hashed finalized_at is toISOString's, and verification reads the stored value back.
  v_ts := date_trunc('milliseconds', coalesce(p_at, clock_timestamp()));
  v_iso := to_char(v_ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
  v_number := p_prefix || billing_number_suffix(p_year, v_last + 1);
  IF p_jcs IS NULL THEN
    RETURN QUERY SELECT 'locked'::text, v_number, v_last + 1, v_iso, v_length + 1, v_head, NULL::text, v_waited, NULL::double precision;
    RETURN;
  END IF;
  IF v_ts < p_day_start OR v_ts >= p_day_end THEN
    RETURN QUERY SELECT 'replan'::text, NULL::text, NULL::integer, v_iso, NULL::bigint, NULL::text, NULL::text, v_waited, NULL::double precision;
    RETURN;
  END IF;
  IF v_number !~ '^[A-Za-z0-9+_/-]{1,35}$' THEN
    RAISE EXCEPTION 'number % breaks the e-invoicing format', v_number USING ERRCODE = 'P0001';
  END IF;
  IF position(p_number_token IN p_jcs) = 0 OR position(p_time_token IN p_jcs) = 0 THEN
    RAISE EXCEPTION 'document %: the sealed content lacks its number or time token', p_doc USING ERRCODE = 'P0001';
  END IF;
  v_hash := encode(sha256(convert_to(
    coalesce(v_head, '') || E'\n' || replace(replace(p_jcs, p_number_token, to_json(v_number)::text), p_time_token, to_json(v_iso)::text),
    'UTF8')), 'hex');

  -- One row version: the frozen values and the seal together (p_values read onto the row as it is).
  UPDATE documents d
    SET (contact_id, issue_date, due_date, validity_date, client_snapshot, seller_snapshot, transmission_required, total_ht, total_tva, total_ttc) =
          (SELECT v.contact_id, v.issue_date, v.due_date, v.validity_date, v.client_snapshot, v.seller_snapshot, v.transmission_required, v.total_ht, v.total_tva, v.total_ttc
             FROM jsonb_populate_record(d, coalesce(p_values, '{}'::jsonb)) v),
        number = v_number, finalized_at = v_ts, chain_index = v_length + 1, prev_hash = v_head, content_hash = v_hash,
        status = 'finalized', status_changed_at = v_ts, updated_at = v_ts
    WHERE d.org_id = p_org AND d.id = p_doc AND d.finalized_at IS NULL;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'document % is not a draft of org %', p_doc, p_org USING ERRCODE = 'P0001';
  END IF;
  UPDATE hash_chains h SET length = v_length + 1, head_hash = v_hash, head_document_id = p_doc, updated_at = v_ts WHERE h.org_id = p_org;
  UPDATE number_counters c SET last_number = v_last + 1
    WHERE c.org_id = p_org AND c.type = p_type AND c.year = p_year;
  IF p_event IS NOT NULL THEN
    PERFORM events_merge_object(p_event, jsonb_build_object(
      'number', v_number, 'finalized_at', v_iso, 'chain_index', v_length + 1, 'prev_hash', v_head,
      'content_hash', v_hash, 'updated_at', v_iso));
  END IF;
  RETURN QUERY SELECT 'sealed'::text, v_number, v_last + 1, v_iso, v_length + 1, v_head, v_hash, v_waited,
    (extract(epoch FROM clock_timestamp() - v_locked) * 1000)::double precision;
END;
$$;
