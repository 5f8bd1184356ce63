#!/usr/bin/env bash
# The Vitest suites again on Node.js 24, from the npm package `node` (the registry is the only
# download). better-sqlite3's addon is built per Node ABI, so a copy of it is built once for
# Node 24 from the headers the package `node-<platform>-<arch>` ships, and preloaded in its place.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

NODE24="$(npx -y -p node@24 node -p process.execPath)"
VERSION="$("$NODE24" -p process.versions.node)"
CACHE=node_modules/.cache/gatehouse-node24
ADDON="$CACHE/better-sqlite3/build/Release/better_sqlite3.node"

if [ ! -f "$CACHE/built-for-$VERSION" ]; then
  rm -rf "$CACHE" && mkdir -p "$CACHE"
  PLATFORM="$("$NODE24" -p '`${process.platform}-${process.arch}`')"
  (cd "$CACHE" && npm pack --silent "node-$PLATFORM@$VERSION" >/dev/null && tar xzf "node-$PLATFORM-$VERSION.tgz" && mv package nodedir && rm "node-$PLATFORM-$VERSION.tgz")
  cp -r node_modules/better-sqlite3 "$CACHE/better-sqlite3" && rm -rf "$CACHE/better-sqlite3/build"
  GYP="$(dirname "$(command -v npm)")/../lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js"
  (cd "$CACHE/better-sqlite3" && "$NODE24" "$GYP" rebuild --release --nodedir="$PWD/../nodedir" >/dev/null)
  touch "$CACHE/built-for-$VERSION"
fi
[ -f "$ADDON" ]

[ -f "${NEXT_DIST_DIR:-.next}/BUILD_ID" ] || npm run --silent build
NODE_OPTIONS="--require $PWD/scripts/node24-sqlite-preload.cjs" "$NODE24" node_modules/vitest/vitest.mjs run
