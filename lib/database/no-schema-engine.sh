#!/bin/sh
# Prisma's CLI wants a native schema engine that these machines cannot download.
# `prisma generate` never runs it; migrations go through the WebAssembly engine instead.
echo "Gatehouse runs migrations with its own tool: npm run db:migration -- <name>, npm run db:migrate." >&2
echo "See docs/decisions/001-offline-prisma-migrations.md." >&2
exit 1
