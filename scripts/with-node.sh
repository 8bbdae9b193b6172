#!/usr/bin/env bash
# Runs a command with Node 22 or 24 (from scripts/install-runtimes.sh) first on PATH, so `node`,
# `npm` and `npx` inside it run on that version: `bash scripts/with-node.sh 24 npm test`.
# The package supports Node >= 22 (package.json `engines`); CI runs on both.
set -euo pipefail
source "$(dirname "$0")/runtimes-env.sh"
bash "$(dirname "$0")/install-runtimes.sh"
case "${1:-}" in
  22) node_bin=$NODE22 ;;
  24) node_bin=$NODE24 ;;
  *) echo "usage: with-node.sh 22|24 COMMAND..." >&2; exit 2 ;;
esac
shift
PATH="$(dirname "$node_bin"):$PATH"
export PATH
echo "node $(node --version)" >&2
exec "$@"
