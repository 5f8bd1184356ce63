#!/usr/bin/env bash
# npm run test:postgres: the Vitest suites again, with every test database created
# on (and dropped from) the local PostgreSQL server instead of in SQLite files.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
export TEST_POSTGRES_URL="${TEST_POSTGRES_URL:-postgresql://root@127.0.0.1:5432/postgres}"

[ -f "${NEXT_DIST_DIR:-.next}/BUILD_ID" ] || npm run --silent build
npx vitest run
