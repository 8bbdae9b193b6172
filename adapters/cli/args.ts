import { parseArgs } from 'node:util';
import { DEFAULT_HOST } from '../listen-host.js';
import { CliError, EXIT_USAGE } from './errors.js';
import { integer, usage } from './flags.js';
import { OPERATING_OPTIONS, type OperatingFlags, operatingFlags } from './operating-args.js';

export interface ServeCommand {
  kind: 'serve';
  port: number;
  host: string;
  /** PostgreSQL URL; when absent, PGlite in `dataDir`. */
  database?: string;
  dataDir: string;
  keysFile?: string;
  workers: number;
  /** `--rate-limit LIMIT/WINDOW_SECONDS`: per-key limit, off when absent. */
  rateLimit?: { limit: number; windowSeconds: number };
  /** Serve the API reference page at `/v1/docs` (`--no-docs` turns it off). */
  docs: boolean;
  /** `--no-prepared-statements`: name no statement on PostgreSQL (a pooler that refuses them). */
  preparedStatements?: false;
  /** `--no-session-statement-timeout`: bound creates with SET LOCAL, never the session's setting (a pooler that passes it on unkept). */
  sessionStatementTimeout?: false;
  /** `--read-replica URL` (repeatable) or PETSTORE_READ_REPLICA_URLS: read replicas of `database`. */
  readReplicas?: string[];
  /** --access-log, --metrics-port/--metrics-host, --cors-origin. */
  operating: OperatingFlags;
}

export interface MigrateCommand {
  kind: 'migrate';
  database: string;
}

export interface SnapshotCommand {
  kind: 'snapshot';
  /** Where to write the snapshot file of `petstore-router/browser`. */
  file: string;
  /** `--no-gzip`: the tarball uncompressed. */
  gzip: boolean;
}

export type Command = { kind: 'help' } | { kind: 'version' } | { kind: 'openapi' } | ServeCommand | MigrateCommand | SnapshotCommand;

export const DEFAULT_DATA_DIR = './.petstore-data';

/**
 * Parses the command line (flags win over environment variables). Throws a CliError with exit
 * code 2 for anything wrong with it.
 */
export function parseCommand(argv: readonly string[], env: NodeJS.ProcessEnv): Command {
  // Keys on the command line would show in `ps` and shell history.
  if (argv.some((arg) => /^--(?:api-?)?keys?(?:=|$)/.test(arg))) {
    throw new CliError(
      'API keys are never taken on the command line (they would show in ps and shell history): set PETSTORE_API_KEYS or use --keys-file FILE',
      EXIT_USAGE,
    );
  }
  const [command, ...rest] = argv;
  if (command === undefined) throw usage('a command is required');
  if (command === '--help' || command === '-h' || command === 'help' || rest.includes('--help') || rest.includes('-h')) {
    return { kind: 'help' };
  }
  if (command === '--version' || command === '-v') return { kind: 'version' };
  if (command === 'serve') return parseServe(rest, env);
  if (command === 'migrate') return parseMigrate(rest, env);
  if (command === 'snapshot') return parseSnapshot(rest);
  if (command === 'openapi') {
    if (rest.length > 0) throw usage(`openapi takes no arguments, got ${JSON.stringify(rest[0])}`);
    return { kind: 'openapi' };
  }
  throw usage(`unknown command ${JSON.stringify(command)}`);
}

