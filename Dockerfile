# syntax=docker/dockerfile:1
# o7-slack-relay in a container: built with the dev dependencies, run with only the runtime
# ones, as the unprivileged `node` user. compose.yml runs it; see docs/service.md.

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY scripts/bundle-hook.mjs ./scripts/
RUN npm run build:package

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    RELAY_WATCH=/runs \
    RELAY_STATE_DIR=/var/lib/o7-slack-relay
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist/src ./dist/src
# The state folder must be writable by the relay; mount a volume here to keep it.
RUN mkdir -p /var/lib/o7-slack-relay && chown node:node /var/lib/o7-slack-relay
USER node
# `docker run <image> doctor` (or check, preview, --help) runs another command.
# The node flags are SERVICE_NODE_FLAGS (src/node-tuning.ts): they keep V8 from spending
# CPU on handing memory back after a burst, and the young generation small.
ENTRYPOINT ["node", "--no-memory-reducer", "--max-semi-space-size=2", "dist/src/main.js"]
CMD ["start"]
