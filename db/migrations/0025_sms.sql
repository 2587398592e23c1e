CREATE TABLE "sms_messages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"to" text NOT NULL,
	"body" text NOT NULL,
	"purpose" text NOT NULL,
	"transport" text NOT NULL,
	"provider" text,
	"provider_id" text,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sms_messages" ADD CONSTRAINT "sms_messages_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sms_messages_org_transport" ON "sms_messages" USING btree ("org_id","transport","id");--> statement-breakpoint
CREATE INDEX "sms_messages_queued" ON "sms_messages" USING btree ("updated_at") WHERE "sms_messages"."status" = 'queued';