#!/usr/bin/env bash
# Installs the Debian engines a gauntlet plays (default: ethereal-chess toga2 glaurung) when they
# are missing; they land in Debian's games directory (ci/find-engine.sh finds them there).
set -u
[ $# -eq 0 ] && set -- ethereal-chess toga2 glaurung
missing=()
for e in "$@"; do
  bash "$(dirname "$0")/find-engine.sh" "$e" >/dev/null || missing+=("$e")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "ci/setup-engines: installing ${missing[*]}" >&2
if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
