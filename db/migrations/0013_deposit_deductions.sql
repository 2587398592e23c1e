CREATE TABLE "deposit_deductions" (
	"org_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"deposit_id" uuid NOT NULL,
	"vat_category" text NOT NULL,
	"vat_rate" text NOT NULL,
	"amount" bigint NOT NULL,
	CONSTRAINT "deposit_deductions_document_id_deposit_id_vat_category_vat_rate_pk" PRIMARY KEY("document_id","deposit_id","vat_category","vat_rate"),
	CONSTRAINT "deposit_deductions_amount_positive" CHECK ("deposit_deductions"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "deposit_deductions" ADD CONSTRAINT "deposit_deductions_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposit_deductions" ADD CONSTRAINT "deposit_deductions_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposit_deductions" ADD CONSTRAINT "deposit_deductions_deposit_id_documents_id_fk" FOREIGN KEY ("deposit_id") REFERENCES "public"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deposit_deductions_deposit" ON "deposit_deductions" USING btree ("deposit_id");