#!/usr/bin/env bash
# Real programs from Debian under libclearjit-preload.so: zstd (compressing at levels 9 and 19,
# which clear their match tables, 12 and 17-50 MiB per run; decompressing), sqlite3 (a table
# built and indexed: ~40 000 4 KiB page clears and ~800 000 small ones per 200 000 rows) and
# Stockfish (one memset per search thread over its share of the hash table, on every
# `ucinewgame`; src/tt.cpp, TranspositionTable::clear).
#
#   real-programs.sh check [BUILD]        small inputs: outputs byte-identical with and without
#                                         the preload (default and CLEARJIT_PRELOAD_MIN=0);
#                                         Stockfish's bench node counts and searches identical
#   real-programs.sh bench [BUILD] [RUNS] [--profile FILE] [--libc DIR] [--tunables FILE]
#       wall time, RUNS rounds (default 11) alternating plain, preload and preload with
#       CLEARJIT_PRELOAD_MIN=0; medians. Then Stockfish's hash clears (scripts/uci-clears.py):
#       Hash 1024 and 4096 MiB, Threads 1 and 2, RUNS fresh engines per configuration,
#       alternating, each started after 3 s idle: the first clear (allocation, page faults,
#       clear), the search of 100 000 nodes after it (which faults in what the clear left
#       untouched) and 5 later clears, each after such a search; median, min and max.
#       Configurations: plain; the preload (default lookup: the built-in); the preload with each
#       --profile FILE (up to 4: profile1..profile4); GLIBC_TUNABLES from --tunables FILE (the line
#       `clearjit tune --glibc-tunables FILE` writes), without the preload. Each under the
#       system's glibc and under the glibc unpacked in --libc DIR (scripts/fetch-libc.sh).
#
# Inputs are generated (deterministic), so every machine runs the same work.
set -euo pipefail
MODE="${1:-}"
shift || true
POSITIONAL=() PROFILES=() LIBC_DIR="" TUNABLES=""
while (($#)); do
  case "$1" in
  --profile | --libc | --tunables)
    (($# >= 2)) || { echo "$1 needs a value" >&2; exit 2; }
    case "$1" in --profile) PROFILES+=("$2") ;; --libc) LIBC_DIR="$2" ;; --tunables) TUNABLES="$2" ;; esac
    shift 2 ;;
  -*) echo "unknown option $1" >&2; exit 2 ;;
  *) POSITIONAL+=("$1"); shift ;;
  esac
done
BUILD="$(cd "${POSITIONAL[0]:-$(dirname "${BASH_SOURCE[0]}")/../build}" && pwd)"
RUNS="${POSITIONAL[1]:-11}"
PRELOAD="$BUILD/libclearjit-preload.so"
STOCKFISH=/usr/games/stockfish # Debian's stockfish package; /usr/games is not on root's PATH
UCI_CLEARS="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/uci-clears.py"
[[ "$MODE" == check || "$MODE" == bench ]] ||
  { echo "usage: $0 check|bench [BUILD] [RUNS] [--profile FILE] [--libc DIR] [--tunables FILE]" >&2; exit 2; }
[[ -f "$PRELOAD" ]] || { echo "$PRELOAD: not built" >&2; exit 1; }
[[ "$RUNS" =~ ^[1-9][0-9]*$ ]] || { echo "RUNS must be a positive number, got '$RUNS'" >&2; exit 2; }
for p in zstd sqlite3 python3; do
  command -v "$p" >/dev/null || { echo "$p is not installed (scripts/setup.sh installs it)" >&2; exit 1; }
