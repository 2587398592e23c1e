CREATE TABLE "contact_consents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"contact_id" uuid NOT NULL,
	"marketing_consent" boolean,
	"source" text,
	"legal_basis" text,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contacts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"type" text DEFAULT 'professionnel' NOT NULL,
	"first_name" text,
	"last_name" text,
	"company" text,
	"email" text,
	"phone" text,
	"address" text,
	"city" text,
	"postal_code" text,
	"country" text DEFAULT 'FR' NOT NULL,
	"siret" text,
	"siren" text,
	"vat_intra" text,
	"default_payment_terms" text,
	"default_discount_terms" text,
	"preferred_language" text,
	"reminder_opt_out" boolean DEFAULT false NOT NULL,
	"marketing_consent" boolean,
	"consent_source" text,
	"legal_basis" text,
	"consent_updated_at" timestamp with time zone,
	"lead_status" text,
	"lead_score" integer,
	"notes" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"search" text GENERATED ALWAYS AS (lower(coalesce(first_name, '') || ' ' || coalesce(last_name, '') || ' ' || coalesce(company, '') || ' ' || coalesce(email, ''))) STORED,
	"name_key" text GENERATED ALWAYS AS (nullif(trim(regexp_replace(translate(lower(coalesce(nullif(trim(company), ''), coalesce(first_name, '') || ' ' || coalesce(last_name, ''))), 'àáâãäåçèéêëìíîïñòóôõöùúûüýÿœæ', 'aaaaaaceeeeiiiinooooouuuuyyoa'), '[^a-z0-9]+', ' ', 'g')), '')) STORED,
	"deleted_at" timestamp with time zone,
	"merged_into_id" uuid,
	"erased_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contact_consents" ADD CONSTRAINT "contact_consents_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_consents" ADD CONSTRAINT "contact_consents_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_merged_into_id_contacts_id_fk" FOREIGN KEY ("merged_into_id") REFERENCES "public"."contacts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_consents_contact" ON "contact_consents" USING btree ("contact_id","id");--> statement-breakpoint
CREATE INDEX "contacts_org_id" ON "contacts" USING btree ("org_id","id");--> statement-breakpoint
CREATE INDEX "contacts_org_email" ON "contacts" USING btree ("org_id","email");--> statement-breakpoint
CREATE INDEX "contacts_org_siret" ON "contacts" USING btree ("org_id","siret");--> statement-breakpoint
CREATE INDEX "contacts_org_name_key" ON "contacts" USING btree ("org_id","name_key","postal_code");--> statement-breakpoint
CREATE INDEX "contacts_org_lead_status" ON "contacts" USING btree ("org_id","lead_status","id");--> statement-breakpoint
CREATE INDEX "contacts_org_type" ON "contacts" USING btree ("org_id","type","id");--> statement-breakpoint
CREATE INDEX "contacts_tags" ON "contacts" USING gin ("tags");