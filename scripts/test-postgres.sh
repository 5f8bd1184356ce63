#!/usr/bin/env bash
# npm run test:postgres: the Vitest suites again, with every test database created
# on (and dropped from) the local PostgreSQL server instead of in SQLite files.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
export TEST_POSTGRES_URL="${TEST_POSTGRES_URL:-postgresql://root@127.0.0.1:5432/postgres}"
# Two Vitest workers each run files that start up to three servers, each with its pools, a
# LISTEN connection and CLI runs beside them, against a server that accepts 100 connections:
# pools of 6 queue a test's calls where pools of 20 could refuse a CLI run its connection.
export TEST_DATABASE_POOL_SIZE="${TEST_DATABASE_POOL_SIZE:-6}"

[ -f "${NEXT_DIST_DIR:-.next}/BUILD_ID" ] || npm run --silent build
npx vitest run
