export async function register() {
  // Node server only; never during `next build`, which must not open the database the app holds.
  if (process.env.NEXT_RUNTIME !== 'nodejs' || process.env.NEXT_PHASE === 'phase-production-build') return;
  // A bad environment ends `next start` here, with one line per variable and its fix (an error thrown from this hook
  // would leave a server answering 500 to every request).
  const { exitOnStartProblems } = await import('./lib/composition/config-check');
  exitOnStartProblems();
  const { boot } = await import('./lib/composition/boot');
  try {
    await boot();
  } catch (error) {
    // In production a start that fails (the database unreachable, the sandbox tasks not built…) ends the process too,
    // for its supervisor to see and restart; `npm run dev` keeps the error on its page.
    if (process.env.NODE_ENV !== 'production') throw error;
    console.error('[paraphe] the server could not start:', error);
    process.exit(1);
  }
}
