# syntax=docker/dockerfile:1
#
# Fleet API: the production image. The server runs as compiled JavaScript on Node's active LTS,
# as a user without privileges, with `fleet` on the PATH (README: Deploy).
#
#   docker build -t fleet-api .
#   docker run -p 127.0.0.1:5000:5000 -v fleet-data:/app/data fleet-api
#   docker run --rm -v fleet-data:/app/data fleet-api fleet token list
#
# Each stage runs one script of scripts/image/ (plus the build stages' compiler toolchain).
# test/image/layout.test.ts runs the same scripts, in the same order, outside Docker: from a clean
# copy of the checkout into a temporary directory, lays out what the runtime stage copies, and
# starts the server from there as a user without privileges with plain node.

ARG NODE_IMAGE=node:26-trixie-slim

# --- fetch: every package of the lockfile into pnpm's store (reused until the lockfile changes) ---
FROM ${NODE_IMAGE} AS fetch
# better-sqlite3 (the embedded store) uses a prebuilt binary when one matches the platform and
# compiles from source otherwise: the toolchain for that stays in the build stages.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml ./
COPY scripts/image/ scripts/image/
RUN scripts/image/fetch.sh /src

# --- build: installed from the store alone, compiled, the server's production files in /prod ----
FROM fetch AS build
COPY . .
RUN scripts/image/build.sh /src /prod

# --- runtime: node, the compiled server and its production dependencies; no compiler, no pnpm ----
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    PORT=5000 \
    HOST=0.0.0.0
WORKDIR /app
# The code stays owned by root (read-only for the server); only the data directory is writable.
COPY --from=build /prod /app
COPY scripts/image/runtime.sh /usr/local/lib/fleet/runtime.sh
RUN /usr/local/lib/fleet/runtime.sh /app /usr/local/bin node
# The store (DATABASE_URL defaults to sqlite:./data/fleet.db), the generated admin token and the
# generated secret key, when they are not given in the environment.
VOLUME ["/app/data"]
USER node
EXPOSE 5000
# Slim images have no curl: node itself asks /api/health (200 when the store answers).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "require('http').get('http://127.0.0.1:' + (process.env.PORT || 5000) + '/api/health', (r) => process.exit(r.statusCode === 200 ? 0 : 1)).on('error', () => process.exit(1))"]
# node is PID 1 (exec form, no shell): it handles SIGTERM and SIGINT itself (in-flight requests
# finish, the store closes, status 0).
CMD ["fleet", "serve"]
