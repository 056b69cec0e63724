#!/usr/bin/env python3
"""Checks the documentation's structure: every relative link in README.md and docs/ resolves,
every file under docs/results/<cpu>/ is named in that folder's README.md (the index), no data
file name carries an ordinal or is a patch, and README.md stays within 400 lines.

Usage: check_docs.py SOURCE_DIR
"""
import os
import re
import sys

ORDINALS = re.compile(r"(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|"
                      r"run\d)\b", re.I)


def markdown_files(root):
    yield os.path.join(root, "README.md")
    for base, _, files in os.walk(os.path.join(root, "docs")):
        for f in files:
            if f.endswith(".md"):
                yield os.path.join(base, f)


def main(root):
    errors = []
    for md in markdown_files(root):
        text = open(md, encoding="utf-8").read()
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            path = os.path.normpath(os.path.join(os.path.dirname(md), target.split("#")[0]))
            if not os.path.exists(path):
                errors.append(f"{os.path.relpath(md, root)}: link to a missing file: {target}")
    results = os.path.join(root, "docs", "results")
    for cpu in sorted(os.listdir(results)):
        folder = os.path.join(results, cpu)
        index = os.path.join(folder, "README.md")
        if not os.path.isfile(index):
            errors.append(f"docs/results/{cpu}: no README.md index")
            continue
        named = set(re.findall(r"\]\(([^)\s#]+)", open(index, encoding="utf-8").read()))
        for f in sorted(os.listdir(folder)):
            if f == "README.md":
                continue
            if f not in named:
                errors.append(f"docs/results/{cpu}/{f}: not named in the folder's README.md")
            if ORDINALS.search(f) or f.endswith((".patch", ".diff")):
                errors.append(f"docs/results/{cpu}/{f}: an ordinal or a patch in the name")
    lines = open(os.path.join(root, "README.md"), encoding="utf-8").read().count("\n")
    if lines > 400:
        errors.append(f"README.md: {lines} lines, more than 400")
    for e in errors:
        print(e)
    print(f"{len(errors)} documentation problems")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
