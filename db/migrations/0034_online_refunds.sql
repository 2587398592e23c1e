-- Refunds at the payment provider (lib/domain/payments/online-refunds.ts): asked from a credit note or made in the
-- provider's dashboard; counted as a negative payment only once the provider says succeeded.
CREATE TABLE "online_refunds" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"online_payment_id" uuid NOT NULL,
	"amount" bigint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"provider_refund_id" text,
	"origin" text DEFAULT 'paraphe' NOT NULL,
	"idempotency_key" text,
	"failure_reason" text,
	"counted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "online_refunds_provider_refund_id_unique" UNIQUE("provider_refund_id")
);
--> statement-breakpoint
ALTER TABLE "online_refunds" ADD CONSTRAINT "online_refunds_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "online_refunds" ADD CONSTRAINT "online_refunds_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "online_refunds" ADD CONSTRAINT "online_refunds_online_payment_id_online_payments_id_fk" FOREIGN KEY ("online_payment_id") REFERENCES "public"."online_payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "online_refunds_document" ON "online_refunds" USING btree ("org_id","document_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "online_refunds_idempotency" ON "online_refunds" USING btree ("org_id","idempotency_key") WHERE "online_refunds"."idempotency_key" is not null;
