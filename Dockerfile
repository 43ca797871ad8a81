# Build stage: install everything, bundle the server, then gather what runs in the image.
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts/bundle.mjs scripts/runtime-tree.mjs ./scripts/
COPY src ./src
COPY fixtures ./fixtures
# /runtime/app: the bundle and the production packages it loads from node_modules, nothing else
# (scripts/runtime-tree.mjs; test/bundle.e2e.test.ts runs the server from such a folder).
RUN node scripts/bundle.mjs && node scripts/runtime-tree.mjs --out /runtime/app
# /runtime/root: the file system the server needs around it: Node's binary and the libraries it
# links (glibc, libstdc++), a user to run as, /tmp and the data folder. The rest of Debian (shell,
# package manager, coreutils; ~80 MB) stays behind, as in a distroless image.
RUN set -eu; R=/runtime/root; \
    mkdir -p "$R/usr/local/bin" "$R/etc" "$R/tmp" "$R/fixtures/packs" /runtime/data; chmod 1777 "$R/tmp"; \
    cp /usr/local/bin/node "$R/usr/local/bin/"; \
    for lib in $(ldd /usr/local/bin/node | grep -o '/[^ ]*'); do cp --parents -L "$lib" "$R"; done; \
    printf 'root:x:0:0:root:/root:/sbin/nologin\nnode:x:1000:1000:node:/tmp:/sbin/nologin\n' >"$R/etc/passwd"; \
    printf 'root:x:0:\nnode:x:1000:\n' >"$R/etc/group"; \
    printf 'hosts: files dns\n' >"$R/etc/nsswitch.conf"
# V8's compiled code of the server (src/server/compile-cache.ts), made by one start and one request
# here as the image runs it (its fixtures folder too): the same files at the same paths, the same flags and the same user
# (Node keeps a folder per user id and flags), so that every container starts from it.
RUN mkdir -p /runtime/root/var/cache/node && chown 1000:1000 /runtime/root/var/cache/node && \
    NODE_COMPILE_CACHE=/runtime/root/var/cache/node FIXTURES=/runtime/root/fixtures node -e " \
    const server = require('node:child_process').spawn(process.execPath, ['--max-semi-space-size=8', 'dist/server/main.js', '--memory', '--port', '0'], { uid: 1000, gid: 1000, stdio: ['ignore', 'pipe', 'inherit'] }); \
    server.stdout.on('data', async (chunk) => { const url = new RegExp('listening on (http://[0-9.:]+)').exec(chunk)?.[1]; if (url) { await fetch(url + '/health'); server.kill('SIGTERM'); } }); \
    server.on('exit', (code) => process.exit(code ?? 1));" \
    && test -n "$(ls -A /runtime/root/var/cache/node)"

# Runtime stage: the same Node (24 LTS) and the server, no shell; runs as a non-root user.
FROM scratch
COPY --from=build /runtime/root /
COPY --from=build --chown=1000:1000 /runtime/data /data
COPY --from=build /runtime/app /app
ENV PATH=/usr/local/bin \
    NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    NODE_COMPILE_CACHE=/var/cache/node \
    DATA_FILE=/data/sandbox.json \
    FIXTURES=/fixtures
# /fixtures is the user's: mount a folder there (-v ./my-fixtures:/fixtures:ro) and its .json
# files are a pack seeded over the base set, its packs/ the packs tenants can name. The image's
# own /fixtures holds an empty packs/ only, which seeds nothing (the base set as without it).
WORKDIR /app
USER node
VOLUME ["/data"]
EXPOSE 8080
# It reads PORT: a port given as --port after the image name is not seen here (README says so).
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
# Node flags as `npm start` has them (package.json; a test keeps the two in step): a young
# generation of 2 x 8 MB instead of V8's 2 x 16 MB keeps the resident memory ~16 MB lower under
# load at about the same CPU per request (see bench/README.md).
# The server is the entry point, so words after the image name are its options, as after
# `npm start --`: `docker run parcel-sandbox --help`, `... parcel-sandbox --seed 7`, `... report`.
# (As a CMD they replaced the command: `--help` was "executable file not found", exit 127.)
ENTRYPOINT ["node", "--max-semi-space-size=8", "dist/server/main.js"]
