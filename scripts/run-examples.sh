#!/usr/bin/env bash
# Runs every example under its real runtime with EXAMPLE_SELF_TEST=1 (each answers an
# authenticated request to itself, then exits 0 or 1): Node 22 and Node 24 (scripts/install-runtimes.sh)
# through tsx on the source, Deno and Bun on the built package (dist/). One line per run, then
# "examples: N passed, N failed, N skipped"; exits non-zero on any failure.
# Options (environment): SKIP_BUILD=1 (dist/ is fresh), ONLY=<substring of "runtime example">.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/runtimes-env.sh
bash scripts/install-runtimes.sh || { echo "examples: could not install the runtimes"; exit 1; }
if [ "${SKIP_BUILD:-}" != 1 ]; then
  npm run build --silent >/dev/null 2>&1 || { echo "examples: npm run build failed"; exit 1; }
fi

export EXAMPLE_SELF_TEST=1 PORT=0 PETSTORE_API_KEY="example-$RANDOM$RANDOM"
export PETSTORE_API_KEYS="$PETSTORE_API_KEY"
logdir=$(mktemp -d)
passed=0 failed=0 skipped=0

run() {
  local runtime=$1 example=$2
  shift 2
  if [ -n "${ONLY:-}" ] && [[ "$runtime $example" != *"$ONLY"* ]]; then return; fi
  local log="$logdir/$runtime-$example.log" start=$SECONDS rc
  timeout 180 "$@" </dev/null >"$log" 2>&1
  rc=$?
  local took=$((SECONDS - start))s
  if [ $rc -eq 0 ] && grep -q '^skipped:' "$log"; then
    skipped=$((skipped + 1))
    printf 'skip  %-7s %-20s %s\n' "$runtime" "$example" "$(grep -m1 '^skipped:' "$log")"
  elif [ $rc -eq 0 ]; then
    passed=$((passed + 1))
    printf 'ok    %-7s %-20s %5s  %s\n' "$runtime" "$example" "$took" "$(grep -m1 '^self-test' "$log" | cut -c1-100)"
  else
    failed=$((failed + 1))
    printf 'FAIL  %-7s %-20s %5s  exit %s\n' "$runtime" "$example" "$took" "$rc"
    tail -n 30 "$log" | sed 's/^/      | /'
  fi
}

node_examples=(node express fastify hono next-route-handler postgres)
for example in "${node_examples[@]}"; do
  run node22 "$example" "$NODE22" --import tsx "examples/$example/main.ts"
  run node24 "$example" "$NODE24" --import tsx "examples/$example/main.ts"
done
# The test-runner examples (docs/testing.md): a fresh store per test, concurrent where the runner can.
run node22 testing-node-test "$NODE22" --import tsx --test examples/testing/store.test.ts
run node22 testing-vitest "$NODE22" node_modules/vitest/vitest.mjs run examples/testing/vitest.test.ts
run node22 testing-uvu "$NODE22" --import tsx examples/testing/uvu.test.ts
# Deno with the permissions docs/deno-bun.md gives (no --allow-write), on a cold snapshot cache it may
# not create: a cache it cannot write must not stop it (issue 38).
run deno deno env PETSTORE_SNAPSHOT_CACHE="$logdir/cold-cache" "$DENO" run --allow-env --allow-net --allow-read --allow-sys examples/deno/main.ts
run bun bun "$BUN" examples/bun/main.ts

rm -rf "$logdir"
echo "examples: $passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
