FROM node:20-bookworm-slim
WORKDIR /app
# .npmrc keeps onnxruntime-node's install script from downloading GPU providers (npm 10).
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev
USER node
# glibc's per-thread malloc arenas keep freed memory resident; two are enough for Node (about
# 50 MB less RSS for `start`, see docs/benchmarks.md#memory).
ENV MALLOC_ARENA_MAX=2
CMD ["node", "dist/src/cli.js", "start"]
