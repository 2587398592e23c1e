-- Issue 32: each table has one owning module, and only it writes the table. The render state leaves documents for
-- pdf's document_renders (status), the transmission and lifecycle summary for einvoicing's einvoicing_document_states;
-- documents keeps its own decision, frozen at finalization, that a document goes to the PA (transmission_required).
-- The billing document the API shows joins them back at read time (lib/domain/documents/documents.ts), with the same
-- fields and values. The states are carried over before their columns are dropped.
-- PostgreSQL 15 SQL (production); PGlite (PostgreSQL 18) runs the same.
CREATE TABLE "einvoicing_document_states" (
	"document_id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"transmission_status" text DEFAULT 'pending' NOT NULL,
	"transmission_id" text,
	"lifecycle_status" text,
	"lifecycle_reason" text,
	"lifecycle_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "documents_render_queue";--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "transmission_required" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "document_renders" ADD COLUMN "status" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "einvoicing_document_states" ADD CONSTRAINT "einvoicing_document_states_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "einvoicing_document_states" ADD CONSTRAINT "einvoicing_document_states_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_renders_queue" ON "document_renders" USING btree ("status","document_id") WHERE "document_renders"."status" in ('pending', 'rendering');--> statement-breakpoint
-- The render state, onto the render row; a document that has none but is not pending (set by hand) gets one.
UPDATE "document_renders" r SET "status" = d."render_status" FROM "documents" d WHERE d."id" = r."document_id";--> statement-breakpoint
INSERT INTO "document_renders" ("document_id", "org_id", "status")
  SELECT d."id", d."org_id", d."render_status" FROM "documents" d
  WHERE d."render_status" <> 'pending' AND NOT EXISTS (SELECT 1 FROM "document_renders" r WHERE r."document_id" = d."id");--> statement-breakpoint
-- The e-invoicing summary: one row for every document e-invoicing has said something about.
INSERT INTO "einvoicing_document_states" ("document_id", "org_id", "transmission_status", "transmission_id", "lifecycle_status", "lifecycle_reason", "lifecycle_at", "created_at", "updated_at")
  SELECT d."id", d."org_id", d."transmission_status", d."transmission_id", d."lifecycle_status", d."lifecycle_reason", d."lifecycle_at", d."updated_at", d."updated_at"
  FROM "documents" d
  WHERE d."transmission_status" <> 'not_required' OR d."transmission_id" IS NOT NULL OR d."lifecycle_status" IS NOT NULL;--> statement-breakpoint
-- documents' decision for the documents already issued: those the finalization sent toward the PA. The column is new
-- legal content of finalized rows, which billing_documents_immutable refuses to change: off for this statement only.
ALTER TABLE "documents" DISABLE TRIGGER "billing_documents_immutable";--> statement-breakpoint
UPDATE "documents" SET "transmission_required" = true WHERE "transmission_status" <> 'not_required';--> statement-breakpoint
ALTER TABLE "documents" ENABLE TRIGGER "billing_documents_immutable";--> statement-breakpoint
ALTER TABLE "documents" DROP COLUMN "render_status";--> statement-breakpoint
ALTER TABLE "documents" DROP COLUMN "transmission_status";--> statement-breakpoint
ALTER TABLE "documents" DROP COLUMN "transmission_id";--> statement-breakpoint
ALTER TABLE "documents" DROP COLUMN "lifecycle_status";--> statement-breakpoint
ALTER TABLE "documents" DROP COLUMN "lifecycle_reason";--> statement-breakpoint
ALTER TABLE "documents" DROP COLUMN "lifecycle_at";--> statement-breakpoint
-- The allow-list of migration finalize_path_only without the columns that left: a finalized document's status,
-- status_changed_at, contact_id (a merge), sent_at and updated_at only. transmission_required is frozen with it.
CREATE OR REPLACE FUNCTION billing_documents_immutable() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  mutable_columns CONSTANT text[] := ARRAY['status', 'status_changed_at', 'contact_id', 'sent_at', 'updated_at'];
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
