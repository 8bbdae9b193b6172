/** Resolves with the first SIGTERM or SIGINT; later ones are ignored (shutdown is bounded anyway). */
export function nextShutdownSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      process.on('SIGTERM', ignore).on('SIGINT', ignore);
      process.off('SIGTERM', onSignal).off('SIGINT', onSignal);
      resolve(signal);
    };
    process.on('SIGTERM', onSignal).on('SIGINT', onSignal);
  });
}

function ignore(): void {}

/** Exits with `code` if `ms` pass first: shutdown must never hang. */
export function exitAfter(ms: number, code: number): NodeJS.Timeout {
  const timer = setTimeout(() => {
    process.stderr.write('petstore-router: shutdown took too long, exiting\n');
    process.exit(code);
  }, ms);
  timer.unref();
  return timer;
}
