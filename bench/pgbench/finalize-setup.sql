-- Tables of bench/pgbench/finalize.sql, in a database of their own: the columns finalization writes, drafts carrying
-- snapshots of the app's size (so the event's payload, the row as JSON, weighs what the app's does: about 2.5 KB).
CREATE TABLE pgb_documents (
  id integer PRIMARY KEY, org_id integer NOT NULL, number text, status text NOT NULL DEFAULT 'draft', chain_index integer,
  prev_hash text, content_hash text, finalized_at timestamptz, updated_at timestamptz NOT NULL DEFAULT now(),
  client_snapshot jsonb NOT NULL, seller_snapshot jsonb NOT NULL, items jsonb NOT NULL, total_ttc integer NOT NULL
);
CREATE TABLE pgb_hash_chains (org_id integer PRIMARY KEY, length integer NOT NULL, head_hash text, head_document_id integer, updated_at timestamptz);
CREATE TABLE pgb_number_counters (org_id integer, type text, year integer, last_number integer NOT NULL, PRIMARY KEY (org_id, type, year));
CREATE TABLE pgb_events (id bigserial PRIMARY KEY, org_id integer NOT NULL, type text NOT NULL, payload jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE pgb_jobs (id bigserial PRIMARY KEY, name text NOT NULL, data jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
INSERT INTO pgb_documents (id, org_id, client_snapshot, seller_snapshot, items, total_ttc)
SELECT g, 1,
  jsonb_build_object('contact_id', gen_random_uuid(), 'type', 'professionnel', 'name', 'Bench Finalisation SAS', 'company', 'Bench Finalisation SAS',
    'address', '1 rue du Banc', 'postal_code', '69001', 'city', 'Lyon', 'country', 'FR', 'siret', '73282932000074', 'siren', '732829320'),
  jsonb_build_object('name', 'Atelier Paraphe SAS', 'legal_form', 'SAS', 'share_capital_cents', 1000000, 'siren', '732829320', 'siret', '73282932000074',
    'vat_number', 'FR44732829320', 'rcs', 'RCS Paris 732 829 320', 'address', '12 rue de la Paix', 'postal_code', '75002', 'city', 'Paris',
    'country', 'FR', 'email', 'facturation@atelier-paraphe.fr', 'iban', 'FR7630006000011234567890189', 'bic', 'AGRIFRPP', 'recovery_fee', 4000),
  (SELECT jsonb_agg(jsonb_build_object('id', gen_random_uuid(), 'position', i, 'kind', 'product', 'description', 'Ligne ' || i, 'quantity', '3.5',
    'unit', 'DAY', 'unit_price', 65000, 'vat_rate', '20.00', 'vat_category', 'S', 'total_ht', 227500, 'total_ttc', 273000)) FROM generate_series(1, 3) i),
  289740
FROM generate_series(1, 100000) g;
INSERT INTO pgb_hash_chains VALUES (1, 0, NULL, NULL, now());
INSERT INTO pgb_number_counters VALUES (1, 'facture', 2026, 0);
VACUUM ANALYZE;
