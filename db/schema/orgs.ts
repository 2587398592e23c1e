import { bigint, boolean, index, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns';

/** owner, admin and member work; an accountant (« comptable ») reads documents and exports and changes nothing. */
export const ROLES = ['owner', 'admin', 'member', 'accountant'] as const;

/** An organisation: the tenant, and the seller whose legal identity is printed on its invoices. */
export const orgs = pgTable('orgs', {
  id: id(),
  name: text('name').notNull(),
  legal_name: text('legal_name'),
  legal_form: text('legal_form'),
  share_capital_cents: bigint('share_capital_cents', { mode: 'number' }),
  siren: text('siren'),
  siret: text('siret'),
  vat_number: text('vat_number'),
  rcs: text('rcs'),
  address: text('address'),
  postal_code: text('postal_code'),
  city: text('city'),
  country: text('country').notNull().default('FR'),
  email: text('email'),
  phone: text('phone'),
  logo_data_url: text('logo_data_url'),
  /** The org works in Alsace-Moselle: Good Friday and 26 December are public holidays there (reminder days). */
  alsace_moselle: boolean('alsace_moselle').notNull().default(false),
  created_at: createdAt(),
  updated_at: updatedAt(),
});

export const users = pgTable('users', {
  id: id(),
  email: text('email').notNull().unique(),
  name: text('name'),
  password_hash: text('password_hash').notNull(),
  created_at: createdAt(),
  updated_at: updatedAt(),
});

export const memberships = pgTable(
  'memberships',
  {
    id: id(),
    org_id: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ROLES }).notNull(),
    created_at: createdAt(),
  },
  (t) => [unique('memberships_org_user').on(t.org_id, t.user_id), index('memberships_user').on(t.user_id)],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: id(),
    org_id: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** First 8 random characters of the key: not secret, finds the row before argon2 verifies it. */
    lookup_id: text('lookup_id').notNull().unique(),
    hash: text('hash').notNull(),
    scopes: text('scopes').array().notNull(),
    env: text('env', { enum: ['live', 'test'] }).notNull(),
    created_by: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    last_used_at: timestamp('last_used_at', { withTimezone: true }),
    revoked_at: timestamp('revoked_at', { withTimezone: true }),
    created_at: createdAt(),
  },
  (t) => [index('api_keys_org').on(t.org_id, t.id)],
);

/**
 * An invitation to join an org with a role, sent by e-mail (lib/platform/orgs/invitations.ts). The link carries a
 * random token; only its SHA-256 is kept. Accepted once, by whoever holds the link, within its validity.
 */
export const orgInvitations = pgTable(
  'org_invitations',
  {
    id: id(),
    org_id: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role', { enum: ROLES }).notNull(),
    token_hash: text('token_hash').notNull().unique(),
    invited_by: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    accepted_at: timestamp('accepted_at', { withTimezone: true }),
    accepted_by: uuid('accepted_by').references(() => users.id, { onDelete: 'set null' }),
    revoked_at: timestamp('revoked_at', { withTimezone: true }),
    created_at: createdAt(),
  },
  (t) => [index('org_invitations_org').on(t.org_id, t.id)],
);
