#!/usr/bin/env bash
# Makes a container engine usable and prints its name (`docker` or `podman`).
#
#   engine=$(scripts/container-engine.sh)
#
# A running Docker engine is used as it is. Otherwise podman: Debian's
# `podman`, `runc` and `debootstrap` (the last one makes the local base image,
# scripts/local-base-image.sh) are installed when missing and this runs as
# root, as scripts/infra.sh does for the servers; and the settings podman needs
# on this machine kind are written to /etc/containers/containers.conf.d/
# (docs/deploy.md, "Building and checking the images"). Every failure stops
# with a message saying what to do: never a silent skip.
set -euo pipefail

log() { printf '[images] %s\n' "$*" >&2; }
fail() { log "$*"; exit 1; }

if command -v docker >/dev/null && docker info >/dev/null 2>&1; then
  echo docker
  exit 0
fi

missing=()
command -v podman >/dev/null || missing+=(podman)
command -v runc >/dev/null || [[ -x /usr/sbin/runc ]] || missing+=(runc)
command -v debootstrap >/dev/null || [[ -x /usr/sbin/debootstrap ]] || missing+=(debootstrap)
if [[ ${#missing[@]} -gt 0 ]]; then
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
    log "installing ${missing[*]} from the OS packages"
    apt-get update -qq >/dev/null || fail "apt-get update failed: the Debian repositories must be reachable to install ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
      || fail "apt-get install ${missing[*]} failed"
  else
    fail "Missing: ${missing[*]}. Install them, e.g.: sudo apt-get install -y --no-install-recommends ${missing[*]}"
  fi
fi

# The kernel and cgroups of this machine kind refuse crun and any raise of
# the open-file and process limits, and give containers no network of their
# own: podman's defaults fail until told so. A drop-in file, so that an
# existing /etc/containers/containers.conf stays as it is; written only when
# absent or different, and said so.
conf_dir=/etc/containers/containers.conf.d
conf_file=$conf_dir/50-formline.conf
wanted='# Written by Formline'"'"'s scripts/container-engine.sh (docs/deploy.md):
# podman on a machine whose cgroups refuse crun and raised ulimits.
[containers]
default_ulimits = ["nofile=1024:1024", "nproc=1024:1024"]
netns = "host"

[engine]
runtime = "runc"'
if [[ "$(cat "$conf_file" 2>/dev/null)" != "$wanted" ]]; then
  if [[ $(id -u) -ne 0 ]]; then
    fail "podman needs $conf_file with these settings (write it as root):
$wanted"
  fi
  mkdir -p "$conf_dir"
  printf '%s\n' "$wanted" > "$conf_file"
  log "wrote $conf_file (machine-wide podman settings: runc, host network, ulimits 1024)"
fi

# Prove it runs something before anyone waits for a build.
if ! out=$(podman info --format '{{.Host.OCIRuntime.Name}}' 2>&1); then
  fail "podman does not work here: $out"
fi
[[ "$out" == runc ]] || fail "podman runs with '$out', not runc: does a later file in $conf_dir override $conf_file?"
echo podman
