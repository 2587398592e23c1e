import { createHash } from 'node:crypto';
import pg from 'pg';
import { tracedClientQuery } from './traced-sql';

/** Statement texts a connection keeps prepared; past that, new texts run unnamed (parsed at each execution). */
const PREPARED_PER_CONNECTION = 500;

/**
 * A node-postgres client that runs each parameterized statement as a named prepared statement of its connection, named
 * after its text: PostgreSQL then parses and plans a statement text once per connection instead of at every execution.
 * Measured on a row lookup by key (docs/foundation.md): 0.13 → 0.05 ms of PostgreSQL's CPU per statement. Drizzle builds
 * the same text for the same query shape, so a connection holds a few hundred at most; a text that varies with its
 * data (a multi-row insert, an IN list) would not, hence the bound.
 */
export class NamedStatementClient extends pg.Client {
  private readonly prepared = new Set<string>();

  // biome-ignore lint/suspicious/noExplicitAny: node-postgres' query() has a dozen overloads; this forwards them all.
  override query(config: any, values?: any, callback?: any): any {
    // Each statement in a span (db/traced-sql.ts).
    return tracedClientQuery(config, values, callback, (c, v, cb) => this.namedQuery(c, v, cb));
  }

  // biome-ignore lint/suspicious/noExplicitAny: as query() above.
  private namedQuery(config: any, values?: any, callback?: any): any {
    const text: unknown = typeof config === 'string' ? config : config?.text;
    const params = Array.isArray(values) ? values : config?.values;
    // Submittables (cursors, COPY streams), already named statements and statements without parameters as they were.
    if (typeof text !== 'string' || !params?.length || (typeof config === 'object' && (config.name || typeof config.submit === 'function'))) {
      return super.query(config, values, callback);
    }
    const name = `p_${createHash('sha1').update(text).digest('base64url')}`;
    if (!this.prepared.has(name)) {
      if (this.prepared.size >= PREPARED_PER_CONNECTION) return super.query(config, values, callback);
      this.prepared.add(name);
    }
    return super.query(typeof config === 'string' ? { text, name } : { ...config, name }, values, callback);
  }
}
