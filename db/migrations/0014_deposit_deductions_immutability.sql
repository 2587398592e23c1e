-- The deposits a final invoice deducts (deposit_deductions, migration 0013) are legal content of that invoice: the
-- PDF lists them and the Factur-X names them as preceding invoices (BG-3). Like its items, they are frozen once
-- the invoice is finalized. PostgreSQL 15 SQL; PGlite (PostgreSQL 18) runs the same.

-- Invoices converted before this table existed: their deductions are their discount lines, which the conversion
-- labelled "Déduction de l'acompte <number> du <date>…" in each VAT group of the deposit, with the amount
-- deducted (net of the deposit's credit notes). Written before the trigger exists, finalized invoices included.
INSERT INTO "deposit_deductions" ("org_id", "document_id", "deposit_id", "vat_category", "vat_rate", "amount")
SELECT i."org_id", i."document_id", dep."id", i."vat_category", i."vat_rate", sum(i."unit_price")
FROM "document_items" i
JOIN "documents" inv ON inv."id" = i."document_id" AND inv."type" = 'facture' AND inv."converted_from_id" IS NOT NULL
JOIN "documents" dep ON dep."org_id" = inv."org_id" AND dep."type" = 'acompte' AND dep."parent_devis_id" = inv."converted_from_id"
  AND dep."number" = substring(i."description" FROM '^Déduction de l''acompte (\S+) du ')
WHERE i."kind" = 'discount'
GROUP BY i."org_id", i."document_id", dep."id", i."vat_category", i."vat_rate"
HAVING sum(i."unit_price") > 0;
--> statement-breakpoint
-- Deductions of a finalized invoice: no insert, update or delete (an update that moves a row checks both invoices).
CREATE OR REPLACE FUNCTION deposit_deductions_immutable() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND EXISTS (
    SELECT 1 FROM documents d WHERE d.id = OLD.document_id AND d.finalized_at IS NOT NULL
  ) THEN
    RAISE EXCEPTION 'the deposit deductions of finalized billing document % cannot change', OLD.document_id
      USING ERRCODE = 'P0001';
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND EXISTS (
    SELECT 1 FROM documents d WHERE d.id = NEW.document_id AND d.finalized_at IS NOT NULL
  ) THEN
    RAISE EXCEPTION 'billing document % is finalized: deposit deductions cannot be added', NEW.document_id
      USING ERRCODE = 'P0001';
  END IF;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER deposit_deductions_immutable
  BEFORE INSERT OR UPDATE OR DELETE ON deposit_deductions
  FOR EACH ROW EXECUTE FUNCTION deposit_deductions_immutable();
