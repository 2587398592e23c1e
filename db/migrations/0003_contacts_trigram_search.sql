-- Contact search (q) is a substring match over names, company and e-mail: a trigram index answers it
-- without scanning the org. The expression is the one lib/contacts/contacts.ts writes, letter for letter.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "contacts_search_trgm" ON "contacts" USING gin (translate("search", 'àáâãäåçèéêëìíîïñòóôõöùúûüýÿœæ', 'aaaaaaceeeeiiiinooooouuuuyyoa') gin_trgm_ops);
