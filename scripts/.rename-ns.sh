#!/bin/sh
# one-off: C++ namespace clearjit -> cjit (the C API's struct clearjit owns the global name)
grep -rlE 'namespace clearjit|clearjit::' --include='*.cpp' --include='*.hpp' jit tuner cli tests include 2>/dev/null | while read f; do
  sed -i -E 's/namespace clearjit\b/namespace cjit/g; s/\bclearjit::(test\b)/cjit::\1/g; s/([^a-zA-Z_:]|^)clearjit::/\1cjit::/g' "$f"
done