done
[[ -x "$STOCKFISH" ]] || { echo "$STOCKFISH is not installed (scripts/setup.sh installs it)" >&2; exit 1; }
((${#PROFILES[@]} <= 4)) || { echo "at most 4 --profile files, got ${#PROFILES[@]}" >&2; exit 2; }
for f in "${PROFILES[@]}"; do
  [[ -f "$f" ]] || { echo "--profile '$f': not a regular file" >&2; exit 2; }
done
[[ -z "$TUNABLES" || -f "$TUNABLES" ]] || { echo "$TUNABLES: not a regular file" >&2; exit 2; }
for i in "${!PROFILES[@]}"; do PROFILES[i]="$(realpath "${PROFILES[i]}")"; done
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
# No user profile leaks in: the preload uses $CLEARJIT_PROFILE when set, else the default lookup.
export HOME="$WORK/home" XDG_CONFIG_HOME="$WORK/home/.config"
unset CLEARJIT_VERBOSE CLEARJIT_TRACE CLEARJIT_PRELOAD CLEARJIT_PRELOAD_MIN LD_PRELOAD CLEARJIT_PROFILE \
  GLIBC_TUNABLES

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
# Stockfish's bench: 16 MiB over its 47 positions to depth 8, then 512 MiB on the start position
# to depth 12 (each sets the hash and clears it per position; 512 MiB is new memory, whose pages
# the preload leaves to the kernel). The node counts and the searches' lines must match; their
# times and speeds are taken out.
run_stockfish() {
  local args
  for args in "16 1 8 default depth" "512 1 12 current depth"; do
    # shellcheck disable=SC2086 # the bench's arguments, split as the engine reads them
    "$STOCKFISH" bench $args 2>"$1/stderr" | sed -E 's/ (time|nps) [0-9]+//g' >>"$1/search"
    grep '^Nodes searched' "$1/stderr" >>"$1/nodes" || { cat "$1/stderr" >&2; return 1; }
  done
  rm "$1/stderr"
}
PROGRAMS=(zstd9 zstd19 unzstd sqlite stockfish)
[[ "$MODE" == check ]] || PROGRAMS=(true "${PROGRAMS[@]}")
declare -A DESCRIBE=(
  [zstd9]="zstd -9 (compress)" [zstd19]="zstd -19 (compress)"
  [unzstd]="zstd -d (decompress)" [true]="/bin/true (start-up)" [sqlite]="sqlite3 (insert, index, delete)"
  [stockfish]="stockfish bench (16+512 MiB hash)")

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

# Stockfish's hash clears, under each C library and configuration.
LIBCS=(system)
SYSTEM_LIBC="$(/lib64/ld-linux-x86-64.so.2 --version | sed -n '1s/.*version \([0-9.]*\)\.$/glibc \1/p')"
if [[ -n "$LIBC_DIR" ]]; then
  [[ -d "$LIBC_DIR" ]] || { echo "--libc $LIBC_DIR: not a directory" >&2; exit 2; }
  LOADER="$(find "$LIBC_DIR" -name ld-linux-x86-64.so.2 -type f | head -1)"
  LIBC_SO="$(find "$LIBC_DIR" -name libc.so.6 -type f | head -1)"
  [[ -n "$LOADER" && -n "$LIBC_SO" ]] ||
    { echo "--libc $LIBC_DIR: no ld-linux-x86-64.so.2 and libc.so.6 (scripts/fetch-libc.sh unpacks one)" >&2; exit 2; }
  OTHER_LIBC="$("$LOADER" --version | sed -n '1s/.*version \([0-9.]*\)\.$/glibc \1/p')"
  [[ -n "$OTHER_LIBC" ]] || { echo "--libc $LIBC_DIR: $LOADER is not glibc's loader" >&2; exit 2; }
  LIBCS+=(other)
fi
SF_CONFIGS=(plain preload)
for i in "${!PROFILES[@]}"; do SF_CONFIGS+=("profile$((i + 1))"); done
[[ -z "$TUNABLES" ]] || {
  TUNABLES_LINE="$(grep -m1 '^GLIBC_TUNABLES=' "$TUNABLES" | cut -d= -f2-)"
  [[ -n "$TUNABLES_LINE" ]] || { echo "--tunables $TUNABLES: no GLIBC_TUNABLES= line" >&2; exit 2; }
  SF_CONFIGS+=(tunables)
}
libc_name() { [[ "$1" == system ]] && echo "$SYSTEM_LIBC" || echo "$OTHER_LIBC"; }
engine() { # LIBC CONFIG: the command line of one engine, into ENGINE
  ENGINE=(env)
  case "$2" in
  preload) ENGINE+=(LD_PRELOAD="$PRELOAD") ;;
  profile*) ENGINE+=(LD_PRELOAD="$PRELOAD" CLEARJIT_PROFILE="${PROFILES[${2#profile} - 1]}") ;;
  tunables) ENGINE+=(GLIBC_TUNABLES="$TUNABLES_LINE") ;;
  esac
  [[ "$1" == system ]] || ENGINE+=("$LOADER" --library-path
    "$(dirname "$LIBC_SO"):/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu")
  ENGINE+=("$STOCKFISH")
}
stats() { # FILE: median min max of its numbers
  sort -g "$1" | awk '{v[NR] = $1} END {printf "%s %s %s", v[int((NR + 1) / 2)], v[1], v[NR]}'
}
echo
echo "Stockfish $("$STOCKFISH" quit | head -1 | cut -d' ' -f2): the hash clears of fresh engines" \
  "(scripts/uci-clears.py), $RUNS per configuration, alternating;"
