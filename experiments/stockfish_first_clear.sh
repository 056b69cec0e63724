#!/usr/bin/env bash
# Stockfish's first clear of a new table, plain against the preload, in fresh engines: ROUNDS
# rounds alternating Threads 1 and 2, plain and preload, each engine started after 3 s idle
# (docs/design/fresh-memory.md), Hash MIB, then a search of 100 000 nodes (`use`, where the
# pages the preload left untouched are faulted in) and 2 more clears each after a search.
# One line per engine: THREADS CONFIG, then scripts/uci-clears.py's output on one line.
#
#   experiments/stockfish_first_clear.sh [BUILD] [ROUNDS] [MIB]   (defaults: build 10 4096)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="$(cd "${1:-$HERE/build}" && pwd)"
ROUNDS="${2:-10}" MIB="${3:-4096}"
[[ "$ROUNDS" =~ ^[0-9]+$ && "$MIB" =~ ^[0-9]+$ ]] || { echo "ROUNDS and MIB are numbers" >&2; exit 2; }
STOCKFISH=/usr/games/stockfish
[[ -x "$STOCKFISH" ]] || { echo "$STOCKFISH is not installed (scripts/setup.sh)" >&2; exit 1; }
for ((r = 0; r < ROUNDS; ++r)); do
  for t in 1 2; do
    for c in plain preload; do
      pre=()
      [[ "$c" == preload ]] && pre=(LD_PRELOAD="$BUILD/libclearjit-preload.so")
      out="$(env "${pre[@]}" python3 "$HERE/scripts/uci-clears.py" --hash "$MIB" --threads "$t" \
        --clears 2 --nodes 100000 --settle 3 -- "$STOCKFISH")"
      echo "$t $c $(echo "$out" | tr '\n' ' ')"
    done
  done
done
