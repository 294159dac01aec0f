#!/usr/bin/env bash
# Installs what `make test` needs beyond the Rust toolchain: python-chess (the independent UCI
# client and PGN reader), numpy and scipy (the win-rate fit's self-test), Debian's stockfish (a
# reference engine) and Debian's chromium (the headless browser that renders `arena serve`'s
# pages in the tests). Idempotent; a missing registry only skips the tests that need the tool,
# with a message.
set -u
if ! python3 -c 'import chess' >/dev/null 2>&1; then
  echo "ci/setup: installing python-chess" >&2
  python3 -m pip install --quiet --disable-pip-version-check chess >&2 \
    || echo "ci/setup: could not install python-chess" >&2
fi
if ! python3 -c 'import numpy, scipy' >/dev/null 2>&1; then
  echo "ci/setup: installing numpy and scipy (tuning/wdl/fit.py)" >&2
  python3 -m pip install --quiet --disable-pip-version-check numpy scipy >&2 \
    || echo "ci/setup: could not install numpy and scipy" >&2
fi
if ! dpkg -s stockfish >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
  echo "ci/setup: installing Debian's stockfish" >&2
  if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
  { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq stockfish; } >/dev/null 2>&1 \
    || echo "ci/setup: could not install stockfish" >&2
fi
if ! command -v chromium >/dev/null 2>&1 && ! dpkg -s chromium >/dev/null 2>&1 \
  && command -v apt-get >/dev/null 2>&1; then
  echo "ci/setup: installing Debian's chromium" >&2
  if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
  { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium; } >/dev/null 2>&1 \
    || echo "ci/setup: could not install chromium" >&2
fi
exit 0