function parseServe(args: string[], env: NodeJS.ProcessEnv): ServeCommand {
  const { values } = parse(args, {
    port: { type: 'string' },
    host: { type: 'string' },
    database: { type: 'string' },
    'data-dir': { type: 'string' },
    'keys-file': { type: 'string' },
    workers: { type: 'string' },
    'rate-limit': { type: 'string' },
    'no-docs': { type: 'boolean' },
    'no-prepared-statements': { type: 'boolean' },
    'no-session-statement-timeout': { type: 'boolean' },
    'read-replica': { type: 'string', multiple: true },
    ...OPERATING_OPTIONS,
  });
  if (values.database !== undefined && values['data-dir'] !== undefined) {
    throw usage('--database and --data-dir cannot be used together: --database serves from PostgreSQL, --data-dir from PGlite');
  }
  const port = integer('--port', values.port ?? '8080', 0, 65_535);
  const workers = integer('--workers', values.workers ?? '1', 1, 256);
  const host = values.host ?? DEFAULT_HOST;
  if (host.trim() === '') throw usage('--host needs an address');
  // An explicit --data-dir wins over DATABASE_URL from the environment.
  const database = values.database ?? (values['data-dir'] === undefined ? env.DATABASE_URL || undefined : undefined);
  if (database === '') throw usage('--database needs a URL');
  if (workers > 1 && database === undefined) {
    throw usage('--workers needs PostgreSQL (--database URL or DATABASE_URL): a PGlite data directory belongs to one process');
  }
  const docs = values['no-docs'] !== true;
  const operating = operatingFlags(values, port);
  const command: ServeCommand = { kind: 'serve', port, host, dataDir: values['data-dir'] ?? DEFAULT_DATA_DIR, workers, docs, operating };
  if (values['rate-limit'] !== undefined) command.rateLimit = rateLimit(values['rate-limit']);
  if (database !== undefined) command.database = database;
  if (values['keys-file'] !== undefined) command.keysFile = values['keys-file'];
  if (values['no-prepared-statements']) {
    if (database === undefined) throw usage('--no-prepared-statements needs PostgreSQL (--database URL or DATABASE_URL)');
    command.preparedStatements = false;
  }
  if (values['no-session-statement-timeout']) {
    if (database === undefined) throw usage('--no-session-statement-timeout needs PostgreSQL (--database URL or DATABASE_URL)');
    command.sessionStatementTimeout = false;
  }
  const replicas = readReplicas(values['read-replica'], env);
  if (replicas !== undefined) {
    if (database === undefined) throw usage('--read-replica needs PostgreSQL (--database URL or DATABASE_URL)');
    command.readReplicas = replicas;
  }
  return command;
}

function parseMigrate(args: string[], env: NodeJS.ProcessEnv): MigrateCommand {
  const { values } = parse(args, { database: { type: 'string' } });
  const database = values.database ?? (env.DATABASE_URL || undefined);
  if (!database) throw usage('migrate needs --database URL (or DATABASE_URL)');
  return { kind: 'migrate', database };
}

function parseSnapshot(args: string[]): SnapshotCommand {
  let parsed;
  try {
    parsed = parseArgs({ args, options: { 'no-gzip': { type: 'boolean' } }, strict: true, allowPositionals: true });
  } catch (error) {
    throw usage(error instanceof Error ? error.message.split('\n')[0]! : String(error));
  }
  const [file, ...extra] = parsed.positionals;
  if (file === undefined || file === '')
    throw usage('snapshot needs the file to write, e.g. petstore-router snapshot public/petstore.snapshot');
  if (extra.length > 0) throw usage(`snapshot takes one file, got also ${JSON.stringify(extra[0])}`);
  return { kind: 'snapshot', file, gzip: parsed.values['no-gzip'] !== true };
}

function parse<O extends Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>>(args: string[], options: O) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false });
  } catch (error) {
    throw usage(error instanceof Error ? error.message.split('\n')[0]! : String(error));
  }
}

/**
 * `--read-replica URL` (repeatable), else PETSTORE_READ_REPLICA_URLS (comma-separated, split only
 * before a `postgres://`, so a libpq multi-host URL's own commas stay in it); undefined for none.
 */
function readReplicas(flags: string[] | undefined, env: NodeJS.ProcessEnv): string[] | undefined {
  const urls =
    flags ?? (env.PETSTORE_READ_REPLICA_URLS ?? '').split(/,(?=\s*postgres(?:ql)?:\/\/)/).map((url) => url.replace(/^[\s,]+|[\s,]+$/g, ''));
  const given = urls.filter((url) => url !== '');
  if (flags !== undefined && given.length !== flags.length) throw usage('--read-replica needs a URL');
  return given.length === 0 ? undefined : given;
}

/** `LIMIT/WINDOW_SECONDS`, e.g. `100/60`. */
function rateLimit(text: string): { limit: number; windowSeconds: number } {
  const m = /^(\d{1,9})\/(\d{1,9})$/.exec(text);
  const limit = Number(m?.[1]);
  const windowSeconds = Number(m?.[2]);
  if (!m || limit < 1 || windowSeconds < 1) {
    throw usage(`--rate-limit must be LIMIT/WINDOW_SECONDS with both at least 1 (e.g. 100/60), got ${JSON.stringify(text)}`);
  }
  return { limit, windowSeconds };
}
