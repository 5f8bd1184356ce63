#!/usr/bin/env bash
# npm test: check types, formatting and lint (biome.json), and the imports between layers
# (ARCHITECTURE.md), build Next once, then
# every Vitest suite (unit and integration over real HTTP against the built server), then the
# Playwright suite in Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

npm run --silent typecheck
npm run --silent lint
npm run --silent lint:deps
npm run --silent build
npx vitest run
npx playwright test
