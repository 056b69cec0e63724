#!/usr/bin/env bash
# One 4 KiB page per call, cold, page after page and scattered: clearjit against glibc's memset
# under the system's glibc and another one, and against LLVM libc's (experiments/one_page.c).
# Usage: one-page.sh BUILD PROFILE|- [--libc DIR] [--processes N] [--rounds R] [--page BYTES]
#   BUILD      a build directory with clearjit_one_page
#   --libc     an unpacked glibc (scripts/fetch-libc.sh DIR prints one); none: the system's only
#   N          processes per glibc, run alternating (3); R rounds in each (15)
# Prints each method's median GB/s over the processes per glibc, then clearjit's against the
# best memset: the fastest of each glibc's memset and LLVM libc's, by those medians.
set -euo pipefail
usage() {
  sed -n '4,7p' "$0" >&2
  exit 2
}
[[ $# -ge 2 ]] || usage
BUILD="$1" PROFILE="$2"
shift 2
LIBC_DIR="" PROCESSES=3 ROUNDS=15 PAGE=4096
while [[ $# -gt 0 ]]; do
  case "$1" in
  --libc) LIBC_DIR="${2:?--libc takes a directory}" ;;
  --processes) PROCESSES="${2:?}" ;;
  --rounds) ROUNDS="${2:?}" ;;
  --page) PAGE="${2:?}" ;;
  *) usage ;;
  esac
  shift 2
done
[[ $PROCESSES =~ ^[1-9][0-9]?$ ]] || { echo "one-page: --processes takes 1..99" >&2; exit 2; }
HARNESS="$BUILD/clearjit_one_page"
[[ -x $HARNESS ]] || { echo "one-page: no $HARNESS (build the tools)" >&2; exit 2; }
[[ $PROFILE == - || -f $PROFILE ]] || { echo "one-page: $PROFILE: not a regular file" >&2; exit 2; }
runs=(run_system)
run_system() { "$HARNESS" "$PROFILE" "$ROUNDS" "$PAGE"; }
if [[ -n $LIBC_DIR ]]; then
  LOADER="$(find "$LIBC_DIR" -name ld-linux-x86-64.so.2 -type f -print -quit)"
  [[ -n $LOADER && -f "$(dirname "$LOADER")/libc.so.6" ]] ||
    { echo "one-page: --libc $LIBC_DIR: no ld-linux-x86-64.so.2 and libc.so.6" >&2; exit 2; }
  run_other() { "$LOADER" --library-path "$(dirname "$LOADER")" "$HARNESS" "$PROFILE" "$ROUNDS" "$PAGE"; }
  runs+=(run_other)
fi
OUT="$(mktemp)"
trap 'rm -f "$OUT"' EXIT
for ((p = 0; p < PROCESSES; ++p)); do
  for run in "${runs[@]}"; do
    "$run" >>"$OUT"
  done
done
echo "# clearjit_one_page $PROFILE $ROUNDS $PAGE: $PROCESSES process(es) per glibc, alternating; $(date -u '+%F %H:%M UTC')"
python3 - "$OUT" <<'EOF'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    if not line.startswith("one_page "):
        continue
    f = dict(kv.split("=", 1) for kv in line.split()[1:])
    rows.setdefault((f["pattern"], f["libc"], f["method"]), []).append(float(f["gbps"]))
med = {k: statistics.median(v) for k, v in rows.items()}
libcs = sorted({k[1] for k in med})
for pattern in ("consecutive", "scattered"):
    print(f"{pattern} (GB/s, medians over processes)")
    for libc in libcs:
        cells = "  ".join(f"{m} {med[(pattern, libc, m)]:6.2f}"
                          for m in ("memset", "llvm-libc", "clearjit", "clearjit-stream"))
        print(f"  glibc {libc}: {cells}")
    peers = {f"glibc {libc} memset": med[(pattern, libc, "memset")] for libc in libcs}
    peers["llvm-libc memset"] = statistics.median(
        [g for libc in libcs for g in rows[(pattern, libc, "llvm-libc")]])
    best = max(peers, key=peers.get)
    print(f"  best memset: {best} {peers[best]:.2f}")
    for libc in libcs:
        for m in ("clearjit", "clearjit-stream"):
            print(f"  {m} under glibc {libc}: {med[(pattern, libc, m)] / peers[best]:.2f}x the best")
EOF
