#!/usr/bin/env bash
# Vitest on Node.js 24, from the npm package `node` (the registry is the only download). Nothing
# is built for it: every process, test worker and thread picks the better-sqlite3 build its Node
# can load (lib/runtime/better-sqlite3-hook.mjs, decision 011). Without arguments it runs every
# unit suite and the integration files that start each kind of process Gatehouse has (decision
# 068); with arguments, the files they name.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

NODE24_INTEGRATION=(
  foundation          # the full server: portal, gateway and token endpoint on SQLite
  token-endpoint      # client authentication, token minting (jose, node:crypto)
  proxy               # the proxy path: streaming, compression, upstream sockets
  websocket           # upgrades tunnelled on both processes
  gateway-processes   # GATEWAY_PROCESSES workers through node:cluster
  shutdown            # the buffered request log written on SIGTERM
  request-log-writes  # the request log's worker thread, on better-sqlite3 and pg
  portal-accounts     # sign-in and sessions through next-auth
  admin-cli.test      # the compiled admin CLI, a process of its own
  dpop                # DPoP proofs: WebCrypto through jose
  mcp                 # the MCP SDK's transport on web streams
)

if [ "$#" -eq 0 ]; then
  set -- lib/ server/ prisma/ tests/unit/ "${NODE24_INTEGRATION[@]/#/tests/integration/}"
fi

NODE24="$(npx -y -p node@24 node -p process.execPath)"
[ -f "${NEXT_DIST_DIR:-.next}/BUILD_ID" ] || npm run --silent build
"$NODE24" node_modules/vitest/vitest.mjs run "$@"
