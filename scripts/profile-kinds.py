#!/usr/bin/env python3
"""profile-kinds.py PROFILE.toml [PROFILE.toml ...]

The kind of store each profile's reuse and stream tables use at every octave from 4 KiB to
1 GiB (memset, string instruction, temporal or non-temporal stores), side by side, and at how
many of those octaves every profile agrees: how much several tunes of one host agree."""
import sys
import tomllib

KINDS = {"libc": "memset", "stosb": "string", "stosq": "string", "mov": "temporal",
         "sse": "temporal", "avx2": "temporal", "avx512": "temporal"}


def kind(spec):
    method = spec.split(":")[0]
    return KINDS.get(method, "non-temporal")


def kernel_at(table, size):
    for c in table:
        if "below" not in c or size < c["below"]:
            return c["kernel"]
    return table[-1]["kernel"]


def main(paths):
    profiles = []
    for p in paths:
        with open(p, "rb") as f:
            profiles.append(tomllib.load(f))
    sizes = [4096 << k for k in range(19)]
    agree = total = 0
    for intent in ("reuse", "stream"):
        print(f"{intent}:")
        for size in sizes:
            kinds = []
            for pr in profiles:
                table = pr["dispatch"].get(intent) or pr["dispatch"]["reuse"]
                kinds.append(kind(kernel_at(table, size)))
            same = len(set(kinds)) == 1
            agree += same
            total += 1
            label = f"{size >> 20} MiB" if size >= 1 << 20 else f"{size >> 10} KiB"
            print(f"  {label:>9}  " + "  ".join(f"{k:<12}" for k in kinds) + ("" if same else "  *"))
    print(f"the kind of store agrees at {agree} of {total} octaves ({100 * agree / total:.0f}%)")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
