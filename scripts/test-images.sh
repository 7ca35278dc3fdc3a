#!/usr/bin/env bash
# `npm run test:images`: builds both targets of the Dockerfile (`app`,
# `migrate`) and runs one region from them, as the rendered manifests of
# deploy/overlays/us say, against the test profile's NATS, Redis and
# PostgreSQL (test/images/). docs/deploy.md says what it proves.
#
#   npm run test:images            build (cached layers reused), then test
#   IMAGES_BUILD_ONLY=1 npm run test:images
#
# Engine: a running Docker, else podman (installed and set up when missing,
# scripts/container-engine.sh). Base: the Dockerfile's node:26-bookworm-slim
# when it is there or can be pulled, else a local stand-in
# (scripts/local-base-image.sh, with the pinned Node.js when the machine's is
# not of the line: docs/node.md); set NODE_IMAGE to choose another. Every
# image and container it makes is named formline-test-*; it removes only those.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export FORMLINE_PROFILE=test NX_NO_CLOUD=true NX_DAEMON=false
source scripts/profile.sh
source scripts/node-runtime.sh
log() { printf '[images] %s\n' "$*" >&2; }
step() { printf '\n== %s\n' "$*"; }
started=$SECONDS

scripts/ensure-deps.sh
step "container engine"
engine=$(scripts/container-engine.sh)
log "engine: $engine ($("$engine" --version))"

step "base image"
mkdir -p "$DATA_DIR/logs/images"
if [[ -z "${NODE_IMAGE:-}" ]]; then
  official=docker.io/library/$(sed -n 's/^ARG NODE_IMAGE=//p' Dockerfile)
  if "$engine" image inspect "$official" >/dev/null 2>&1; then
    NODE_IMAGE=$official
  elif timeout 120 "$engine" pull -q "$official" >/dev/null 2>"$DATA_DIR/logs/images/pull.log"; then
    NODE_IMAGE=$official
  else
    log "$official cannot be pulled here ($(tail -1 "$DATA_DIR/logs/images/pull.log" | cut -c1-160)); using a local base"
    NODE_IMAGE=$(scripts/local-base-image.sh "$engine")
  fi
fi
log "base: $NODE_IMAGE"

step "build"
# One tag per checkout, so that two checkouts on one machine never replace
# each other's images; the previous build of this checkout is removed once
# replaced (its layers stay as cache while another image uses them).
checkout=$(basename "$ROOT_DIR")
checkout=${checkout//[^a-zA-Z0-9_.-]/-}
tag=${IMAGES_TAG:-$checkout}
version=$(node -p "require('./package.json').version")
revision=$(git rev-parse HEAD 2>/dev/null || echo unknown)
if [[ -n "$(git status --porcelain 2>/dev/null)" ]]; then revision="$revision-dirty"; fi
source_url=$(git remote get-url origin 2>/dev/null || echo unknown)
build_args=(
  --build-arg "NODE_IMAGE=$NODE_IMAGE"
  --build-arg "VERSION=$version"
  --build-arg "REVISION=$revision"
  --build-arg "SOURCE=$source_url"
)
declare -A image_of
empty_context=$(mktemp -d)
infra_was_running=1
cleanup() {
  rm -rf "$empty_context"
  [[ "$infra_was_running" -gt 0 ]] || scripts/infra.sh down
}
trap cleanup EXIT
# Every stage, so that each one's size can be reported; the shared layers are
# built once and reused from the engine's cache.
for stage in deps build prod-deps migrate-deps tini runtime app migrate; do
  case "$stage" in
    app) image="localhost/formline-test-app:$tag" ;;
    migrate) image="localhost/formline-test-migrate:$tag" ;;
    *) image="localhost/formline-test-stage-$stage:$tag" ;;
  esac
  previous=$("$engine" image inspect --format '{{.Id}}' "$image" 2>/dev/null || true)
  stage_started=$SECONDS
  if ! nice -n 10 "$engine" build --target "$stage" "${build_args[@]}" -t "$image" . \
    > "$DATA_DIR/logs/images/build-$stage.log" 2>&1; then
    tail -40 "$DATA_DIR/logs/images/build-$stage.log" >&2
    log "building the $stage stage failed; the whole log: $DATA_DIR/logs/images/build-$stage.log"
    exit 1
  fi
  if [[ $stage == app || $stage == migrate ]]; then
    # The labels once more, on top of the Dockerfile's: podman 4.3 reuses a
    # cached LABEL step when only a build argument changed (and ignores --label
    # on a --target that is not the last stage), which would leave an earlier
    # revision on the image. A FROM-only build adds metadata, no layer.
    printf 'FROM %s\n' "$image" > "$DATA_DIR/logs/images/Dockerfile.labels"
    nice -n 10 "$engine" build --quiet -f "$DATA_DIR/logs/images/Dockerfile.labels" -t "$image" \
      --label "org.opencontainers.image.version=$version" \
      --label "org.opencontainers.image.revision=$revision" \
      --label "org.opencontainers.image.source=$source_url" \
      "$empty_context" > /dev/null
  fi
  current=$("$engine" image inspect --format '{{.Id}}' "$image")
  if [[ -n "$previous" && "$previous" != "$current" ]]; then
    "$engine" rmi "$previous" >/dev/null 2>&1 || true
  fi
  image_of[$stage]=$image
  log "$stage: $image built in $((SECONDS - stage_started)) s"
done

step "sizes"
printf '%-14s %10s\n' stage MB
for stage in deps build prod-deps migrate-deps tini runtime app migrate; do
  size=$("$engine" image inspect --format '{{.Size}}' "${image_of[$stage]}")
  printf '%-14s %10d\n' "$stage" $((size / 1000000))
done
printf '\nlayers of the app image:\n'
"$engine" history --format '{{.Size}}\t{{.CreatedBy}}' "${image_of[app]}" | cut -c1-110 | grep -v '^0 B'
log "built in $((SECONDS - started)) s"

[[ -n "${IMAGES_BUILD_ONLY:-}" ]] && exit 0

step "a region from the images"
# The servers are stopped at the end unless they were running before.
infra_was_running=$(scripts/infra.sh status 2>/dev/null | grep -c running || true)
status=0
CONTAINER_ENGINE=$engine FORMLINE_APP_IMAGE=${image_of[app]} FORMLINE_MIGRATE_IMAGE=${image_of[migrate]} \
  FORMLINE_IMAGE_VERSION=$version FORMLINE_IMAGE_REVISION=$revision FORMLINE_IMAGE_SOURCE=$source_url \
  node_modules/.bin/jest --ci --runInBand -c test/images/jest.config.js "$@" || status=$?
log "test:images took $((SECONDS - started)) s"
exit $status
