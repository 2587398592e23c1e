CREATE TABLE "einvoicing_enrollments" (
	"org_id" uuid PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'not_enrolled' NOT NULL,
	"siren" text,
	"siret" text,
	"routing_code" text,
	"electronic_address" text,
	"reason" text,
	"requested_at" timestamp with time zone,
	"enrolled_at" timestamp with time zone,
	"failed_at" timestamp with time zone,
	"pa_directory_line_id" text,
	"pa_routing_code_id" text,
	"checked_at" timestamp with time zone,
	"checks" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "einvoicing_lifecycle_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"document_id" uuid,
	"inbound_invoice_id" uuid,
	"direction" text NOT NULL,
	"pa_event_id" text NOT NULL,
	"flow_id" text,
	"code" text NOT NULL,
	"token" text NOT NULL,
	"reason_code" text,
	"reason" text,
	"issuer_role" text NOT NULL,
	"amount_cents" bigint,
	"occurred_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "einvoicing_lifecycle_events_subject" CHECK (("einvoicing_lifecycle_events"."document_id" is null) <> ("einvoicing_lifecycle_events"."inbound_invoice_id" is null))
);
--> statement-breakpoint
CREATE TABLE "einvoicing_poll_cursors" (
	"org_id" uuid NOT NULL,
	"stream" text NOT NULL,
	"updated_after" timestamp with time zone,
	"seen_flow_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"polled_at" timestamp with time zone,
	"last_error" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "einvoicing_poll_cursors_org_id_stream_pk" PRIMARY KEY("org_id","stream")
);
--> statement-breakpoint
CREATE TABLE "einvoicing_transmissions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"file_sha256" text NOT NULL,
	"tracking_id" text NOT NULL,
	"flow_id" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"buyer_address" text,
	"ack_status" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"next_attempt_at" timestamp with time zone,
	"locked_until" timestamp with time zone,
	"submitted_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"failed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "einvoicing_transmissions_document_id_unique" UNIQUE("document_id"),
	CONSTRAINT "einvoicing_transmissions_tracking_id_unique" UNIQUE("tracking_id")
);
--> statement-breakpoint
CREATE TABLE "inbound_invoices" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"flow_id" text NOT NULL,
	"parse_status" text DEFAULT 'pending' NOT NULL,
	"format" text,
	"parse_error" text,
	"storage_key" text NOT NULL,
	"sha256" text NOT NULL,
	"content_type" text,
	"byte_size" bigint,
	"pdf_storage_key" text,
	"invoice_number" text,
	"issue_date" text,
	"due_date" text,
	"currency" text,
	"seller_name" text,
	"sender_siren" text,
	"total_ht" bigint,
	"total_vat" bigint,
	"total_ttc" bigint,
	"parsed" jsonb,
	"lifecycle_status" text,
	"lifecycle_reason" text,
	"lifecycle_at" timestamp with time zone,
	"received_at" timestamp with time zone,
	"imported_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "einvoicing_enrollments" ADD CONSTRAINT "einvoicing_enrollments_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "einvoicing_lifecycle_events" ADD CONSTRAINT "einvoicing_lifecycle_events_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "einvoicing_lifecycle_events" ADD CONSTRAINT "einvoicing_lifecycle_events_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "einvoicing_lifecycle_events" ADD CONSTRAINT "einvoicing_lifecycle_events_inbound_invoice_id_inbound_invoices_id_fk" FOREIGN KEY ("inbound_invoice_id") REFERENCES "public"."inbound_invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "einvoicing_poll_cursors" ADD CONSTRAINT "einvoicing_poll_cursors_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "einvoicing_transmissions" ADD CONSTRAINT "einvoicing_transmissions_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "einvoicing_transmissions" ADD CONSTRAINT "einvoicing_transmissions_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_invoices" ADD CONSTRAINT "inbound_invoices_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "einvoicing_lifecycle_events_identity" ON "einvoicing_lifecycle_events" USING btree ("org_id","pa_event_id");--> statement-breakpoint
CREATE INDEX "einvoicing_lifecycle_events_document" ON "einvoicing_lifecycle_events" USING btree ("document_id","occurred_at");--> statement-breakpoint
CREATE INDEX "einvoicing_lifecycle_events_inbound" ON "einvoicing_lifecycle_events" USING btree ("inbound_invoice_id","occurred_at");--> statement-breakpoint
CREATE UNIQUE INDEX "einvoicing_transmissions_document_file" ON "einvoicing_transmissions" USING btree ("document_id","file_sha256");--> statement-breakpoint
CREATE UNIQUE INDEX "einvoicing_transmissions_org_flow" ON "einvoicing_transmissions" USING btree ("org_id","flow_id");--> statement-breakpoint
CREATE INDEX "einvoicing_transmissions_due" ON "einvoicing_transmissions" USING btree ("next_attempt_at") WHERE "einvoicing_transmissions"."status" in ('pending', 'sending');--> statement-breakpoint
CREATE UNIQUE INDEX "inbound_invoices_org_flow" ON "inbound_invoices" USING btree ("org_id","flow_id");--> statement-breakpoint
CREATE INDEX "inbound_invoices_org" ON "inbound_invoices" USING btree ("org_id","id");--> statement-breakpoint
CREATE INDEX "inbound_invoices_org_sender" ON "inbound_invoices" USING btree ("org_id","sender_siren");--> statement-breakpoint
-- The lifecycle log is append-only at the database layer too (like the billing documents' triggers): whatever writes
-- to the table (a script, a psql session, a future bug), a recorded status can be neither changed nor deleted.
-- PostgreSQL 15 SQL (production); PGlite (PostgreSQL 18) runs the same.
CREATE OR REPLACE FUNCTION einvoicing_lifecycle_events_immutable() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'lifecycle event % (code %) is part of the log: it cannot be deleted', OLD.id, OLD.code
      USING ERRCODE = 'P0001';
  END IF;
  RAISE EXCEPTION 'lifecycle event % (code %) is part of the log: it cannot change', OLD.id, OLD.code
    USING ERRCODE = 'P0001', HINT = 'Append a new event instead.';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER einvoicing_lifecycle_events_immutable
  BEFORE UPDATE OR DELETE ON einvoicing_lifecycle_events
  FOR EACH ROW EXECUTE FUNCTION einvoicing_lifecycle_events_immutable();
