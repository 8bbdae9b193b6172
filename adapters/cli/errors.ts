/** Exit codes of the CLI: 0 success, 1 a runtime failure, 2 a usage error (the command line is wrong). */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** A failure the CLI reports as one line on stderr (no stack) before exiting with `exitCode`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT_FAILURE,
  ) {
    super(message);
  }
}

/** The innermost message of an error's cause chain, on one line (driver errors nest). */
export function describe(error: unknown): string {
  let e = error;
  for (let depth = 0; depth < 5 && e instanceof Error && e.cause instanceof Error; depth++) e = e.cause;
  const message = e instanceof Error ? e.message || e.name : String(e);
  return message.replace(/\s*\n\s*/g, ' ');
}
