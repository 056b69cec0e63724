#!/bin/bash
# The settle/recycle matrix of docs/results/amd-family26-model2/new-table-clear-phases.txt.
# usage: experiments/first_clear_matrix.sh MIB ROUNDS, from the build folder's parent (needs
# build/clearjit_first_clear); one line per run on stdout.
set -eu
for r in $(seq 1 $2); do
  for state in settle recycle; do
    for mode in memset memset2 populate populate2 nohuge; do
      if [ $state = settle ]; then extra="3000"; else extra="0 recycle"; fi
      echo "$state $(build/clearjit_first_clear $1 $mode $extra)"
    done
  done
done
