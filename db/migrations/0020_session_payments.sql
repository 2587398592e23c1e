CREATE TABLE "online_payments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"checkout_session_id" text,
	"provider_payment_id" text,
	"method" text,
	"amount" bigint NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"failure_message" text,
	"amount_refunded" bigint DEFAULT 0 NOT NULL,
	"dispute_status" text,
	"mandate_attempt" integer,
	"payment_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "online_payments_checkout_session_id_unique" UNIQUE("checkout_session_id"),
	CONSTRAINT "online_payments_provider_payment_id_unique" UNIQUE("provider_payment_id")
);
--> statement-breakpoint
CREATE TABLE "payment_customers" (
	"org_id" uuid NOT NULL,
	"contact_id" uuid NOT NULL,
	"customer_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_customers_org_id_contact_id_pk" PRIMARY KEY("org_id","contact_id")
);
--> statement-breakpoint
CREATE TABLE "provider_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"account_id" text,
	"org_id" uuid,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sepa_mandates" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"contact_id" uuid NOT NULL,
	"customer_id" text NOT NULL,
	"payment_method_id" text NOT NULL,
	"mandate_id" text,
	"status" text NOT NULL,
	"iban_last4" text,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sepa_mandates_mandate_id_unique" UNIQUE("mandate_id")
);
--> statement-breakpoint
ALTER TABLE "orgs" ADD COLUMN "alsace_moselle" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "online_payments" ADD CONSTRAINT "online_payments_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "online_payments" ADD CONSTRAINT "online_payments_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "online_payments" ADD CONSTRAINT "online_payments_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_customers" ADD CONSTRAINT "payment_customers_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_customers" ADD CONSTRAINT "payment_customers_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_events" ADD CONSTRAINT "provider_events_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sepa_mandates" ADD CONSTRAINT "sepa_mandates_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sepa_mandates" ADD CONSTRAINT "sepa_mandates_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "online_payments_document" ON "online_payments" USING btree ("org_id","document_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "online_payments_mandate_attempt" ON "online_payments" USING btree ("document_id","mandate_attempt") WHERE "online_payments"."mandate_attempt" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "sepa_mandates_one_live" ON "sepa_mandates" USING btree ("org_id","contact_id") WHERE "sepa_mandates"."status" in ('pending', 'active');