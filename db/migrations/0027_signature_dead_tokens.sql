CREATE TABLE "signature_dead_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"signer_id" uuid NOT NULL,
	"died_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "signature_dead_tokens" ADD CONSTRAINT "signature_dead_tokens_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_dead_tokens" ADD CONSTRAINT "signature_dead_tokens_signer_id_signature_signers_id_fk" FOREIGN KEY ("signer_id") REFERENCES "public"."signature_signers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- A signer token cleared or replaced is remembered as dead: /api/sign/<token> answers 410 link_expired for it, not 404.
CREATE OR REPLACE FUNCTION signature_signers_remember_dead_token() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO signature_dead_tokens (token_hash, org_id, signer_id) VALUES (OLD.token_hash, OLD.org_id, OLD.id)
    ON CONFLICT (token_hash) DO NOTHING;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER signature_signers_remember_dead_token
  AFTER UPDATE OF token_hash ON signature_signers
  FOR EACH ROW WHEN (OLD.token_hash IS NOT NULL AND OLD.token_hash IS DISTINCT FROM NEW.token_hash)
  EXECUTE FUNCTION signature_signers_remember_dead_token();
