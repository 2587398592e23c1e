import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { documents, RENDER_STATUSES } from './billing';
import { createdAt, updatedAt } from './columns';
import { orgs } from './orgs';

/**
 * The stored rendition of a finalized document (PDF/A-3, with its Factur-X XML for invoices), one per
 * document, written by lib/domain/pdf only. `status` says where rendering stands (no row yet: `pending`, the API's
 * render_status until the render job first claims it); the row keeps the attempts and, once rendered, the object's
 * key, size and SHA-256. Once `storage_key` is set it never changes (trigger `document_renders_immutable`): a
 * finalized document's PDF is rendered once.
 */
export const documentRenders = pgTable(
  'document_renders',
  {
    document_id: uuid('document_id')
      .primaryKey()
      .references(() => documents.id, { onDelete: 'cascade' }),
    org_id: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    status: text('status', { enum: RENDER_STATUSES }).notNull().default('pending'),
    /** Render attempts so far (every job try counts, across re-queues). */
    attempts: integer('attempts').notNull().default(0),
    /** When the current or last attempt started: a `rendering` row older than the job timeout is stale. */
    started_at: timestamp('started_at', { withTimezone: true }),
    /** The job whose run holds the `rendering` claim: its retry (a stop handed it back) takes the claim over at once. */
    claimed_by_job: text('claimed_by_job'),
    last_error: text('last_error'),
    storage_key: text('storage_key'),
    sha256: text('sha256'),
    size: bigint('size', { mode: 'number' }),
    content_type: text('content_type'),
    /** Factur-X conformance level of the embedded XML ("EN 16931"); null for a quote (not an e-invoice). */
    facturx_profile: text('facturx_profile'),
    /** SHA-256 of the embedded factur-x.xml. */
    xml_sha256: text('xml_sha256'),
    rendered_at: timestamp('rendered_at', { withTimezone: true }),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index('document_renders_org').on(t.org_id),
    // The renders not stored yet (pending or rendering): what a sweeper or a count of the render backlog reads.
    index('document_renders_queue')
      .on(t.status, t.document_id)
      .where(sql`${t.status} in ('pending', 'rendering')`),
  ],
);
