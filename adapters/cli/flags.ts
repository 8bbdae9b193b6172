import { CliError, EXIT_USAGE } from './errors.js';

/** A usage error: the message and a pointer to --help. */
export function usage(message: string): CliError {
  return new CliError(`${message} (see petstore-router --help)`, EXIT_USAGE);
}

/** A flag's integer value from `min` to `max`, else a usage error naming the flag. */
export function integer(flag: string, text: string, min: number, max: number): number {
  const value = /^\d{1,6}$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= min && value <= max)) throw usage(`${flag} must be an integer from ${min} to ${max}, got ${JSON.stringify(text)}`);
  return value;
}
