export async function register() {
  // Node server only; never during `next build`, which must not open the database the app holds.
  if (process.env.NEXT_RUNTIME !== 'nodejs' || process.env.NEXT_PHASE === 'phase-production-build') return;
  const { boot } = await import('./lib/composition/boot');
  await boot();
}
