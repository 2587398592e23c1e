/**
 * The SQL that gives an org `documents` billing documents for its first `contacts` contacts (bench:billing-list):
 * quotes, invoices, deposit invoices and credit notes issued over the last three years, the old ones settled
 * (paid, accepted, expired…), the last 90 days holding the drafts and the open ones, and the payments of the paid
 * and sent invoices. Straight SQL: 200,000 documents through the API would take an hour.
 */
export function seedDocumentsSql(orgId: string, documents: number, contacts: number): string[] {
  return [
    // Ids are UUIDv7 from each document's issue instant (as the app makes them), so id order is date order.
    // Old documents are settled (paid, accepted, expired…); the last 90 days hold the drafts and open ones.
    // Written as finalized rows directly: the triggers stand aside for this session (a superuser's
    // session_replication_role, docs/hash-chain.md), else a document can only be inserted as a draft (migration 0016).
    `
      SET session_replication_role = replica;
      WITH c AS (
        SELECT id, row_number() OVER (ORDER BY id) - 1 AS n, coalesce(company, first_name || ' ' || last_name) AS name
        FROM contacts WHERE org_id = '${orgId}'
      ),
      g AS (
        SELECT i, ts, (to_timestamp(ts / 1000.0) AT TIME ZONE 'Europe/Paris')::date AS issue_date,
               (ARRAY['facture','facture','facture','facture','facture','facture','facture','facture','facture','facture',
                      'facture','devis','devis','devis','devis','acompte','acompte','acompte','avoir','avoir'])[1 + (i * 7) % 20] AS type,
               (i::bigint * 2654435761) % 100 AS h
        FROM (SELECT i, (extract(epoch FROM (current_date - 1095)::timestamptz) * 1000)::bigint
                         + i::bigint * (1095::bigint * 86400000 / ${documents}) AS ts
              FROM generate_series(1, ${documents}) i) s
      ),
      d AS (
        SELECT g.*,
               CASE g.type
                 WHEN 'facture' THEN CASE WHEN g.issue_date < current_date - 90
                   THEN CASE WHEN h < 90 THEN 'paid' WHEN h < 95 THEN 'cancelled' WHEN h < 98 THEN 'sent' ELSE 'finalized' END
                   ELSE CASE WHEN h < 10 THEN 'draft' WHEN h < 40 THEN 'finalized' WHEN h < 60 THEN 'sent' ELSE 'paid' END END
                 WHEN 'devis' THEN CASE WHEN g.issue_date < current_date - 90
                   THEN CASE WHEN h < 50 THEN 'accepted' WHEN h < 70 THEN 'rejected' WHEN h < 95 THEN 'expired' ELSE 'cancelled' END
                   ELSE CASE WHEN h < 15 THEN 'draft' WHEN h < 60 THEN 'finalized' WHEN h < 70 THEN 'sent' WHEN h < 90 THEN 'accepted' ELSE 'rejected' END END
                 WHEN 'acompte' THEN CASE WHEN g.issue_date < current_date - 90 OR h >= 10 THEN 'paid' WHEN h < 5 THEN 'draft' ELSE 'finalized' END
                 ELSE CASE WHEN g.issue_date >= current_date - 90 AND h < 10 THEN 'draft' ELSE 'finalized' END
               END AS status,
               5000 + (i::bigint * 7919) % (CASE g.type WHEN 'avoir' THEN 50000 ELSE 500000 END) AS ht
        FROM g
      )
      INSERT INTO documents (id, org_id, type, status, status_changed_at, contact_id, number, issue_date, due_date, validity_date, title,
                             total_ht, total_tva, total_ttc, client_snapshot, finalized_at, chain_index, content_hash, prev_hash,
                             payment_plan_kind, created_at, updated_at)
      SELECT (lpad(to_hex(d.ts), 12, '0') || '7' || substr(md5(d.i::text), 1, 3) || '8' || substr(md5(d.i::text), 4, 15))::uuid,
             '${orgId}', d.type, d.status, to_timestamp(d.ts / 1000.0), c.id,
             CASE WHEN d.status <> 'draft' THEN
               (CASE d.type WHEN 'devis' THEN 'DEV' WHEN 'facture' THEN 'FAC' WHEN 'acompte' THEN 'AC' ELSE 'AV' END)
               || '-' || extract(year FROM d.issue_date) || '-' || lpad(d.i::text, 6, '0') END,
             d.issue_date,
             CASE d.type WHEN 'facture' THEN d.issue_date + 30 WHEN 'acompte' THEN d.issue_date END,
             CASE d.type WHEN 'devis' THEN d.issue_date + 30 END,
             'Prestation ' || d.i,
             d.ht, d.ht / 5, d.ht + d.ht / 5,
             CASE WHEN d.status <> 'draft' THEN jsonb_build_object('contact_id', c.id, 'name', c.name) END,
             CASE WHEN d.status <> 'draft' THEN to_timestamp(d.ts / 1000.0) END,
             CASE WHEN d.status <> 'draft' THEN d.i END,
             CASE WHEN d.status <> 'draft' THEN md5(d.i::text) || md5('h' || d.i) END,
             CASE WHEN d.status <> 'draft' THEN md5((d.i - 1)::text) || md5('h' || (d.i - 1)) END,
             'none', to_timestamp(d.ts / 1000.0), to_timestamp(d.ts / 1000.0)
      FROM d JOIN c ON c.n = d.i % ${contacts}`,
    // Paid documents were paid in full, sent ones by half, a few weeks after their issue date.
    `
      INSERT INTO payments (id, org_id, document_id, amount, paid_at, method, created_at)
      SELECT (substr(replace(id::text, '-', ''), 1, 12) || '7' || substr(md5(id::text), 1, 3) || '9' || substr(md5(id::text), 4, 15))::uuid,
             org_id, id, CASE status WHEN 'paid' THEN total_ttc ELSE total_ttc / 2 END,
             least(issue_date + 20, current_date), 'bank_transfer', created_at
      FROM documents WHERE org_id = '${orgId}' AND type IN ('facture', 'acompte') AND status IN ('paid', 'sent')`,
  ];
}
