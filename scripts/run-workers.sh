#!/usr/bin/env bash
# The Cloudflare Workers example (examples/cloudflare) under `wrangler dev` (local mode: workerd on
# this machine, Hyperdrive pointed at DATABASE_URL), with the behavioural suite over HTTP against it
# (test/workers). wrangler 4 needs Node >= 22: both come from npm into .cache/wrangler (gitignored),
# not devDependencies, so `npm install` of the project never downloads them.
# Needs DATABASE_URL (migrated here first with `petstore-router migrate`). SKIP_BUILD=1: dist/ is fresh.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
: "${DATABASE_URL:?DATABASE_URL must name the PostgreSQL database the Worker uses}"
: "${WRANGLER_VERSION:=4.164.0}" "${NODE22_VERSION:=22.23.3}"
dir="$root/.cache/wrangler"
node22="$dir/node_modules/node/bin/node"
wrangler="$dir/node_modules/wrangler/bin/wrangler.js"

want="wrangler@$WRANGLER_VERSION node@$NODE22_VERSION"
if [ "$(cat "$dir/.installed" 2>/dev/null)" != "$want" ]; then
  mkdir -p "$dir"
  cat >"$dir/package.json" <<JSON
{ "name": "petstore-router-wrangler", "private": true,
  "dependencies": { "wrangler": "$WRANGLER_VERSION", "node": "$NODE22_VERSION" } }
JSON
  echo "installing $want into $dir" >&2
  npm install --prefix "$dir" --no-package-lock --no-audit --no-fund --loglevel=error >&2 || exit 1
  if ! "$node22" --version >/dev/null 2>&1; then
    (cd "$dir/node_modules/node" && node installArchSpecificPackage.js) >&2 || exit 1
  fi
  echo "$want" >"$dir/.installed"
fi
echo "node $("$node22" --version), wrangler $("$node22" "$wrangler" --version | tail -1)"

if [ "${SKIP_BUILD:-}" != 1 ]; then npm run build --silent >/dev/null 2>&1 || { echo "npm run build failed"; exit 1; }; fi
node dist/cli.js migrate --database "$DATABASE_URL" || exit 1

port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
log=$(mktemp)
# wrangler's own state and settings stay in the project's cache; no telemetry, no prompts.
export XDG_CONFIG_HOME="$dir/config" WRANGLER_SEND_METRICS=false CI=true
export CLOUDFLARE_HYPERDRIVE_LOCAL_CONNECTION_STRING_HYPERDRIVE="$DATABASE_URL"
(
  cd examples/cloudflare &&
    PATH="$(dirname "$node22"):$PATH" exec setsid "$node22" "$wrangler" dev --ip 127.0.0.1 --port "$port" \
      --persist-to "$dir/state" --var PETSTORE_API_KEYS:test-key-0123456789 --show-interactive-dev-session=false
) </dev/null >"$log" 2>&1 &
pid=$!
stop() { kill -- "-$pid" 2>/dev/null || kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; }
trap stop EXIT
for _ in $(seq 1 120); do
  grep -q 'Ready on' "$log" && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 1
done
if ! grep -q 'Ready on' "$log"; then
  echo "wrangler dev did not start:" >&2
  cat "$log" >&2
  exit 1
fi
echo "wrangler dev ready on 127.0.0.1:$port"
WORKER_URL="http://127.0.0.1:$port" node --import tsx scripts/uvu-strict.ts -r tsx test/workers -c false
rc=$?
[ $rc -eq 0 ] || { echo "--- wrangler dev log (tail)"; grep -v "^\[wrangler:info\]" "$log" | tail -n 60; }
exit $rc
