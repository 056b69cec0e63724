#!/usr/bin/env python3
"""Compiles and runs the README's C and C++ examples as written.

Usage: readme_examples.py README.md INCLUDE_DIR LIBCLEARJIT_SO CC CXX

Every fenced ```c or ```cpp block that uses clearjit (clearjit_..., cjit::) is one example,
compiled with clearjit.h (C) or clearjit.hpp (C++) included. Its #include lines go to the top of
a file; the rest becomes the body of a function that has the buffers the
README's examples use declared around it (buf/len, pool/size, page: 512 pages) and, when the
block uses `cj` without opening it, a handle from clearjit_open(NULL). The buffers are filled
with a non-zero byte first; every buffer the example names must be all zero afterwards.
"""
import os
import re
import subprocess
import sys
import tempfile

BUFFERS = {"buf": ("len", 3000), "pool": ("size", 1 << 20), "page": (None, 512 * 4096)}


def examples(readme):
    for m in re.finditer(r"^```(c|cpp)\n(.*?)^```", readme, re.S | re.M):
        lang, body = m.group(1), m.group(2)
        if "clearjit_" in body or "cjit::" in body:
            line = readme.count("\n", 0, m.start()) + 1
            yield lang, body, line


def program(lang, body):
    includes = [l for l in body.splitlines() if l.startswith("#include")]
    code = "\n".join(l for l in body.splitlines() if not l.startswith("#include"))
    cpp = lang == "cpp"
    head = ["#include <stdio.h>", "#include <stdlib.h>", "#include <string.h>"]
    if cpp:
        head += ["#include <cstdio>", "#include <optional>", "#include <string>",
                 "#include <clearjit/clearjit.hpp>"]
    else:
        head += ["#include <clearjit/clearjit.h>"]
    out = head + includes + [""]
    for name, (size_name, size) in BUFFERS.items():
        out.append(f"static unsigned char {name}_storage[{size}];")
    out.append("static int example(void) {")
    for name, (size_name, size) in BUFFERS.items():
        out.append(f"  unsigned char *{name} = {name}_storage;")
        if size_name:
            out.append(f"  size_t {size_name} = sizeof {name}_storage;")
    opens = re.search(r"\bcj\b", code) and not re.search(r"clearjit \*cj\b", code)
    if opens:
        out.append("  clearjit *cj = clearjit_open(NULL, NULL, 0);")
        out.append("  if (!cj) return 1;")
    out.append("  {")
    out.append(code)
    out.append("  }")
    if opens:
        out.append("  clearjit_close(cj);")
    out.append("  return 0;")
    out.append("}")
    out.append("int main(void) {")
    for name in BUFFERS:
        out.append(f"  memset({name}_storage, 0xA5, sizeof {name}_storage);")
    out.append("  int rc = example();")
    out.append("  if (rc) return rc;")
    for name in BUFFERS:
        if re.search(rf"\b{name}\b", code):
            out.append(f"  for (size_t i = 0; i < sizeof {name}_storage; i++)")
            out.append(f"    if ({name}_storage[i]) {{ fprintf(stderr, \"{name}[%zu] not cleared\\n\", i); return 3; }}")
    out.append("  return 0;")
    out.append("}")
    return "\n".join(out) + "\n"


def main():
    readme, include, lib, cc, cxx = sys.argv[1:6]
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    found = list(examples(text))
    if len(found) < 5:
        print(f"expected at least 5 examples in {readme}, found {len(found)}")
        return 1
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, (lang, body, line) in enumerate(found):
            src = os.path.join(tmp, f"example{i}.{lang}")
            exe = os.path.join(tmp, f"example{i}")
            with open(src, "w", encoding="utf-8") as f:
                f.write(program(lang, body))
            compiler = [cxx, "-std=c++17"] if lang == "cpp" else [cc, "-std=c11"]
            cmd = compiler + ["-Wall", "-Wextra", "-Werror", "-Wno-unused-variable",
                              "-Wno-unused-but-set-variable", "-I", include, src, lib,
                              "-Wl,-rpath," + os.path.dirname(os.path.abspath(lib)), "-o", exe]
            what = f"{readme}:{line} ({lang})"
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                print(f"{what}: does not compile:\n{r.stderr}\n--- as compiled:\n"
                      + open(src, encoding="utf-8").read())
                failed += 1
                continue
            r = subprocess.run([exe], capture_output=True, text=True, timeout=60)
            if r.returncode != 0:
                print(f"{what}: exited with {r.returncode}:\n{r.stdout}{r.stderr}")
                failed += 1
                continue
            print(f"{what}: compiles and runs")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
