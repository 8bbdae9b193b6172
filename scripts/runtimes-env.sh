# Sourced by scripts/install-runtimes.sh and scripts/run-examples.sh: where the extra runtimes
# live and where their caches go (inside the project, never the home directory).
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export RUNTIMES_DIR="$root/.cache/runtimes"
export DENO="$RUNTIMES_DIR/node_modules/.bin/deno"
export BUN="$RUNTIMES_DIR/node_modules/.bin/bun"
# Not .bin/node: npm links it only when the package's preinstall script ran.
export NODE24="$RUNTIMES_DIR/node_modules/node/bin/node"
export DENO_DIR="$root/.cache/deno"
export BUN_INSTALL_CACHE_DIR="$root/.cache/bun/install"
export BUN_RUNTIME_TRANSPILER_CACHE_PATH="$root/.cache/bun/transpiler"
# Versions checked on these machines; override to try others.
: "${DENO_VERSION:=2.9.6}" "${BUN_VERSION:=1.4.5}" "${NODE24_VERSION:=24.21.0}"
