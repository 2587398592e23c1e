-- The raw-SQL floor of one finalization (bench/billing-finalize.ts runs it with pgbench beside the HTTP run): the
-- transaction shape of lib/domain/documents finalizeDocument without the application — lock the draft, lock the org's
-- chain head, bump the series' counter and the head, write the number and the hash, insert the event and its job.
-- Tables: bench/pgbench/finalize-setup.sql. One org, so every transaction waits for the chain lock as finalizations do.
\set d random(1, 100000)
BEGIN;
SELECT id FROM pgb_documents WHERE id = :d FOR UPDATE;
SELECT length, head_hash FROM pgb_hash_chains WHERE org_id = 1 FOR UPDATE;
UPDATE pgb_number_counters SET last_number = last_number + 1 WHERE org_id = 1 AND type = 'facture' AND year = 2026 RETURNING last_number;
UPDATE pgb_hash_chains SET length = length + 1, head_hash = md5(random()::text) || md5(random()::text), head_document_id = :d, updated_at = now() WHERE org_id = 1 RETURNING length, head_hash;
UPDATE pgb_documents SET number = 'FAC-2026-' || lpad((SELECT last_number FROM pgb_number_counters WHERE org_id = 1 AND type = 'facture' AND year = 2026)::text, 5, '0'), status = 'finalized', chain_index = (SELECT length FROM pgb_hash_chains WHERE org_id = 1), prev_hash = md5(random()::text), content_hash = (SELECT head_hash FROM pgb_hash_chains WHERE org_id = 1), finalized_at = now(), updated_at = now() WHERE id = :d;
INSERT INTO pgb_events (org_id, type, payload) SELECT 1, 'invoice.finalized', jsonb_build_object('object', to_jsonb(d)) FROM pgb_documents d WHERE d.id = :d;
INSERT INTO pgb_jobs (name, data) VALUES ('pdf.render-document', jsonb_build_object('org_id', 1, 'document_id', :d::integer));
END;
