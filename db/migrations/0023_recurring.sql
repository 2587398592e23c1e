CREATE TABLE "recurring_generations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"template_id" uuid NOT NULL,
	"period_start" date NOT NULL,
	"document_id" uuid,
	"status" text NOT NULL,
	"stage" text,
	"error" text,
	"source" text NOT NULL,
	"collect_status" text,
	"collect_error" text,
	"online_payment_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recurring_templates" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"contact_id" uuid NOT NULL,
	"frequency" text NOT NULL,
	"items" jsonb NOT NULL,
	"next_generation_date" date NOT NULL,
	"anchor_day" integer NOT NULL,
	"title" text,
	"notes" text,
	"operation_nature" text,
	"auto_send" boolean DEFAULT false NOT NULL,
	"auto_collect_sepa" boolean DEFAULT false NOT NULL,
	"paused_at" timestamp with time zone,
	"last_error" text,
	"last_error_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "recurring_generations" ADD CONSTRAINT "recurring_generations_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recurring_generations" ADD CONSTRAINT "recurring_generations_template_id_recurring_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."recurring_templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recurring_generations" ADD CONSTRAINT "recurring_generations_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recurring_templates" ADD CONSTRAINT "recurring_templates_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recurring_templates" ADD CONSTRAINT "recurring_templates_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "recurring_generations_period" ON "recurring_generations" USING btree ("template_id","period_start");--> statement-breakpoint
CREATE INDEX "recurring_generations_org" ON "recurring_generations" USING btree ("org_id","template_id","id");--> statement-breakpoint
CREATE INDEX "recurring_templates_due" ON "recurring_templates" USING btree ("next_generation_date") WHERE "recurring_templates"."paused_at" is null;--> statement-breakpoint
CREATE INDEX "recurring_templates_org" ON "recurring_templates" USING btree ("org_id","id");--> statement-breakpoint
CREATE INDEX "recurring_templates_contact" ON "recurring_templates" USING btree ("contact_id");