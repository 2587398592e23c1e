CREATE TABLE "reminder_ladders" (
	"document_id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"due_date" date,
	"open" boolean NOT NULL,
	"sent_count" bigint NOT NULL,
	"pending_count" bigint NOT NULL,
	"skipped_count" bigint NOT NULL,
	"next_at" timestamp with time zone,
	"exhausted" boolean GENERATED ALWAYS AS (pending_count = 0 and sent_count + skipped_count > 0) STORED,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reminders" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"step" integer,
	"offset_days" integer,
	"scheduled_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"tone" text,
	"message" text,
	"reason" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"email_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invoice_settings" ADD COLUMN "payment_reminder_offsets" integer[] DEFAULT '{-3,1,7,15,30}'::integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "invoice_settings" ADD COLUMN "quote_expiry_reminder_offsets" integer[] DEFAULT '{-7,-2}'::integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "reminder_ladders" ADD CONSTRAINT "reminder_ladders_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reminder_ladders" ADD CONSTRAINT "reminder_ladders_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reminders" ADD CONSTRAINT "reminders_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reminders" ADD CONSTRAINT "reminders_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reminder_ladders_tracking" ON "reminder_ladders" USING btree ("org_id","exhausted","due_date","next_at","document_id") WHERE "reminder_ladders"."open";--> statement-breakpoint
CREATE INDEX "reminder_ladders_next" ON "reminder_ladders" USING btree ("org_id","next_at","document_id") WHERE "reminder_ladders"."open" and not "reminder_ladders"."exhausted";--> statement-breakpoint
CREATE INDEX "reminders_due" ON "reminders" USING btree ("scheduled_at") WHERE "reminders"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "reminders_document" ON "reminders" USING btree ("document_id","scheduled_at");--> statement-breakpoint
CREATE INDEX "reminders_org" ON "reminders" USING btree ("org_id");