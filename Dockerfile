# Formline's container images, built from the repository root (see docs/deploy.md):
#
#   docker build --target app     -t REGISTRY/formline:TAG .
#   docker build --target migrate -t REGISTRY/formline-migrate:TAG .
#
# `app` runs any of the five apps, chosen at run time by the first argument or
# `APP` (gateway, forms, responses, webhooks, dispatcher). `migrate` runs the
# database migrations (`migrate <global|responses|webhooks>`) in the Kubernetes
# Jobs: it needs Prisma's migration tooling, a dev dependency, which stays out
# of the app image. Build both from the same commit with the same TAG.

ARG NODE_IMAGE=node:20-bookworm-slim

# --- build: all dependencies, TypeScript compiled to dist/ ---------------------
FROM ${NODE_IMAGE} AS build
# The npm of the developers' machines: it honours package.json's `allowScripts`
# (install scripts approved by name; Prisma's engine download stays off).
RUN npm install --global --no-audit --no-fund npm@11.19.1
WORKDIR /src
# Dependencies first, so that a code change reuses this layer. The postinstall
# script generates the Prisma clients from prisma/ (with the engine stub in tools/db).
COPY package.json package-lock.json ./
COPY prisma ./prisma
COPY tools/db ./tools/db
# `npm install`, not `npm ci`: see docs/decisions.md.
RUN npm install --no-audit --no-fund
COPY . .
RUN node tools/build.mjs

# --- production dependencies only, for the app image ---------------------------
# --omit=optional as well: npm keeps the Prisma CLI (about 250 MB, with
# TypeScript) as an optional peer of @prisma/client, and the apps never load it.
# It also drops msgpackr's native speed-up, for which msgpackr has a JS fallback.
FROM build AS prod-deps
RUN npm prune --omit=dev --omit=optional --no-audit --no-fund

# --- what both images share ----------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
# tini as PID 1 forwards SIGTERM to node and reaps children, so a pod stops
# promptly even before an app has installed its own signal handler.
RUN apt-get update \
  && apt-get install --yes --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production
WORKDIR /app
COPY deploy/image/entrypoint.sh /usr/local/bin/formline
# The base image's unprivileged `node` user, by number so that Kubernetes'
# runAsNonRoot can verify it. Files stay root-owned: the apps only read them.
USER 1000:1000
ENTRYPOINT ["/usr/bin/tini", "--", "/bin/sh", "/usr/local/bin/formline"]

# --- the five apps -------------------------------------------------------------
FROM runtime AS app
COPY package.json ./
COPY --from=prod-deps /src/node_modules ./node_modules
# dist/ holds the compiled apps and libs, the generated Prisma clients included.
COPY --from=build /src/dist ./dist

# --- the migration Jobs --------------------------------------------------------
FROM runtime AS migrate
COPY package.json ./
COPY --from=build /src/node_modules ./node_modules
COPY prisma ./prisma
COPY tools/db ./tools/db
