CREATE TABLE "document_items" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"kind" text DEFAULT 'product' NOT NULL,
	"description" text NOT NULL,
	"details" text,
	"quantity" text NOT NULL,
	"unit" text,
	"unit_price" bigint NOT NULL,
	"vat_rate" text NOT NULL,
	"vat_category" text NOT NULL,
	"product_id" uuid,
	"total_ht" bigint NOT NULL,
	"total_ttc" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "documents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"type" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"status_changed_at" timestamp with time zone,
	"contact_id" uuid NOT NULL,
	"number" text,
	"issue_date" date NOT NULL,
	"due_date" date,
	"service_date" date,
	"validity_date" date,
	"title" text,
	"description" text,
	"notes" text,
	"total_ht" bigint DEFAULT 0 NOT NULL,
	"total_tva" bigint DEFAULT 0 NOT NULL,
	"total_ttc" bigint DEFAULT 0 NOT NULL,
	"client_snapshot" jsonb,
	"seller_snapshot" jsonb,
	"finalized_at" timestamp with time zone,
	"chain_index" bigint,
	"content_hash" text,
	"prev_hash" text,
	"converted_from_id" uuid,
	"parent_devis_id" uuid,
	"avoir_for_id" uuid,
	"acompte_percentage" text,
	"deposit_request_percentage" text,
	"credit_reason_code" text,
	"credit_reason_text" text,
	"delivery_address" jsonb,
	"discount_terms" text,
	"payment_terms" text,
	"payment_method" text,
	"execution_timeline" text,
	"operation_nature" text,
	"vat_exigibility" text,
	"payment_plan_kind" text DEFAULT 'none' NOT NULL,
	"payment_plan_config" jsonb,
	"render_status" text DEFAULT 'pending' NOT NULL,
	"transmission_status" text DEFAULT 'not_required' NOT NULL,
	"transmission_id" text,
	"lifecycle_status" text,
	"lifecycle_reason" text,
	"lifecycle_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hash_chains" (
	"org_id" uuid PRIMARY KEY NOT NULL,
	"length" bigint DEFAULT 0 NOT NULL,
	"head_hash" text,
	"head_document_id" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_settings" (
	"org_id" uuid PRIMARY KEY NOT NULL,
	"devis_prefix" text DEFAULT 'DEV' NOT NULL,
	"facture_prefix" text DEFAULT 'FAC' NOT NULL,
	"acompte_prefix" text DEFAULT 'AC' NOT NULL,
	"avoir_prefix" text DEFAULT 'AV' NOT NULL,
	"default_validity_days" integer DEFAULT 30 NOT NULL,
	"default_vat_exigibility" text DEFAULT 'debits',
	"default_payment_terms" text,
	"default_discount_terms" text,
	"footer_mentions" text,
	"iban" text,
	"bic" text,
	"penalty_rate" text,
	"recovery_fee" bigint DEFAULT 4000 NOT NULL,
	"auto_convert_signed_quotes" boolean DEFAULT false NOT NULL,
	"auto_finalize_signed_invoices" boolean DEFAULT false NOT NULL,
	"auto_send_signed_invoices" boolean DEFAULT false NOT NULL,
	"einvoicing_enabled" boolean DEFAULT false NOT NULL,
	"ereporting_prefs" jsonb,
	"pdp_config" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "number_counters" (
	"org_id" uuid NOT NULL,
	"type" text NOT NULL,
	"year" integer NOT NULL,
	"last_number" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "number_counters_org_id_type_year_pk" PRIMARY KEY("org_id","type","year")
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"amount" bigint NOT NULL,
	"paid_at" date NOT NULL,
	"method" text NOT NULL,
	"reference" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"unit" text,
	"unit_price_cents" bigint NOT NULL,
	"vat_rate" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "document_items" ADD CONSTRAINT "document_items_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_items" ADD CONSTRAINT "document_items_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_converted_from_id_documents_id_fk" FOREIGN KEY ("converted_from_id") REFERENCES "public"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_parent_devis_id_documents_id_fk" FOREIGN KEY ("parent_devis_id") REFERENCES "public"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_avoir_for_id_documents_id_fk" FOREIGN KEY ("avoir_for_id") REFERENCES "public"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hash_chains" ADD CONSTRAINT "hash_chains_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_settings" ADD CONSTRAINT "invoice_settings_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "number_counters" ADD CONSTRAINT "number_counters_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_items_document" ON "document_items" USING btree ("document_id","position");--> statement-breakpoint
CREATE INDEX "documents_org_id" ON "documents" USING btree ("org_id","id");--> statement-breakpoint
CREATE INDEX "documents_org_type" ON "documents" USING btree ("org_id","type","id");--> statement-breakpoint
CREATE INDEX "documents_org_status" ON "documents" USING btree ("org_id","status","id");--> statement-breakpoint
CREATE INDEX "documents_org_contact" ON "documents" USING btree ("org_id","contact_id","id");--> statement-breakpoint
CREATE INDEX "documents_org_issue_date" ON "documents" USING btree ("org_id","issue_date");--> statement-breakpoint
CREATE INDEX "documents_parent_devis" ON "documents" USING btree ("parent_devis_id");--> statement-breakpoint
CREATE INDEX "documents_converted_from" ON "documents" USING btree ("converted_from_id");--> statement-breakpoint
CREATE UNIQUE INDEX "documents_org_number" ON "documents" USING btree ("org_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "documents_org_chain_index" ON "documents" USING btree ("org_id","chain_index");--> statement-breakpoint
CREATE UNIQUE INDEX "documents_one_credit_note" ON "documents" USING btree ("avoir_for_id") WHERE "documents"."avoir_for_id" is not null and "documents"."status" <> 'cancelled';--> statement-breakpoint
CREATE INDEX "payments_document" ON "payments" USING btree ("document_id","id");--> statement-breakpoint
CREATE INDEX "payments_org_paid_at" ON "payments" USING btree ("org_id","paid_at");--> statement-breakpoint
CREATE INDEX "products_org_id" ON "products" USING btree ("org_id","id");