# Sourced by scripts/install-runtimes.sh and scripts/run-examples.sh: where the extra runtimes
# live and where their caches go (inside the project, never the home directory).
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export RUNTIMES_DIR="$root/.cache/runtimes"
export DENO="$RUNTIMES_DIR/node_modules/.bin/deno"
export BUN="$RUNTIMES_DIR/node_modules/.bin/bun"
# Node 22 and 24 from their platform packages (node-<os>-<arch>: the binary itself, no install
# script), installed under the aliases node22 and node24.
export NODE22="$RUNTIMES_DIR/node_modules/node22/bin/node"
export NODE24="$RUNTIMES_DIR/node_modules/node24/bin/node"
export NODE_PLATFORM_PACKAGE="node-$(uname -s | tr 'A-Z' 'a-z')-$(uname -m | sed 's/x86_64/x64/; s/aarch64/arm64/')"
export DENO_DIR="$root/.cache/deno"
export BUN_INSTALL_CACHE_DIR="$root/.cache/bun/install"
export BUN_RUNTIME_TRANSPILER_CACHE_PATH="$root/.cache/bun/transpiler"
# Versions checked on these machines; override to try others.
: "${DENO_VERSION:=2.9.6}" "${BUN_VERSION:=1.4.5}" "${NODE22_VERSION:=22.23.3}" "${NODE24_VERSION:=24.21.0}"
