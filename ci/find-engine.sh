#!/usr/bin/env bash
# Prints the path of a Debian chess engine (e.g. stockfish), which installs into /usr/games, not
# on every PATH: found with `dpkg -L`, then PATH. Exits 1 if it is not installed.
set -u
name=${1:?usage: find-engine.sh NAME}
p=$(dpkg -L "$name" 2>/dev/null | grep -E "/(games|bin)/$name\$" | head -n 1)
[ -n "$p" ] && [ -x "$p" ] && { echo "$p"; exit 0; }
p=$(command -v "$name" 2>/dev/null) && { echo "$p"; exit 0; }
[ -x "/usr/games/$name" ] && { echo "/usr/games/$name"; exit 0; }
exit 1
