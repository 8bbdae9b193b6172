#!/usr/bin/env bash
# The docs/operations.md walkthrough: every command it shows, run against the built CLI (npm run
# build) on PostgreSQL ($DATABASE_URL), printed with its real output. Files go to /tmp/ops; ports
# 18480, 18481, 19464 and 15432 must be free. Usage: DATABASE_URL=postgres://… scripts/operations/walk.sh
set -u
cd "$(dirname "$0")/../.."
: "${DATABASE_URL:?set DATABASE_URL to a PostgreSQL database}"
OUTAGE_URL=$(node -e 'const u = new URL(process.argv[1]); u.host = "127.0.0.1:15432"; console.log(u.href)' "$DATABASE_URL")
run() { echo "\$ $*"; eval "$@" 2>&1; echo; }
mkdir -p /tmp/ops/etc; rm -f /tmp/ops/access.log /tmp/ops/server.err
printf '# API keys, one per line\nkey-2026-11-a\n' > /tmp/ops/etc/keys.txt
run 'node dist/cli.js migrate --database "$DATABASE_URL"'
echo '$ node dist/cli.js serve --host 127.0.0.1 --port 18480 --workers 2 --keys-file /tmp/ops/etc/keys.txt --access-log --metrics-port 19464 --cors-origin https://app.example >/tmp/ops/access.log 2>/tmp/ops/server.err &'
node dist/cli.js serve --host 127.0.0.1 --port 18480 --workers 2 --keys-file /tmp/ops/etc/keys.txt --access-log --metrics-port 19464 --cors-origin https://app.example >/tmp/ops/access.log 2>/tmp/ops/server.err &
PID=$!
for i in $(seq 1 100); do grep -q listening /tmp/ops/access.log 2>/dev/null && break; sleep 0.2; done
echo
run 'head -n 1 /tmp/ops/access.log; cat /tmp/ops/server.err'
echo "=== probes"
run 'curl -si http://127.0.0.1:18480/v1/health'
run 'curl -sI http://127.0.0.1:18480/v1/health | head -n 1'
echo "=== requests"
run "curl -s -H 'Authorization: Bearer key-2026-11-a' -H 'Content-Type: application/json' -d '{\"name\":\"Rex\",\"categoryId\":1}' http://127.0.0.1:18480/v1/pets"
run "curl -si -H 'Authorization: Bearer key-2026-11-a' -H 'X-Request-Id: deploy-check-1' -H 'traceparent: 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' http://127.0.0.1:18480/v1/pets/1 | grep -iE '^(HTTP|x-request-id|deprecation|sunset)'"
run "curl -si http://127.0.0.1:18480/v1/pets | grep -iE '^(HTTP|x-request-id)'"
echo "=== cors"
run "curl -si -X OPTIONS -H 'Origin: https://app.example' -H 'Access-Control-Request-Method: POST' -H 'Access-Control-Request-Headers: authorization,content-type' http://127.0.0.1:18480/v1/pets | grep -iE '^(HTTP|access-control|vary)'"
run "curl -si -H 'Origin: https://app.example' http://127.0.0.1:18480/v1/pets | grep -iE '^(HTTP|access-control|vary)'"
run "curl -si -X OPTIONS -H 'Origin: https://evil.example' -H 'Access-Control-Request-Method: POST' http://127.0.0.1:18480/v1/pets | grep -iE '^(HTTP|access-control)'"
sleep 0.3
echo "=== logs"
run "grep deploy-check-1 /tmp/ops/access.log | jq ."
run "tail -n +2 /tmp/ops/access.log | jq -c '{pid, status, route, keyId}' | sort | uniq -c"
echo "=== metrics"
run "curl -s http://127.0.0.1:19464/metrics | grep -E '^(http_server_request_duration_seconds_count|petstore_deprecated_requests_total)\{'"
run "curl -s http://127.0.0.1:19464/metrics | grep -E '^(process_resident_memory_bytes|process_cpu_seconds_total) '"
echo "=== key rotation"
run "printf 'key-2026-11-a\nkey-2026-12-b\n' > /tmp/ops/etc/keys.txt && kill -HUP $PID && sleep 0.5 && tail -n 1 /tmp/ops/server.err"
run "curl -s -o /dev/null -w '%{http_code}\n' -H 'Authorization: Bearer key-2026-12-b' http://127.0.0.1:18480/v1/pets"
run "node --input-type=module -e \"import { keyId } from './dist/index.js'; console.log(keyId('key-2026-11-a'), keyId('key-2026-12-b'))\""
run "grep -c '\"keyId\":\"ce5416c02960\"' /tmp/ops/access.log"
run "printf 'key-2026-12-b\n' > /tmp/ops/etc/keys.txt && kill -HUP $PID && sleep 0.5 && tail -n 1 /tmp/ops/server.err"
run "curl -s -o /dev/null -w '%{http_code}\n' -H 'Authorization: Bearer key-2026-11-a' http://127.0.0.1:18480/v1/pets"
run ": > /tmp/ops/etc/keys.txt && kill -HUP $PID && sleep 0.5 && tail -n 1 /tmp/ops/server.err"
run "curl -s -o /dev/null -w '%{http_code}\n' -H 'Authorization: Bearer key-2026-12-b' http://127.0.0.1:18480/v1/pets"
echo "=== SIGTERM"
run "node scripts/operations/probe-during-drain.mjs 18480 $PID"
run "wait $PID; echo exit \$?"
run 'curl -s -o /dev/null -w "%{http_code}\n" http://127.0.0.1:18480/v1/health'
echo "=== database outage"
run 'node scripts/operations/proxy.mjs 15432 & sleep 0.5'
PROXY=$!
echo '$ node dist/cli.js serve --port 18481 --database "$OUTAGE_URL" >/tmp/ops/out2.log 2>&1 &   # PostgreSQL through the proxy'
node dist/cli.js serve --port 18481 --database "$OUTAGE_URL" >/tmp/ops/out2.log 2>&1 &
PID2=$!
for i in $(seq 1 100); do grep -q listening /tmp/ops/out2.log 2>/dev/null && break; sleep 0.2; done
echo
run 'curl -s http://127.0.0.1:18481/v1/health; echo'
run "kill $PROXY; sleep 0.3"
run 'curl -si http://127.0.0.1:18481/v1/health | grep -vE "^(Date|Connection|Keep-Alive|content-length)"'
run 'node scripts/operations/proxy.mjs 15432 & sleep 1'
PROXY=$!
run 'curl -s -o /dev/null -w "%{http_code}\n" http://127.0.0.1:18481/v1/health'
kill -TERM $PID2; wait $PID2; kill $PROXY
