#!/usr/bin/env bash
# Real programs from Debian under libclearjit-preload.so: zstd (compressing at levels 9 and 19,
# which clear their match tables, 12 and 17-50 MiB per run; decompressing) and sqlite3 (a table
# built and indexed: ~40 000 4 KiB page clears and ~800 000 small ones per 200 000 rows).
#
#   real-programs.sh check [BUILD]        small inputs: outputs byte-identical with and without
#                                         the preload (default and CLEARJIT_PRELOAD_MIN=0)
#   real-programs.sh bench [BUILD] [RUNS] wall time, RUNS rounds (default 11) alternating plain,
#                                         preload and preload with CLEARJIT_PRELOAD_MIN=0; medians
#
# Inputs are generated (deterministic), so every machine runs the same work.
set -euo pipefail
MODE="${1:-}"
BUILD="$(cd "${2:-$(dirname "${BASH_SOURCE[0]}")/../build}" && pwd)"
RUNS="${3:-11}"
PRELOAD="$BUILD/libclearjit-preload.so"
[[ "$MODE" == check || "$MODE" == bench ]] || { echo "usage: $0 check|bench [BUILD] [RUNS]" >&2; exit 2; }
[[ -f "$PRELOAD" ]] || { echo "$PRELOAD: not built" >&2; exit 1; }
[[ "$RUNS" =~ ^[1-9][0-9]*$ ]] || { echo "RUNS must be a positive number, got '$RUNS'" >&2; exit 2; }
for p in zstd sqlite3; do
  command -v "$p" >/dev/null || { echo "$p is not installed (scripts/setup.sh installs it)" >&2; exit 1; }
done
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
# No user profile leaks in: the preload uses $CLEARJIT_PROFILE when set, else the default lookup.
export HOME="$WORK/home" XDG_CONFIG_HOME="$WORK/home/.config"
unset CLEARJIT_VERBOSE CLEARJIT_TRACE CLEARJIT_PRELOAD CLEARJIT_PRELOAD_MIN LD_PRELOAD

# Text lines from a small linear congruential generator: compressible, but not trivially.
make_text() { # LINES FILE
  awk -v n="$1" 'BEGIN {
    split("alpha beta gamma delta clear memory page table kernel zero store line cache", w, " ");
    s = 1;
    for (i = 0; i < n; i++) {
      s = (s * 75 + 74) % 65537;
      printf "%07d %s %s %04x %s\n", i, w[s % 13 + 1], w[int(s / 13) % 13 + 1], s, w[i % 13 + 1];
    }
  }' >"$2"
}

make_sql() { # ROWS FILE
  cat >"$2" <<EOF
PRAGMA journal_mode=MEMORY;
PRAGMA synchronous=OFF;
CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT, c BLOB);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $1)
INSERT INTO t SELECT i, printf('row %d %x', i, i * 7919), zeroblob(i % 700) FROM n;
CREATE INDEX tb ON t(b);
DELETE FROM t WHERE a % 3 = 0;
SELECT count(*), sum(length(c)), max(b) FROM t;
EOF
}

# The programs, each writing its outputs into the directory given.
run_zstd9() { zstd -q -f -9 -o "$1/out.zst" "$WORK/in-zstd9.txt"; }
run_zstd19() { zstd -q -f -19 -o "$1/out.zst" "$WORK/in-zstd19.txt"; }
run_unzstd() { zstd -q -d -f -o "$1/out.txt" "$WORK/in-unzstd.zst"; }
run_true() { /bin/true; } # start-up alone
run_sqlite() { rm -f "$1/db"; sqlite3 "$1/db" <"$WORK/work.sql" >"$1/stdout"; }
PROGRAMS=(zstd9 zstd19 unzstd sqlite)
[[ "$MODE" == check ]] || PROGRAMS=(true "${PROGRAMS[@]}")
declare -A DESCRIBE=(
  [zstd9]="zstd -9 (compress)" [zstd19]="zstd -19 (compress)"
  [unzstd]="zstd -d (decompress)" [true]="/bin/true (start-up)" [sqlite]="sqlite3 (insert, index, delete)")