echo "first = setoption Hash (allocate, fault in, clear), use = the search of 100000 nodes after it,"
echo "again = ucinewgame after a search (5 per engine); ms; each engine started after 3 s idle"
echo "preload: $PRELOAD (built-in unless said), tunables: ${TUNABLES_LINE:-none}"
for i in "${!PROFILES[@]}"; do echo "profile$((i + 1)): the preload with ${PROFILES[i]}"; done
for libc in "${LIBCS[@]}"; do
  engine "$libc" preload
  "${ENGINE[@]}" quit >/dev/null 2>&1 ||
    { echo "stockfish does not start under $(libc_name "$libc") with the preload" >&2; exit 1; }
done
printf "%-6s %-3s %-12s %-9s %26s %26s %26s %8s %8s %8s\n" hash thr libc config \
  "first: median (min..max)" "use: median (min..max)" "again: median (min..max)" "first x" \
  "f+use x" "again x"
for hash in 1024 4096; do
  for threads in 1 2; do
    for libc in "${LIBCS[@]}"; do
      for c in "${SF_CONFIGS[@]}"; do
        for k in first use both again; do : >"$WORK/$k-$libc-$c"; done
      done
    done
    for ((r = 0; r < RUNS; ++r)); do
      for libc in "${LIBCS[@]}"; do
        for c in "${SF_CONFIGS[@]}"; do
          engine "$libc" "$c"
          python3 "$UCI_CLEARS" --hash "$hash" --threads "$threads" --clears 5 --nodes 100000 \
            --settle 3 -- "${ENGINE[@]}" >"$WORK/sf.out" 2>"$WORK/sf.err" ||
            { cat "$WORK/sf.err" >&2; exit 1; }
          for k in first use again; do
            awk -v k="$k" '$1 == k {print $2}' "$WORK/sf.out" >>"$WORK/$k-$libc-$c"
          done
          awk '$1 == "first" || $1 == "use" {s += $2} END {print s}' "$WORK/sf.out" \
            >>"$WORK/both-$libc-$c"
        done
      done
    done
    for libc in "${LIBCS[@]}"; do
      read -r pf _ _ <<<"$(stats "$WORK/first-$libc-plain")"
      read -r pb _ _ <<<"$(stats "$WORK/both-$libc-plain")"
      read -r pa _ _ <<<"$(stats "$WORK/again-$libc-plain")"
      for c in "${SF_CONFIGS[@]}"; do
        read -r f fmin fmax <<<"$(stats "$WORK/first-$libc-$c")"
        read -r u umin umax <<<"$(stats "$WORK/use-$libc-$c")"
        read -r b _ _ <<<"$(stats "$WORK/both-$libc-$c")"
        read -r a amin amax <<<"$(stats "$WORK/again-$libc-$c")"
        awk -v h="$hash" -v t="$threads" -v l="$(libc_name "$libc")" -v c="$c" -v f="$f" \
          -v fmin="$fmin" -v fmax="$fmax" -v u="$u" -v umin="$umin" -v umax="$umax" -v b="$b" \
          -v a="$a" -v amin="$amin" -v amax="$amax" -v pf="$pf" -v pb="$pb" -v pa="$pa" 'BEGIN {
            printf "%-6s %-3s %-12s %-9s %9.1f (%6.1f..%7.1f) %9.1f (%6.1f..%7.1f) " \
              "%9.1f (%6.1f..%7.1f) %7.2fx %7.2fx %7.2fx\n", h, t, l, c, f, fmin, fmax, u, umin,
              umax, a, amin, amax, pf / f, pb / b, pa / a }'
      done
    done
  done
done
echo "x: plain's median under the same glibc / the configuration's (above 1: faster than plain);"
echo "f+use: the median of each engine's first clear plus its search after it"
