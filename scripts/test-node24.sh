#!/usr/bin/env bash
# The Vitest suites again on Node.js 24, from the npm package `node` (the registry is the only
# download). Nothing is built for it: every process, test worker and thread picks the
# better-sqlite3 build its Node can load (lib/runtime/better-sqlite3-hook.mjs, decision 011).
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

NODE24="$(npx -y -p node@24 node -p process.execPath)"
[ -f "${NEXT_DIST_DIR:-.next}/BUILD_ID" ] || npm run --silent build
"$NODE24" node_modules/vitest/vitest.mjs run "$@"
