#!/usr/bin/env python3
"""Times a UCI chess engine's hash clears: starts COMMAND (a fresh engine, in this environment),
sets its threads, then times the first clear (`setoption name Hash`, which allocates, faults in
and clears the new table, until `readyok`) and CLEARS later ones (`ucinewgame`, which clears it
again, until `readyok`). With --nodes N, a search of N nodes from the start position (`go
nodes N`, until `bestmove`) comes before each later clear, as a game would: the first, `use`,
is where the table's pages are faulted in if the first clear left them untouched. Prints one
line per step: `first MS`, then per later clear `use MS` or `search MS` (with --nodes) and
`again MS`.

Usage: uci-clears.py --hash MIB --threads N [--clears K] [--nodes N] [--settle S] -- COMMAND...
       --settle S: wait S seconds before starting the engine, so that memory freed before has
       been handed back to the host where a VM's guest reports free memory
       (docs/design/fresh-memory.md). Used by scripts/real-programs.sh bench; exit 1 when the
       engine misbehaves.
"""
import argparse
import subprocess
import sys
import time

TIMEOUT_S = 120  # one command's answer; a 4 GiB table's first clear takes up to ~10 s


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hash", type=int, required=True)
    ap.add_argument("--threads", type=int, required=True)
    ap.add_argument("--clears", type=int, default=5)
    ap.add_argument("--nodes", type=int, default=0)
    ap.add_argument("--settle", type=float, default=0)
    ap.add_argument("command", nargs="+")
    a = ap.parse_args()
    if not (1 <= a.hash <= 1 << 20 and 1 <= a.threads <= 1024 and 0 <= a.clears <= 1000 and
            0 <= a.nodes <= 1 << 40 and 0 <= a.settle <= 600):
        ap.error("--hash 1..1048576, --threads 1..1024, --clears 0..1000, --nodes 0..2^40, "
                 "--settle 0..600")
    time.sleep(a.settle)
    engine = subprocess.Popen(a.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, bufsize=1)

    def send(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    def wait_for(word):  # a line that is `word` or starts with `word `
        deadline = time.monotonic() + TIMEOUT_S
        while time.monotonic() < deadline:
            line = engine.stdout.readline()
            if not line:
                sys.exit(f"uci-clears: the engine ended before '{word}'")
            if line.strip() == word or line.startswith(word + " "):
                return
        sys.exit(f"uci-clears: no '{word}' within {TIMEOUT_S} s")

    def search():
        t0 = time.perf_counter()
        send("position startpos")
        send(f"go nodes {a.nodes}")
        wait_for("bestmove")
        return (time.perf_counter() - t0) * 1e3

    def timed(commands):
        t0 = time.perf_counter()
        for c in commands:
            send(c)
        send("isready")
        wait_for("readyok")
        return (time.perf_counter() - t0) * 1e3

    try:
        send("uci")
        wait_for("uciok")
        timed([f"setoption name Threads value {a.threads}"])  # its threads and a 16 MiB table
        print(f"first {timed([f'setoption name Hash value {a.hash}']):.3f}", flush=True)
        for i in range(a.clears):
            if a.nodes:
                print(f"{'search' if i else 'use'} {search():.3f}", flush=True)
            print(f"again {timed(['ucinewgame']):.3f}", flush=True)
        send("quit")
        engine.stdin.close()
        if engine.wait(timeout=TIMEOUT_S) != 0:
            sys.exit(f"uci-clears: the engine exited with {engine.returncode}")
    finally:
        if engine.poll() is None:
            engine.kill()


if __name__ == "__main__":
    main()
