#!/usr/bin/env bash
# As in Stockfish's CI: `clio bench` must print the node count of the newest `Bench: N` line in
# the git history, so a signature that moved without saying so fails.
set -euo pipefail
cd "$(dirname "$0")/.."
clio=${1:-target/release/clio}
expected=$(git log --format=%B 2>/dev/null | grep -iE '^bench: *[0-9]+' | head -n 1 | grep -oE '[0-9]+' || true)
if [ -z "$expected" ]; then
  echo "check-bench: no 'Bench: N' line in the history yet; nothing to compare" >&2
  exit 0
fi
actual=$("$clio" bench 2>/dev/null | tail -n 1 | awk '{print $1}')
if [ "$actual" != "$expected" ]; then
  echo "check-bench: FAILED: clio bench gives $actual nodes, the newest 'Bench:' line in git log says $expected" >&2
  exit 1
fi
echo "check-bench: ok, clio bench = $actual nodes (matches the newest Bench: line)" >&2
