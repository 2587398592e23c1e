import { defineConfig } from 'drizzle-kit';

// Generation only reads the schema; migrations run through db/migrate.ts on either engine.
export default defineConfig({
  dialect: 'postgresql',
  schema: './db/schema/index.ts',
  out: './db/migrations',
});
