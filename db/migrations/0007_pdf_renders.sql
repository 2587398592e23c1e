CREATE TABLE "document_renders" (
	"document_id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone,
	"last_error" text,
	"storage_key" text,
	"sha256" text,
	"size" bigint,
	"content_type" text,
	"facturx_profile" text,
	"xml_sha256" text,
	"rendered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "document_renders" ADD CONSTRAINT "document_renders_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_renders" ADD CONSTRAINT "document_renders_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_renders_org" ON "document_renders" USING btree ("org_id");--> statement-breakpoint
CREATE INDEX "documents_render_queue" ON "documents" USING btree ("render_status","id") WHERE "documents"."finalized_at" is not null and "documents"."render_status" in ('pending', 'rendering');