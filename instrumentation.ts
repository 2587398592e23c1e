export async function register() {
  // Node server only; never during `next build`, which must not open the database the app holds.
  if (process.env.NEXT_RUNTIME !== 'nodejs' || process.env.NEXT_PHASE === 'phase-production-build') return;
  // A bad environment ends `next start` here, with one line per variable and its fix (an error thrown from this hook
  // would leave a server answering 500 to every request).
  const { exitOnStartProblems } = await import('./lib/composition/config-check');
  exitOnStartProblems();
  // Traces and metrics, when OTEL_EXPORTER_OTLP_ENDPOINT is set: before anything is traced (lib/platform/telemetry).
  const { startTelemetry } = await import('./lib/platform/telemetry');
  const { otlpEndpoint } = await import('./lib/platform/config');
  await startTelemetry({ serviceName: 'paraphe', endpoint: otlpEndpoint() });
  const { boot } = await import('./lib/composition/boot');
  try {
    await boot();
  } catch (error) {
    // In production a start that fails (the database unreachable, the sandbox tasks not built…) ends the process too,
    // for its supervisor to see and restart; `npm run dev` keeps the error on its page.
    if (process.env.NODE_ENV !== 'production') throw error;
    const { log } = await import('./lib/platform/log');
    log.fatal(error, 'the server could not start');
    process.exit(1);
  }
  // SIGTERM/SIGINT: stop taking jobs and connections, finish or hand back within SHUTDOWN_GRACE_SECONDS, exit 0
  // (lib/composition/shutdown.ts; `npm start` sets NEXT_MANUAL_SIG_HANDLE so that next's own handler stands aside).
  const { installGracefulStop } = await import('./lib/composition/shutdown');
  installGracefulStop({ server: true });
}
