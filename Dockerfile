# Formline's container images, built from the repository root (see docs/deploy.md):
#
#   docker build --target app     -t REGISTRY/formline:TAG .
#   docker build --target migrate -t REGISTRY/formline-migrate:TAG .
#
# with --build-arg VERSION=TAG --build-arg REVISION=$(git rev-parse HEAD)
# --build-arg SOURCE=<repository URL> for the OCI labels. `npm run test:images`
# builds both and runs a region from them (docs/deploy.md).
#
# `app` runs any of the six apps, chosen at run time by the first argument or
# `APP` (gateway, global, responses, webhooks, dispatcher, media). `migrate` runs the
# database migrations (`migrate <global|responses|webhooks>`) in the Kubernetes
# Jobs: it needs Prisma's migration tooling, a dev dependency, which stays out
# of the app image. Build both from the same commit with the same TAG.

# The Node.js line of package.json's `engines` (docs/node.md); its latest
# release, so that a rebuild picks up the line's security fixes.
ARG NODE_IMAGE=node:26-bookworm-slim

# --- all dependencies, installed from the lockfile -------------------------------
# A stage of its own, so that a change of code reuses it, and with it the two
# stages below that select from it.
FROM ${NODE_IMAGE} AS deps
# The npm of the developers' machines: it honours package.json's `allowScripts`
# (install scripts approved by name; Prisma's engine download stays off).
RUN npm install --global --no-audit --no-fund npm@11.19.1
WORKDIR /src
# The postinstall script generates the Prisma clients from prisma/ (with the
# engine stub in tools/db).
COPY package.json package-lock.json ./
COPY prisma ./prisma
COPY tools/db ./tools/db
# `npm install`, not `npm ci`: see docs/decisions/operations-and-deploy.md.
RUN npm install --no-audit --no-fund

# --- TypeScript compiled to dist/ ------------------------------------------------
FROM deps AS build
COPY . .
RUN node tools/build.mjs

# --- production dependencies only, for the app image ---------------------------
# --omit=optional as well: npm keeps the Prisma CLI (about 250 MB, with
# TypeScript) as an optional peer of @prisma/client, and the apps never load it.
# It also drops msgpackr's native speed-up, for which msgpackr has a JS fallback.
# Then what the apps never read: @prisma/client's query compilers for the other
# databases (CockroachDB, MySQL, SQLite, SQL Server) and its `fast` builds (the
# generated clients load the PostgreSQL `small` one, prisma/*/schema.prisma's
# `compilerBuild`), type declarations, and the
# dependencies' source maps (the apps' own, in dist/, stay: stack traces use them).
# sharp's prebuilt libvips for this platform (@img/*) is an optional dependency
# the media app does load: it is set aside during the prune and put back.
FROM deps AS prod-deps
RUN cp -a node_modules/@img /tmp/img \
  && npm prune --omit=dev --omit=optional --no-audit --no-fund \
  && mkdir -p node_modules/@img && cp -a /tmp/img/. node_modules/@img/ && rm -rf /tmp/img \
  && find node_modules/@prisma/client/runtime -name 'query_compiler_*' \
    ! -name 'query_compiler_small_bg.postgresql.*' -delete \
  && find node_modules \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' \) -type f -delete

# --- Prisma's migration tooling only, for the migrate image ---------------------
# The lockfile's versions, copied with what they need at run time and nothing
# of the other development dependencies (tools/image/copy-modules.mjs).
FROM deps AS migrate-deps
COPY tools/image ./tools/image
RUN node tools/image/copy-modules.mjs /migrate @prisma/migrate @prisma/adapter-pg prisma \
  && find /migrate/node_modules \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' \) -type f -delete

# --- tini, from Debian, built statically -----------------------------------------
# Installed in a stage of its own: only the binary reaches the images, none of
# apt's lists, caches or logs.
FROM ${NODE_IMAGE} AS tini
RUN apt-get update && apt-get install --yes --no-install-recommends tini

# --- what both images share ----------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
# tini as PID 1 forwards SIGTERM to node and reaps children, so a pod stops
# promptly even before an app has installed its own signal handler.
COPY --from=tini /usr/bin/tini-static /usr/bin/tini
ENV NODE_ENV=production
WORKDIR /app
COPY deploy/image/entrypoint.sh /usr/local/bin/formline
# The base image's unprivileged `node` user, by number so that Kubernetes'
# runAsNonRoot can verify it. Files stay root-owned: the apps only read them.
USER 1000:1000
ENTRYPOINT ["/usr/bin/tini", "--", "/bin/sh", "/usr/local/bin/formline"]

# --- the six apps --------------------------------------------------------------
FROM runtime AS app
COPY package.json ./
COPY --from=prod-deps /src/node_modules ./node_modules
# dist/ holds the compiled apps and libs, the generated Prisma clients included.
COPY --from=build /src/dist ./dist
# Last, so that a new revision changes only this metadata, never a layer.
ARG VERSION=0.0.0-dev
ARG REVISION=unknown
ARG SOURCE=unknown
LABEL org.opencontainers.image.title="formline" \
  org.opencontainers.image.description="Formline: gateway, global, responses, webhooks, dispatcher or media (first argument or APP)" \
  org.opencontainers.image.licenses="Apache-2.0" \
  org.opencontainers.image.version="${VERSION}" \
  org.opencontainers.image.revision="${REVISION}" \
  org.opencontainers.image.source="${SOURCE}"

# --- the migration Jobs --------------------------------------------------------
FROM runtime AS migrate
COPY package.json ./
COPY --from=migrate-deps /migrate/node_modules ./node_modules
COPY prisma ./prisma
COPY tools/db ./tools/db
# Last, so that a new revision changes only this metadata, never a layer.
ARG VERSION=0.0.0-dev
ARG REVISION=unknown
ARG SOURCE=unknown
LABEL org.opencontainers.image.title="formline-migrate" \
  org.opencontainers.image.description="Formline database migrations: migrate <global|responses|webhooks>" \
  org.opencontainers.image.licenses="Apache-2.0" \
  org.opencontainers.image.version="${VERSION}" \
  org.opencontainers.image.revision="${REVISION}" \
  org.opencontainers.image.source="${SOURCE}"
