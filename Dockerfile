# The mock in a container, in two stages. The build stage installs every dependency and runs the
# build (schema checks, then one bundle); the image runs that bundle, which holds every npm package
# it uses, so it has no node_modules. It listens on all interfaces inside the container (publish
# the port with -p to reach it from the host).
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Without scripts: `prepare` would build before the sources are copied; the build runs below.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY contracts ./contracts
COPY fixtures ./fixtures
RUN npm run build

FROM node:20-slim
ENV NODE_ENV=production
WORKDIR /app
# What dist/main.js reads at run time: the version, the contracts and the world fixture (dist/ also
# holds the seeded world and the API reference's renderer, dist/docs/).
COPY package.json ./
COPY contracts ./contracts
COPY fixtures ./fixtures
COPY scenarios ./scenarios
# The guides, read in the image as in a clone.
COPY README.md ./
COPY docs ./docs
COPY --from=build /app/dist ./dist
USER node
EXPOSE 4010
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4010) + '/openapi.json').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Arguments of `docker run <image> ...` replace only the CMD: `serve --data /data/state.json` works.
ENTRYPOINT ["node", "--enable-source-maps", "dist/main.js"]
CMD ["serve", "--host", "0.0.0.0"]
