import { openDatabase } from '@/db/client';

/** Migrates the PostgreSQL test database once before the workers start, so they do not race to. */
export default async function setup() {
  if (!process.env.DATABASE_URL) return;
  const database = await openDatabase();
  await database.close();
}
