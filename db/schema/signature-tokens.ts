import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { orgs } from './orgs';
import { signatureSigners } from './signature';

/**
 * The hashes of signer tokens that no longer work (killed on completion, decline, cancel, expiry, or replaced at
 * reactivation), so that `/api/sign/<token>` tells a dead link (410 `link_expired`) from an unknown one (404). Written
 * by a trigger on `signature_signers` whenever a `token_hash` is cleared or replaced (migration 0027): whoever kills a
 * token cannot forget it.
 */
export const signatureDeadTokens = pgTable('signature_dead_tokens', {
  token_hash: text('token_hash').primaryKey(),
  org_id: uuid('org_id')
    .notNull()
    .references(() => orgs.id, { onDelete: 'cascade' }),
  signer_id: uuid('signer_id')
    .notNull()
    .references(() => signatureSigners.id, { onDelete: 'cascade' }),
  died_at: timestamp('died_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The slugs of deleted signature forms, so that `/sign/forms/<slug>` tells a deleted form (410) from an unknown slug
 * (404). Written by a trigger on `signature_forms` whenever a form is deleted (migration 0032), like the dead tokens.
 */
export const signatureDeletedForms = pgTable('signature_deleted_forms', {
  slug: text('slug').primaryKey(),
  org_id: uuid('org_id')
    .notNull()
    .references(() => orgs.id, { onDelete: 'cascade' }),
  deleted_at: timestamp('deleted_at', { withTimezone: true }).notNull().defaultNow(),
});
