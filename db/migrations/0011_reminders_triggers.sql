-- Reminder ladders (lib/reminders). Two jobs for the database itself, so that no code path can forget them:
-- 1. reminder_ladders, the per-document ladder state the tracking view sorts on, follows every change of
--    reminders (statement triggers with transition tables: one refresh per statement, however many rows).
-- 2. A document that leaves the chased statuses (paid, cancelled, a quote accepted, rejected or expired) has its
--    pending reminders cancelled in the same transaction as that change, whatever made it (a payment, a
--    cancellation, the expiry job), and its ladder leaves the tracking index.
-- PostgreSQL 15 SQL (production); PGlite (PostgreSQL 18) runs the same.
CREATE OR REPLACE FUNCTION reminder_ladders_sync(ids uuid[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  -- Ladder rows first, in a fixed order: two transactions that change reminders of the same document refresh
  -- its row one after the other, the second reading (new snapshot below) what the first committed.
  PERFORM 1 FROM reminder_ladders WHERE document_id = ANY (ids) ORDER BY document_id FOR UPDATE;
  DELETE FROM reminder_ladders l
   WHERE l.document_id = ANY (ids) AND NOT EXISTS (SELECT 1 FROM reminders r WHERE r.document_id = l.document_id);
  INSERT INTO reminder_ladders AS l (document_id, org_id, due_date, open, sent_count, pending_count, skipped_count, next_at, updated_at)
  SELECT d.id, d.org_id, d.due_date,
         d.type IN ('facture', 'acompte') AND d.status IN ('finalized', 'sent'),
         a.sent_count, a.pending_count, a.skipped_count, a.next_at, now()
    FROM (SELECT r.document_id,
                 count(*) FILTER (WHERE r.status = 'sent') AS sent_count,
                 count(*) FILTER (WHERE r.status = 'pending') AS pending_count,
                 count(*) FILTER (WHERE r.status = 'skipped') AS skipped_count,
                 min(r.scheduled_at) FILTER (WHERE r.status = 'pending') AS next_at
            FROM reminders r
           WHERE r.document_id = ANY (ids)
           GROUP BY r.document_id) a
    JOIN documents d ON d.id = a.document_id
  ON CONFLICT (document_id) DO UPDATE
     SET due_date = EXCLUDED.due_date, open = EXCLUDED.open, sent_count = EXCLUDED.sent_count,
         pending_count = EXCLUDED.pending_count, skipped_count = EXCLUDED.skipped_count, next_at = EXCLUDED.next_at,
         updated_at = EXCLUDED.updated_at;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION reminders_refresh_ladders() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM reminder_ladders_sync(ARRAY(SELECT DISTINCT document_id FROM changed ORDER BY document_id));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER reminders_ladder_insert AFTER INSERT ON reminders
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION reminders_refresh_ladders();
--> statement-breakpoint
CREATE TRIGGER reminders_ladder_update AFTER UPDATE ON reminders
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION reminders_refresh_ladders();
--> statement-breakpoint
CREATE TRIGGER reminders_ladder_delete AFTER DELETE ON reminders
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION reminders_refresh_ladders();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION reminders_follow_document_status() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status IN ('paid', 'cancelled', 'accepted', 'rejected', 'expired') THEN
    UPDATE reminders SET status = 'cancelled', reason = 'document_' || NEW.status, updated_at = now()
     WHERE document_id = NEW.id AND status = 'pending';
  END IF;
  -- Paid then a payment deleted: the invoice is owed again and back in tracking (its cancelled steps stay so).
  UPDATE reminder_ladders
     SET open = (NEW.type IN ('facture', 'acompte') AND NEW.status IN ('finalized', 'sent')), updated_at = now()
   WHERE document_id = NEW.id
     AND open IS DISTINCT FROM (NEW.type IN ('facture', 'acompte') AND NEW.status IN ('finalized', 'sent'));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER documents_reminders_status AFTER UPDATE OF status ON documents
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION reminders_follow_document_status();
