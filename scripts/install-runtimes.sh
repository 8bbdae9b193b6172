#!/usr/bin/env bash
# Installs Deno, Bun, Node 22 and Node 24 from their npm packages into .cache/runtimes (gitignored),
# for .ci/run (which runs everything on Node 22), scripts/run-examples.sh and `npm run test:node24`.
# Not devDependencies: `npm install` of the project never downloads them. Idempotent: a second
# run with the same versions does nothing.
set -euo pipefail
source "$(dirname "$0")/runtimes-env.sh"

want="deno@$DENO_VERSION bun@$BUN_VERSION node@$NODE22_VERSION node@$NODE24_VERSION"
if [ "$(cat "$RUNTIMES_DIR/.installed" 2>/dev/null)" = "$want" ]; then exit 0; fi

mkdir -p "$RUNTIMES_DIR"
# A package.json of its own (so npm never walks up to the project's) listing the runtimes.
cat > "$RUNTIMES_DIR/package.json" <<JSON
{ "name": "petstore-router-runtimes", "private": true,
  "dependencies": { "deno": "$DENO_VERSION", "bun": "$BUN_VERSION",
    "node22": "npm:$NODE_PLATFORM_PACKAGE@$NODE22_VERSION", "node24": "npm:$NODE_PLATFORM_PACKAGE@$NODE24_VERSION" } }
JSON
echo "installing $want into $RUNTIMES_DIR" >&2
npm install --prefix "$RUNTIMES_DIR" --no-package-lock --no-audit --no-fund --loglevel=error >&2

# npm may skip install scripts it was not told to allow; each package's binary then comes from
# its platform package via the same script, run here by hand.
ensure() {
  local bin=$1 dir=$2 script=$3
  if ! "$bin" --version >/dev/null 2>&1; then
    echo "running $dir's install script by hand" >&2
    (cd "$RUNTIMES_DIR/node_modules/$dir" && node "$script") >&2
  fi
  echo "$dir: $("$bin" --version | head -1)" >&2
}
ensure "$DENO" deno install.cjs
ensure "$BUN" bun install.js
for node in "$NODE22" "$NODE24"; do echo "node: $("$node" --version)" >&2; done
echo "$want" > "$RUNTIMES_DIR/.installed"
