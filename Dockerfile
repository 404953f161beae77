# syntax=docker/dockerfile:1
# The portal server (with the built client), as run by docker-compose.yml. See docs/deployment.md.

FROM node:20-bookworm-slim AS build
WORKDIR /app
ENV CI=true \
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
# Install dependencies from the lock file first, so source changes reuse this layer.
COPY package.json package-lock.json .npmrc ./
COPY patches patches/
COPY server/package.json server/
COPY client/package.json client/
COPY projections/package.json projections/
COPY tests/package.json tests/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/app/data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/projections/package.json ./projections/
COPY --from=build /app/projections/dist ./projections/dist
COPY --from=build /app/server/package.json ./server/
COPY --from=build /app/server/dist ./server/dist
COPY --from=build /app/client/package.json ./client/
COPY --from=build /app/client/dist ./client/dist
# Run as the image's unprivileged "node" user; DATA_DIR is only written in embedded mode.
RUN mkdir -p /app/data /app/storage && chown node:node /app/data /app/storage
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/v1/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "server/dist/main.js"]
