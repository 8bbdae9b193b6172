export const USAGE = `Usage:
  petstore-router serve [--port 8080] [--host 127.0.0.1] [--database URL | --data-dir DIR]
                        [--keys-file FILE] [--workers N] [--rate-limit LIMIT/SECONDS] [--no-docs]
                        [--no-prepared-statements] [--no-session-statement-timeout]
                        [--read-replica URL ...] [--access-log]
                        [--metrics-port P [--metrics-host H]] [--cors-origin ORIGIN ...]
                        [--max-in-flight N] [--db-max-wait-ms MS] [--server-timing] [--otel]
  petstore-router migrate --database URL
  petstore-router openapi > openapi.json
  petstore-router snapshot FILE [--no-gzip]
  petstore-router --help | --version

serve     Serves the pet store API at http://HOST:PORT/v1 until SIGTERM or SIGINT, then
          finishes in-flight requests (at most 10 s) and exits 0; /v1/health answers 503 from
          the signal on. SIGHUP re-reads --keys-file (an unreadable or empty file keeps the keys).
migrate   Applies the database migrations to PostgreSQL and exits (serve also does this).
openapi   Prints the OpenAPI 3.1 document of the API (JSON) on stdout.
snapshot  Writes the pre-migrated PGlite snapshot that createBrowserStore({ snapshot }) of
          petstore-router/browser loads, for this release and the installed PGlite, gzipped
          (about 4.5 MB; --no-gzip: 30 to 40 MB). Serve FILE as a static asset.

Options:
  --port N          port to listen on, 0 for any free port (default 8080)
  --host HOST       address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)
  --database URL    PostgreSQL connection URL (default: the DATABASE_URL environment variable);
                    libpq multi-host form too: postgres://u:p@h1,h2,h3/db?target_session_attrs=read-write
  --data-dir DIR    embedded PGlite data directory, locked against a second process
                    (default ./.petstore-data; used when no database URL is given)
  --keys-file FILE  API keys, one per line; blank lines and lines starting with # are ignored
  --workers N       N worker processes sharing the port (PostgreSQL only)
  --rate-limit L/S  at most L requests per API key per S seconds, counted in the database
                    (shared by every process on it); e.g. 100/60. Off by default
  --no-docs         do not serve the API reference page at /v1/docs (served by default)
  --no-prepared-statements
                    name no statement on PostgreSQL: for a transaction-mode pooler known to
                    refuse named statements (without it, naming stops at the first refusal)
  --no-session-statement-timeout
                    bound each create with SET LOCAL statement_timeout, never as a startup
                    parameter: for a pooler that passes it on without keeping it per client
  --read-replica URL
                    a streaming replica of the database to read from (repeatable; default: the
                    comma-separated PETSTORE_READ_REPLICA_URLS). Reads run on a replica only
                    once it has replayed every write answered before them, else on the database.
                    A multi-host URL (?target_session_attrs=standby) reads from every standby in it
  --access-log      one JSON line per finished request on stdout (pino field names)
  --metrics-port P  Prometheus metrics at http://H:P/metrics, on a listener of its own (no key)
  --metrics-host H  address of the metrics listener (default 127.0.0.1)
  --cors-origin O   let browser pages on origin O call the API (repeatable; '*' for any origin)
  --max-in-flight N at most N requests at work at once per process (counted once the body is
                    in); N more wait up to 1 s, then 503 overloaded + Retry-After (/v1/health
                    never). Default 4 per pool connection, at least 32 (PostgreSQL: 40, PGlite:
                    32); 0 turns load shedding off
  --db-max-wait-ms MS
                    the longest a request waits on PostgreSQL for a connection or a statement
                    before 503 (default 5000); a stuck connection is dropped
  --server-timing   Server-Timing: db;dur=..., total;dur=... on every answer
  --otel            OpenTelemetry traces and metrics over OTLP/HTTP, set by the OTEL_* variables
                    (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL=http/json, ...)

API keys come from --keys-file or PETSTORE_API_KEYS (comma-separated), never from the command
line. With neither, serve generates a key, keeps it in the data directory
(petstore-router.api-key, mode 0600; with --database: for this run only) and prints it on
stderr at every start.
Flags win over environment variables.

Exit codes: 0 success, 1 failure (database unreachable, data directory in use, port taken),
2 usage error.`;
