#!/bin/bash
# Positions for a distilled network (crates/nnue/README.md): Clio against a slightly different
# Clio (three search constants moved, so that the two games of a pair differ) at 1,000 nodes a
# move, every position of every game appended to $DIR/gen.epd by arena's --epdout.
#   crates/nnue/scripts/gen.sh DIR BOOK.epd [GAMES [ARENA FLAGS…]]
# Flags after GAMES go to `arena match` as they are (e.g. `--run-name NAME` for the database).
# DIR receives gen.epd, gen-state.json (resumable: run it again) and its own copy of clio.
set -euo pipefail
dir=$1 book=$2 games=${3:-48000}
shift $(($# < 3 ? $# : 3))
root=$(cd "$(dirname "$0")/../../.." && pwd)
mkdir -p "$dir"
[ -x "$dir/clio" ] || cp "$root/target/release/clio" "$dir/clio"
exec "$root/target/release/arena" match \
  --engine name=a cmd="$dir/clio" \
  --engine name=b cmd="$dir/clio" option.LmrBase=65 option.AspWindow=20 option.RfpMargin=64 \
  --option Hash=16 --option Threads=1 --nodes 1000 --concurrency "${CONC:-2}" \
  --openings "$book" --order sequential \
  --resign movecount=4,score=1200 --draw movenumber=50,movecount=10,score=5 --maxmoves 200 \
  --games "$games" --state "$dir/gen-state.json" --epdout "$dir/gen.epd" --rating-interval 2000 \
  "$@"
