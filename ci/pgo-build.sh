#!/usr/bin/env bash
# Builds the engine with profile-guided optimisation, as Stockfish's `make profile-build` does:
# an instrumented build plays `clio bench`, llvm-profdata merges what it recorded, and the
# release build is optimised with that profile. The searches are the same node for node (the
# bench signature checks it); only the speed changes.
#
#   bash ci/pgo-build.sh OUTPUT     # the engine, built with the profile, copied to OUTPUT
#
# llvm-profdata must match rustc's LLVM, so it comes from rustup's `llvm-tools` component,
# which this script installs when it is missing. Where it cannot (no rustup, no network), the
# engine is built without a profile and the script says so; PGO=0 asks for that build, and
# PGO=required (what `make test` sets under CI) makes a missing llvm-profdata an error.
set -euo pipefail
out=${1:?usage: ci/pgo-build.sh OUTPUT}
# OUTPUT is relative to where the script was called from, not to the repository root.
case $out in /*) ;; *) out=$PWD/$out ;; esac
cd "$(dirname "$0")/.."
cargo=${CARGO:-cargo}
mode=${PGO:-1}

copy() { # built binary -> OUTPUT, unless they are the same file
  mkdir -p "$(dirname "$out")"
  if [ ! "$1" -ef "$out" ]; then cp "$1" "$out"; fi
}

plain() {
  echo "pgo-build: $1; building without a profile" >&2
  "$cargo" build --release -p clio
  copy target/release/clio
}

if [ "$mode" = 0 ]; then
  plain "PGO=0"
  exit 0
fi

host=$(rustc -vV | sed -n 's/^host: //p')
profdata="$(rustc --print sysroot)/lib/rustlib/$host/bin/llvm-profdata"
if [ ! -x "$profdata" ] && command -v rustup >/dev/null 2>&1; then
  echo "pgo-build: installing rustup's llvm-tools component (llvm-profdata)" >&2
  rustup component add llvm-tools >&2 || true
fi
if [ ! -x "$profdata" ]; then
  if [ "$mode" = required ]; then
    echo "pgo-build: FAILED: no $profdata (rustup component add llvm-tools)" >&2
    exit 1
  fi
  plain "no llvm-profdata at $profdata (rustup component add llvm-tools installs it)"
  exit 0
fi

# RUSTFLAGS replaces .cargo/config.toml's target flags, so keep its x86-64-v2 baseline (set there
# for x86_64-unknown-linux-gnu alone) unless the caller chose flags of their own.
flags=${RUSTFLAGS-}
if [ -z "$flags" ] && [ "$host" = x86_64-unknown-linux-gnu ]; then flags="-C target-cpu=x86-64-v2"; fi

profiles=$PWD/target/pgo/profiles
rm -rf "$profiles"
mkdir -p "$profiles"
echo "pgo-build: instrumented build (target/pgo-gen)" >&2
RUSTFLAGS="$flags -C profile-generate=$profiles" \
  "$cargo" build --release -p clio --target-dir target/pgo-gen
echo "pgo-build: recording the profile: clio bench" >&2
target/pgo-gen/release/clio bench >&2
"$profdata" merge -o "$profiles/clio.profdata" "$profiles"/*.profraw
echo "pgo-build: optimised build with the profile (target/pgo)" >&2
RUSTFLAGS="$flags -C profile-use=$profiles/clio.profdata" \
  "$cargo" build --release -p clio --target-dir target/pgo
copy target/pgo/release/clio
echo "pgo-build: $out built with the profile" >&2