if [[ "$MODE" == check ]]; then
  make_text 30000 "$WORK/in-zstd9.txt"
  make_text 30000 "$WORK/in-zstd19.txt"
  zstd -q -19 -o "$WORK/in-unzstd.zst" "$WORK/in-zstd9.txt"
  make_sql 20000 "$WORK/work.sql"
else
  make_text 120000 "$WORK/in-zstd9.txt"  # 4.3 MB
  make_text 30000 "$WORK/in-zstd19.txt"  # 1.1 MB
  make_text 600000 "$WORK/big.txt"
  zstd -q -19 -o "$WORK/in-unzstd.zst" "$WORK/big.txt"
  make_sql 200000 "$WORK/work.sql"
fi

configs=(plain preload preload-min0)
run_as() { # CONFIG PROGRAM DIR
  mkdir -p "$3"
  case "$1" in
  plain) "run_$2" "$3" ;;
  preload) LD_PRELOAD="$PRELOAD" "run_$2" "$3" ;;
  preload-min0) LD_PRELOAD="$PRELOAD" CLEARJIT_PRELOAD_MIN=0 "run_$2" "$3" ;;
  esac
}

if [[ "$MODE" == check ]]; then
  for p in "${PROGRAMS[@]}"; do
    for c in "${configs[@]}"; do
      run_as "$c" "$p" "$WORK/$p-$c" 2>"$WORK/$p-$c.err"
      [[ ! -s "$WORK/$p-$c.err" ]] || { echo "${DESCRIBE[$p]}, $c: stderr: $(cat "$WORK/$p-$c.err")" >&2; exit 1; }
    done
    for c in preload preload-min0; do
      diff -r "$WORK/$p-plain" "$WORK/$p-$c" >/dev/null ||
        { echo "${DESCRIBE[$p]}: outputs differ with $c" >&2; exit 1; }
    done
    # And the preload did take zero fills from this program (octave 15: from 16 KiB).
    CLEARJIT_TRACE="$WORK/$p.trace" run_as preload "$p" "$WORK/$p-traced"
    taken="$(awk '$1 == "zero" && $2 >= 15 {n += $3} END {print n + 0}' "$WORK/$p.trace")"
    echo "${DESCRIBE[$p]}: outputs byte-identical ($(cd "$WORK/$p-plain" && ls | tr '\n' ' '))," \
      "$taken zero fills of 16 KiB or more"
  done
  exit 0
fi

median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
echo "wall time of $RUNS rounds, configurations alternating within each round; medians"
echo "preload: $PRELOAD (CLEARJIT_PRELOAD_MIN=0 sends every zero fill through clearjit)"
# What the preload chooses: it generates at a program's first large zero fill (zstd's tables).
CLEARJIT_VERBOSE=1 run_as preload zstd9 "$WORK/verbose" 2>&1 | sed 's/^/  /'
echo "CPU: $("$BUILD/clearjit" cpu | sed -n "2,3p" | tr -s " " | tr "\n" " ")"
printf "%-32s %10s %10s %10s %10s %12s\n" program "plain s" "preload s" "min0 s" "plain/pre" "plain/min0"
for p in "${PROGRAMS[@]}"; do
  for c in "${configs[@]}"; do : >"$WORK/$p-$c.times"; done
  run_as plain "$p" "$WORK/warm" # page cache, binaries
  for ((r = 0; r < RUNS; ++r)); do
    for c in "${configs[@]}"; do
      t0=$EPOCHREALTIME
      run_as "$c" "$p" "$WORK/out"
      t1=$EPOCHREALTIME
      awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.6f\n", b - a}' >>"$WORK/$p-$c.times"
    done
  done
  a=$(median <"$WORK/$p-plain.times")
  b=$(median <"$WORK/$p-preload.times")
  c=$(median <"$WORK/$p-preload-min0.times")
  awk -v n="${DESCRIBE[$p]}" -v a="$a" -v b="$b" -v c="$c" \
    'BEGIN {printf "%-32s %10.4f %10.4f %10.4f %9.3fx %11.3fx\n", n, a, b, c, a / b, a / c}'
done
