# The mock in a container: production dependencies only, listening on all interfaces inside the
# image (publish the port with -p to reach it from the host).
FROM node:20-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY tsconfig.json ./
COPY bin ./bin
COPY src ./src
COPY contracts ./contracts
COPY fixtures ./fixtures
USER node
EXPOSE 4010
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4010) + '/openapi.json').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "bin/ivs-mock.js", "serve", "--host", "0.0.0.0"]
