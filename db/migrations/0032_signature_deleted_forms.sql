CREATE TABLE "signature_deleted_forms" (
	"slug" text PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "signature_deleted_forms" ADD CONSTRAINT "signature_deleted_forms_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- A deleted form's slug is remembered: /sign/forms/<slug> answers 410 for it, not 404 (docs/signature.md « Forms »).
CREATE OR REPLACE FUNCTION signature_forms_remember_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO signature_deleted_forms (slug, org_id) VALUES (OLD.slug, OLD.org_id) ON CONFLICT (slug) DO NOTHING;
  RETURN OLD;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER signature_forms_remember_deleted
  AFTER DELETE ON signature_forms
  FOR EACH ROW EXECUTE FUNCTION signature_forms_remember_deleted();
