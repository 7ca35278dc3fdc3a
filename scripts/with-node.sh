#!/usr/bin/env bash
# Runs a command on the product's Node.js line (scripts/node-runtime.sh: the
# machine's node when it is of that line, else the pinned one), for the
# package.json scripts that run a tool directly:
#
#   bash scripts/with-node.sh node tools/build.mjs
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/node-runtime.sh"
exec "$@"
