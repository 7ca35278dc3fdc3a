#!/usr/bin/env bash
# Makes, or finds cached, a local stand-in for the Dockerfile's base
# (`node:26-bookworm-slim`) and prints its name, for machines that cannot pull
# from a registry:
#
#   base=$(scripts/local-base-image.sh podman)
#   podman build --build-arg NODE_IMAGE="$base" ...
#
# Debian bookworm (debootstrap --variant=minbase, with libatomic1 that Node's
# Linux builds link to, as the official image installs it), the `node` that
# scripts/node-runtime.sh chooses (the machine's own when it is of the
# product's line, else the pinned build from tools/node-runtime) and the
# machine's `npm`, a `node` user with uid 1000 as in the official image, and
# this machine's CA bundle so that npm and Node inside a build reach the
# registry through whatever TLS setup the machine has. The tag carries a digest
# of that Node, npm, CA bundle and this script: a change of any rebuilds it,
# otherwise the image built by an earlier run is reused.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/node-runtime.sh"
engine=${1:?usage: scripts/local-base-image.sh docker|podman}
log() { printf '[images] %s\n' "$*" >&2; }
fail() { log "$*"; exit 1; }

node_bin=$(readlink -f "$(command -v node)")
npm_dir=$(cd "$(dirname "$(readlink -f "$(command -v npm)")")/.." && pwd)
[[ -f "$npm_dir/package.json" ]] || fail "npm's package folder not found (looked at $npm_dir)"
ca_bundle=${CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}
[[ -f "$ca_bundle" ]] || fail "no CA bundle at $ca_bundle (set CA_BUNDLE)"
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

node_version=$("$node_bin" --version)
digest=$(
  {
    # Contents only, not paths: every checkout (a clean clone's pinned Node
    # lives in its own folder) finds the image an earlier one made.
    cat "$node_bin" "$ca_bundle" "${BASH_SOURCE[0]}" | sha256sum
    "$node_bin" -p "require('$npm_dir/package.json').version"
    echo "$mirror"
  } | sha256sum | cut -c1-12
)
image="localhost/formline-test-base:node-${node_version#v}-$digest"

if "$engine" image inspect "$image" >/dev/null 2>&1; then
  log "local base image $image (cached)"
  echo "$image"
  exit 0
fi

[[ $(id -u) -eq 0 ]] || fail "making the local base image needs root (debootstrap, chroot)"
command -v debootstrap >/dev/null || [[ -x /usr/sbin/debootstrap ]] || fail "debootstrap is missing: apt-get install debootstrap"
export PATH="$PATH:/usr/sbin:/sbin"

work=$(mktemp -d /var/tmp/formline-test-base.XXXXXX)
trap 'rm -rf "$work"' EXIT
rootfs=$work/rootfs
log "making the local base image $image: debootstrap bookworm from $mirror"
if ! nice -n 5 debootstrap --variant=minbase --include=libatomic1 bookworm "$rootfs" "$mirror" > "$work/debootstrap.log" 2>&1; then
  tail -20 "$work/debootstrap.log" >&2
  fail "debootstrap failed (the Debian mirror $mirror must be reachable; DEBIAN_MIRROR moves it)"
fi

# Node and npm where the official image has them.
install -m 0755 "$node_bin" "$rootfs/usr/local/bin/node"
mkdir -p "$rootfs/usr/local/lib/node_modules"
cp -a "$npm_dir" "$rootfs/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
mkdir -p "$rootfs/etc/ssl/certs"
install -m 0644 "$ca_bundle" "$rootfs/etc/ssl/certs/ca-certificates.crt"
chroot "$rootfs" groupadd --gid 1000 node
chroot "$rootfs" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
[[ "$(chroot "$rootfs" node --version)" == "$node_version" ]] || fail "$node_bin does not run inside bookworm"

# As the official image: no package lists, caches or docs left behind.
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb \
  "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/var/log/*.log

tar -C "$rootfs" --numeric-owner -cf "$work/rootfs.tar" .
"$engine" import --quiet \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' \
  --change 'ENV NPM_CONFIG_CAFILE=/etc/ssl/certs/ca-certificates.crt' \
  --change "ENV NODE_VERSION=${node_version#v}" \
  --change 'CMD ["node"]' \
  "$work/rootfs.tar" "$image" > /dev/null || fail "$engine import failed"
log "local base image $image made"
# Earlier versions of it (another Node) are this script's own: drop them.
"$engine" images --format '{{.Repository}}:{{.Tag}}' \
  | grep '^localhost/formline-test-base:' | grep -vxF "$image" \
  | xargs -r "$engine" rmi > /dev/null 2>&1 || true
echo "$image"
