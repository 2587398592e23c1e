CREATE TABLE "export_settings" (
	"org_id" uuid PRIMARY KEY NOT NULL,
	"client_account" text DEFAULT '411000' NOT NULL,
	"revenue_account" text DEFAULT '706000' NOT NULL,
	"vat_account" text DEFAULT '445710' NOT NULL,
	"journal_code" text DEFAULT 'VE' NOT NULL,
	"journal_label" text DEFAULT 'Ventes' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "export_settings" ADD CONSTRAINT "export_settings_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;