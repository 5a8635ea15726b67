# syntax=docker/dockerfile:1
#
# Fleet API: a small production image (docs/mongodb.md).
# The server runs its TypeScript through tsx, a production dependency of @fleet/server, so there
# is no compile step: the build stages only install, and the runtime stage gets production
# dependencies only.
#
#   docker build -t fleet-api .
#   docker run -p 5000:5000 -e DATABASE_URL=mongodb://db:27017/fleet fleet-api
#
# `docker build --target deps -t fleet-api-dev .` stops after the full install (dev dependencies
# included), for running the tests in a container.

ARG NODE_IMAGE=node:20-bookworm-slim

# --- deps: the whole workspace, installed from the lockfile --------------------------------------
FROM ${NODE_IMAGE} AS deps
WORKDIR /src
# better-sqlite3 (the embedded store) uses a prebuilt binary when one matches the platform and
# compiles from source otherwise: the toolchain for that stays in the build stages.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
# `pnpm fetch` needs only the lockfile, so this layer is reused until the dependencies change.
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN npx --yes pnpm@10 fetch
COPY . .
RUN npx --yes pnpm@10 install --frozen-lockfile --offline

# --- prod: @fleet/server and its production dependencies, workspace packages copied in ------------
FROM deps AS prod
RUN npx --yes pnpm@10 --filter @fleet/server deploy --prod --offline --legacy /prod

# --- runtime --------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    PORT=5000 \
    HOST=0.0.0.0
WORKDIR /app
# The code stays owned by root (read-only for the server); only the data directory is writable.
COPY --from=prod /prod/node_modules ./node_modules
COPY --from=prod /prod/package.json ./packages/server/package.json
COPY --from=prod /prod/src ./packages/server/src
RUN mkdir -p /app/data && chown node:node /app/data
# The admin token and the generated SECRET_KEY live here when they are not given (DESIGN §4, §6).
VOLUME ["/app/data"]
USER node
EXPOSE 5000
# Slim images have no curl: node itself asks /api/health (200 when the store answers).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "require('http').get('http://127.0.0.1:' + (process.env.PORT || 5000) + '/api/health', (r) => process.exit(r.statusCode === 200 ? 0 : 1)).on('error', () => process.exit(1))"]
CMD ["node_modules/.bin/tsx", "packages/server/src/cli.ts", "serve"]
