#!/usr/bin/env bash
# Warm tiny clears, 1..64 B, through clearjit.h's inline call against glibc's and LLVM libc's
# memset, each compiled into its own loop as a program calls it (experiments/tiny_warm.c), in
# several fresh processes: one placement of the code and one moment each.
# Usage: tiny-warm.sh BUILD PROFILE|- [--libc DIR] [--processes N] [--rounds R]
#   BUILD      a build directory with clearjit_tiny_warm
#   --libc     an unpacked glibc (scripts/fetch-libc.sh DIR prints one); none: the system's only
#   N          processes per glibc, run alternating (10); R rounds in each (9)
# Prints, per glibc and size, clearjit's speed over each memset's (the inverse of the time
# ratio): the median over the processes and the worst process, and which process that was.
set -euo pipefail
usage() {
  sed -n '5,8p' "$0" >&2
  exit 2
}
[[ $# -ge 2 ]] || usage
BUILD="$1" PROFILE="$2"
shift 2
LIBC_DIR="" PROCESSES=10 ROUNDS=9
while [[ $# -gt 0 ]]; do
  case "$1" in
  --libc) LIBC_DIR="${2:?--libc takes a directory}" ;;
  --processes) PROCESSES="${2:?}" ;;
  --rounds) ROUNDS="${2:?}" ;;
  *) usage ;;
  esac
  shift 2
done
[[ $PROCESSES =~ ^[1-9][0-9]?$ ]] || { echo "tiny-warm: --processes takes 1..99" >&2; exit 2; }
[[ $ROUNDS =~ ^[1-9][0-9]{0,2}$ ]] || { echo "tiny-warm: --rounds takes 1..999" >&2; exit 2; }
HARNESS="$BUILD/clearjit_tiny_warm"
[[ -x $HARNESS ]] || { echo "tiny-warm: no $HARNESS (build the tools)" >&2; exit 2; }
[[ $PROFILE == - || -f $PROFILE ]] || { echo "tiny-warm: $PROFILE: not a regular file" >&2; exit 2; }
runs=(run_system)
run_system() { "$HARNESS" "$PROFILE" "$ROUNDS"; }
if [[ -n $LIBC_DIR ]]; then
  LOADER="$(find "$LIBC_DIR" -name ld-linux-x86-64.so.2 -type f -print -quit)"
  [[ -n $LOADER && -f "$(dirname "$LOADER")/libc.so.6" ]] ||
    { echo "tiny-warm: --libc $LIBC_DIR: no ld-linux-x86-64.so.2 and libc.so.6" >&2; exit 2; }
  run_other() { "$LOADER" --library-path "$(dirname "$LOADER")" "$HARNESS" "$PROFILE" "$ROUNDS"; }
  runs+=(run_other)
fi
OUT="$(mktemp)"
trap 'rm -f "$OUT"' EXIT
for ((p = 0; p < PROCESSES; ++p)); do
  for run in "${runs[@]}"; do
    "$run" | sed "s/^tiny_warm /tiny_warm process=$p /" >>"$OUT"
  done
done
echo "# clearjit_tiny_warm $PROFILE $ROUNDS: $PROCESSES process(es) per glibc, alternating; $(date -u '+%F %H:%M UTC')"
python3 - "$OUT" <<'PY'
import statistics, sys
ns = {}  # (libc, size, method) -> {process: ns}
order = []
for line in open(sys.argv[1]):
    if not line.startswith("tiny_warm "):
        continue
    f = dict(kv.split("=", 1) for kv in line.split()[1:])
    if f["size"] not in order:
        order.append(f["size"])
    ns.setdefault((f["libc"], f["size"], f["method"]), {})[int(f["process"])] = float(f["ns"])
libcs = sorted({k[0] for k in ns})
for libc in libcs:
    print(f"glibc {libc}: ns per call (median over processes); clearjit's speed over each "
          "memset's: median over processes, worst process (#)")
    print(f"  {'size':>6} {'memset':>7} {'llvm':>7} {'clearjit':>8} {'exported':>8}"
          f"  {'vs memset':>20}  {'vs llvm-libc':>20}")
    for size in order:
        cell = {m: ns[(libc, size, m)] for m in ("memset", "llvm-libc", "clearjit", "exported")}
        med = {m: statistics.median(v.values()) for m, v in cell.items()}
        line = f"  {size:>6} {med['memset']:7.3f} {med['llvm-libc']:7.3f} {med['clearjit']:8.3f} {med['exported']:8.3f}"
        for peer in ("memset", "llvm-libc"):
            speed = {p: cell[peer][p] / cell["clearjit"][p] for p in cell["clearjit"]}
            worst = min(speed, key=speed.get)
            line += f"  {statistics.median(speed.values()):6.2f}x {speed[worst]:6.2f}x (#{worst})"
        print(line)
PY
