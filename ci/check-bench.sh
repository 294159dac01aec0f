#!/usr/bin/env bash
# Stockfish's and OpenBench's convention: the message of the commit at HEAD ends with
# `Bench: N`, and `clio bench` prints N nodes. OpenBench reads the bench of a test from the
# tip commit only, so HEAD itself must carry it (an older commit's line does not count).
set -euo pipefail
cd "$(dirname "$0")/.."
clio=${1:-target/release/clio}
if ! message=$(git log -1 --format=%B HEAD 2>/dev/null); then
  echo "check-bench: FAILED: not a git checkout, so HEAD's 'Bench: N' line cannot be read" >&2
  exit 1
fi
expected=$(printf '%s\n' "$message" | grep -iE '^bench: *[0-9]+ *$' | tail -n 1 | grep -oE '[0-9]+' || true)
if [ -z "$expected" ]; then
  echo "check-bench: FAILED: the message of HEAD ($(git rev-parse --short HEAD)) has no 'Bench: N' line" >&2
  exit 1
fi
actual=$("$clio" bench 2>/dev/null | tail -n 1 | awk '{print $1}')
if [ "$actual" != "$expected" ]; then
  echo "check-bench: FAILED: clio bench gives $actual nodes, HEAD's message says Bench: $expected" >&2
  exit 1
fi
echo "check-bench: ok, clio bench = $actual nodes = HEAD's Bench: line" >&2
