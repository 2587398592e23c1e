CREATE TABLE "email_attachments" (
	"email_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"content" "bytea" NOT NULL,
	CONSTRAINT "email_attachments_email_id_position_pk" PRIMARY KEY("email_id","position")
);
--> statement-breakpoint
CREATE TABLE "email_webhook_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "emails" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"from" text NOT NULL,
	"to" text[] NOT NULL,
	"cc" text[] DEFAULT '{}'::text[] NOT NULL,
	"reply_to" text,
	"subject" text NOT NULL,
	"template" text NOT NULL,
	"template_data" jsonb NOT NULL,
	"language" text NOT NULL,
	"document_id" uuid,
	"attachments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"html" text NOT NULL,
	"text" text NOT NULL,
	"transport" text NOT NULL,
	"provider_id" text,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"job_id" uuid,
	"sent_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_attachments" ADD CONSTRAINT "email_attachments_email_id_emails_id_fk" FOREIGN KEY ("email_id") REFERENCES "public"."emails"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_webhook_events_received" ON "email_webhook_events" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "emails_org_transport" ON "emails" USING btree ("org_id","transport","id");--> statement-breakpoint
CREATE INDEX "emails_document" ON "emails" USING btree ("org_id","document_id","id") WHERE "emails"."document_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "emails_provider_id" ON "emails" USING btree ("provider_id") WHERE "emails"."provider_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "emails_queued" ON "emails" USING btree ("updated_at") WHERE "emails"."status" = 'queued';