#!/usr/bin/env bash
# `npm run test:node24`: the tests where Node versions differ, on Node 24 (CI runs the whole suite
# on Node 22, the oldest `engines` allows). Chosen to keep CI under its time budget: the
# behavioural suite on every transport and database (PGlite, the Node bridge over a socket,
# PostgreSQL, PgBouncer), the Node bridge and HTTP parsing, request bodies and JSON, hashing, the
# CLI, Express, the docs page and the test stores. Left out: tests of pure functions and of files
# (layering, links, OpenAPI, cursors, SQL texts), which no runtime version changes.
set -euo pipefail
cd "$(dirname "$0")/.."
pattern='(behaviour\.|hostile|node|request-body|json|sha256|cli\.|cli-|express|docs\.test|testing|test-stores|idempotency)'
exec bash scripts/with-node.sh 24 node --import tsx scripts/uvu-strict.ts -r tsx test "$pattern" \
  -i helpers -i bench -i reliability -i failover -i package -c false
