CREATE TABLE "signature_approvers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"envelope_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"approved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signature_audit_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"envelope_id" uuid NOT NULL,
	"seq_index" bigint NOT NULL,
	"event_type" text NOT NULL,
	"event_data" jsonb NOT NULL,
	"signer_id" uuid,
	"occurred_at" timestamp with time zone NOT NULL,
	"content_hash" text NOT NULL,
	"prev_hash" text,
	CONSTRAINT "signature_audit_events_start" CHECK (("signature_audit_events"."seq_index" = 0) = ("signature_audit_events"."prev_hash" is null))
);
--> statement-breakpoint
CREATE TABLE "signature_bulk_batches" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"request_hash" text NOT NULL,
	"recipient_count" integer NOT NULL,
	"sent_count" integer DEFAULT 0 NOT NULL,
	"failed_count" integer DEFAULT 0 NOT NULL,
	"results" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signature_documents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"name" text NOT NULL,
	"storage_key" text NOT NULL,
	"sha256" text NOT NULL,
	"page_count" integer NOT NULL,
	"byte_size" integer NOT NULL,
	"billing_document_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signature_envelope_documents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"envelope_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signature_envelopes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"source_kind" text NOT NULL,
	"source_document_id" uuid NOT NULL,
	"document_id" uuid,
	"contact_id" uuid,
	"template_id" uuid,
	"form_id" uuid,
	"bulk_batch_id" uuid,
	"bulk_key" text,
	"created_by_user_id" uuid,
	"routing_mode" text DEFAULT 'sequential' NOT NULL,
	"assurance_level" text DEFAULT 'simple' NOT NULL,
	"consent_text_version" text NOT NULL,
	"subject" text,
	"message" text,
	"sender_name" text,
	"reply_to" text,
	"cc_recipients" text[] DEFAULT '{}'::text[] NOT NULL,
	"labels" text[] DEFAULT '{}'::text[] NOT NULL,
	"expires_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"declined_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"expired_at" timestamp with time zone,
	"document_hash" text,
	"signed_document_key" text,
	"signed_document_sha256" text,
	"proof_key" text,
	"reminder_count" integer DEFAULT 0 NOT NULL,
	"reminder_max_count" integer DEFAULT 1 NOT NULL,
	"reminder_interval_hours" integer,
	"next_reminder_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "signature_envelopes_reminders" CHECK ("signature_envelopes"."reminder_count" >= 0 and "signature_envelopes"."reminder_max_count" >= 0)
);
--> statement-breakpoint
CREATE TABLE "signature_fields" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"envelope_id" uuid NOT NULL,
	"signer_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"type" text NOT NULL,
	"page" integer NOT NULL,
	"x" double precision NOT NULL,
	"y" double precision NOT NULL,
	"width" double precision NOT NULL,
	"height" double precision NOT NULL,
	"required" boolean DEFAULT true NOT NULL,
	"label" text,
	"origin" text DEFAULT 'api' NOT NULL,
	"value" text,
	"filled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "signature_fields_page" CHECK ("signature_fields"."page" >= 1),
	CONSTRAINT "signature_fields_geometry" CHECK ("signature_fields"."x" >= 0 and "signature_fields"."y" >= 0 and "signature_fields"."width" > 0 and "signature_fields"."height" > 0 and "signature_fields"."x" + "signature_fields"."width" <= 1 and "signature_fields"."y" + "signature_fields"."height" <= 1)
);
--> statement-breakpoint
CREATE TABLE "signature_form_submissions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"form_id" uuid NOT NULL,
	"email" text NOT NULL,
	"full_name" text NOT NULL,
	"phone" text,
	"code_hash" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"code_expires_at" timestamp with time zone,
	"verified_at" timestamp with time zone,
	"envelope_id" uuid,
	"ip" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signature_forms" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"source_document_id" uuid NOT NULL,
	"template_id" uuid,
	"verification_method" text DEFAULT 'email_otp' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signature_otp_codes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"signer_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"code_hash" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signature_requested_documents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"envelope_id" uuid NOT NULL,
	"signer_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"label" text NOT NULL,
	"description" text,
	"required" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signature_signers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"envelope_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"email" text NOT NULL,
	"full_name" text,
	"phone" text,
	"routing_order" integer DEFAULT 0 NOT NULL,
	"verification_method" text DEFAULT 'email_otp' NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"token_hash" text,
	"token_ciphertext" text,
	"token_expires_at" timestamp with time zone,
	"otp_attempts" integer DEFAULT 0 NOT NULL,
	"locked_at" timestamp with time zone,
	"verified_at" timestamp with time zone,
	"notified_at" timestamp with time zone,
	"opened_at" timestamp with time zone,
	"consent_given_at" timestamp with time zone,
	"consent_text_version" text,
	"signed_at" timestamp with time zone,
	"signed_ip" text,
	"signed_user_agent" text,
	"signature_kind" text,
	"signature_value" text,
	"declined_at" timestamp with time zone,
	"decline_reason" text,
	"reminded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "signature_signers_otp_attempts" CHECK ("signature_signers"."otp_attempts" >= 0),
	CONSTRAINT "signature_signers_routing_order" CHECK ("signature_signers"."routing_order" >= 0)
);
--> statement-breakpoint
CREATE TABLE "signature_templates" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"name" text NOT NULL,
	"subject" text,
	"message" text,
	"labels" text[] DEFAULT '{}'::text[] NOT NULL,
	"cc_recipients" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signature_uploads" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"envelope_id" uuid NOT NULL,
	"requested_document_id" uuid NOT NULL,
	"signer_id" uuid NOT NULL,
	"name" text NOT NULL,
	"content_type" text NOT NULL,
	"storage_key" text NOT NULL,
	"byte_size" integer NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "signature_approvers" ADD CONSTRAINT "signature_approvers_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_approvers" ADD CONSTRAINT "signature_approvers_envelope_id_signature_envelopes_id_fk" FOREIGN KEY ("envelope_id") REFERENCES "public"."signature_envelopes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_approvers" ADD CONSTRAINT "signature_approvers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_audit_events" ADD CONSTRAINT "signature_audit_events_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_audit_events" ADD CONSTRAINT "signature_audit_events_envelope_id_signature_envelopes_id_fk" FOREIGN KEY ("envelope_id") REFERENCES "public"."signature_envelopes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_bulk_batches" ADD CONSTRAINT "signature_bulk_batches_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_documents" ADD CONSTRAINT "signature_documents_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_envelope_documents" ADD CONSTRAINT "signature_envelope_documents_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_envelope_documents" ADD CONSTRAINT "signature_envelope_documents_envelope_id_signature_envelopes_id_fk" FOREIGN KEY ("envelope_id") REFERENCES "public"."signature_envelopes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_envelope_documents" ADD CONSTRAINT "signature_envelope_documents_document_id_signature_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."signature_documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_envelopes" ADD CONSTRAINT "signature_envelopes_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_envelopes" ADD CONSTRAINT "signature_envelopes_document_id_signature_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."signature_documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_envelopes" ADD CONSTRAINT "signature_envelopes_template_id_signature_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."signature_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_envelopes" ADD CONSTRAINT "signature_envelopes_form_id_signature_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."signature_forms"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_envelopes" ADD CONSTRAINT "signature_envelopes_bulk_batch_id_signature_bulk_batches_id_fk" FOREIGN KEY ("bulk_batch_id") REFERENCES "public"."signature_bulk_batches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_envelopes" ADD CONSTRAINT "signature_envelopes_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_fields" ADD CONSTRAINT "signature_fields_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_fields" ADD CONSTRAINT "signature_fields_envelope_id_signature_envelopes_id_fk" FOREIGN KEY ("envelope_id") REFERENCES "public"."signature_envelopes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_fields" ADD CONSTRAINT "signature_fields_signer_id_signature_signers_id_fk" FOREIGN KEY ("signer_id") REFERENCES "public"."signature_signers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_form_submissions" ADD CONSTRAINT "signature_form_submissions_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_form_submissions" ADD CONSTRAINT "signature_form_submissions_form_id_signature_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."signature_forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_form_submissions" ADD CONSTRAINT "signature_form_submissions_envelope_id_signature_envelopes_id_fk" FOREIGN KEY ("envelope_id") REFERENCES "public"."signature_envelopes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_forms" ADD CONSTRAINT "signature_forms_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_forms" ADD CONSTRAINT "signature_forms_source_document_id_signature_documents_id_fk" FOREIGN KEY ("source_document_id") REFERENCES "public"."signature_documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_forms" ADD CONSTRAINT "signature_forms_template_id_signature_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."signature_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_otp_codes" ADD CONSTRAINT "signature_otp_codes_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_otp_codes" ADD CONSTRAINT "signature_otp_codes_signer_id_signature_signers_id_fk" FOREIGN KEY ("signer_id") REFERENCES "public"."signature_signers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_requested_documents" ADD CONSTRAINT "signature_requested_documents_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_requested_documents" ADD CONSTRAINT "signature_requested_documents_envelope_id_signature_envelopes_id_fk" FOREIGN KEY ("envelope_id") REFERENCES "public"."signature_envelopes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_requested_documents" ADD CONSTRAINT "signature_requested_documents_signer_id_signature_signers_id_fk" FOREIGN KEY ("signer_id") REFERENCES "public"."signature_signers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_signers" ADD CONSTRAINT "signature_signers_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_signers" ADD CONSTRAINT "signature_signers_envelope_id_signature_envelopes_id_fk" FOREIGN KEY ("envelope_id") REFERENCES "public"."signature_envelopes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_templates" ADD CONSTRAINT "signature_templates_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_uploads" ADD CONSTRAINT "signature_uploads_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_uploads" ADD CONSTRAINT "signature_uploads_envelope_id_signature_envelopes_id_fk" FOREIGN KEY ("envelope_id") REFERENCES "public"."signature_envelopes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_uploads" ADD CONSTRAINT "signature_uploads_requested_document_id_signature_requested_documents_id_fk" FOREIGN KEY ("requested_document_id") REFERENCES "public"."signature_requested_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_uploads" ADD CONSTRAINT "signature_uploads_signer_id_signature_signers_id_fk" FOREIGN KEY ("signer_id") REFERENCES "public"."signature_signers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "signature_approvers_unique" ON "signature_approvers" USING btree ("envelope_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "signature_audit_events_seq" ON "signature_audit_events" USING btree ("envelope_id","seq_index");--> statement-breakpoint
CREATE INDEX "signature_bulk_batches_org" ON "signature_bulk_batches" USING btree ("org_id","id");--> statement-breakpoint
CREATE INDEX "signature_documents_org" ON "signature_documents" USING btree ("org_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "signature_envelope_documents_unique" ON "signature_envelope_documents" USING btree ("envelope_id","document_id");--> statement-breakpoint
CREATE INDEX "signature_envelopes_org" ON "signature_envelopes" USING btree ("org_id","id");--> statement-breakpoint
CREATE INDEX "signature_envelopes_org_status" ON "signature_envelopes" USING btree ("org_id","status","id");--> statement-breakpoint
CREATE INDEX "signature_envelopes_source" ON "signature_envelopes" USING btree ("org_id","source_document_id");--> statement-breakpoint
CREATE INDEX "signature_envelopes_contact" ON "signature_envelopes" USING btree ("org_id","contact_id") WHERE "signature_envelopes"."contact_id" is not null;--> statement-breakpoint
CREATE INDEX "signature_envelopes_labels" ON "signature_envelopes" USING gin ("labels");--> statement-breakpoint
CREATE UNIQUE INDEX "signature_envelopes_bulk_key" ON "signature_envelopes" USING btree ("org_id","bulk_key");--> statement-breakpoint
CREATE INDEX "signature_envelopes_expiry" ON "signature_envelopes" USING btree ("expires_at") WHERE "signature_envelopes"."status" in ('sent', 'in_progress');--> statement-breakpoint
CREATE INDEX "signature_envelopes_reminder" ON "signature_envelopes" USING btree ("next_reminder_at") WHERE "signature_envelopes"."status" in ('sent', 'in_progress');--> statement-breakpoint
CREATE INDEX "signature_fields_envelope" ON "signature_fields" USING btree ("envelope_id","position");--> statement-breakpoint
CREATE INDEX "signature_form_submissions_form" ON "signature_form_submissions" USING btree ("form_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "signature_forms_slug" ON "signature_forms" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "signature_forms_org" ON "signature_forms" USING btree ("org_id","id");--> statement-breakpoint
CREATE INDEX "signature_otp_codes_signer" ON "signature_otp_codes" USING btree ("signer_id","id");--> statement-breakpoint
CREATE INDEX "signature_requested_documents_envelope" ON "signature_requested_documents" USING btree ("envelope_id","position");--> statement-breakpoint
CREATE INDEX "signature_signers_envelope" ON "signature_signers" USING btree ("envelope_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "signature_signers_token" ON "signature_signers" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "signature_templates_org" ON "signature_templates" USING btree ("org_id","id");--> statement-breakpoint
CREATE INDEX "signature_uploads_requested" ON "signature_uploads" USING btree ("requested_document_id");--> statement-breakpoint
-- The audit chain of an envelope is append-only at the database layer (DESIGN §12, docs/signature.md): no UPDATE,
-- ever; no DELETE, except the cascade of a deleted envelope (which the next trigger allows for drafts only).
CREATE OR REPLACE FUNCTION signature_audit_events_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF EXISTS (SELECT 1 FROM signature_envelopes e WHERE e.id = OLD.envelope_id) THEN
      RAISE EXCEPTION 'signature audit event % (envelope %, #%) is append-only: it cannot be deleted', OLD.id, OLD.envelope_id, OLD.seq_index
        USING ERRCODE = 'P0001';
    END IF;
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'signature audit event % (envelope %, #%) is append-only: it cannot change', OLD.id, OLD.envelope_id, OLD.seq_index
    USING ERRCODE = 'P0001';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER signature_audit_events_append_only
  BEFORE UPDATE OR DELETE ON signature_audit_events
  FOR EACH ROW EXECUTE FUNCTION signature_audit_events_append_only();
--> statement-breakpoint
-- Only a draft envelope can be deleted (with its signers and its chain); a sent one is evidence.
CREATE OR REPLACE FUNCTION signature_envelopes_keep_sent() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status <> 'draft' THEN
    RAISE EXCEPTION 'signature envelope % is %: only a draft can be deleted', OLD.id, OLD.status
      USING ERRCODE = 'P0001';
  END IF;
  RETURN OLD;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER signature_envelopes_keep_sent
  BEFORE DELETE ON signature_envelopes
  FOR EACH ROW EXECUTE FUNCTION signature_envelopes_keep_sent();
