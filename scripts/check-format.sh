#!/usr/bin/env bash
# Fails, naming the files and lines, where clang-format (the tree's .clang-format) would change
# one of the tree's own C and C++ sources. Usage: scripts/check-format.sh [CLANG_FORMAT]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
CLANG_FORMAT="${1:-clang-format}"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files -co --exclude-standard '*.c' '*.cpp' '*.h' '*.hpp')
else # an unpacked archive: everything but dependencies and build directories
  mapfile -t files < <(find . -path ./.deps -prune -o -path './build*' -prune -o -type f \
    \( -name '*.c' -o -name '*.cpp' -o -name '*.h' -o -name '*.hpp' \) -print)
fi
if ! "$CLANG_FORMAT" --dry-run --Werror "${files[@]}"; then
  echo "clearjit: the files above are not formatted: $CLANG_FORMAT -i FILE" >&2
  exit 1
fi
echo "clearjit: ${#files[@]} sources formatted as .clang-format says" >&2
