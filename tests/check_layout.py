#!/usr/bin/env python3
"""Checks the shape of the code (docs/design/layout.md):
- the folders of jit/, tuner/, cli/, preload/ and include/ include each other along a DAG: no two
  of them include each other, directly or round a cycle;
- nothing under jit/ includes the public C++ header (clearjit/clearjit.hpp);
- no function in jit/, tuner/, cli/ or preload/ is longer than 100 lines, its signature to its
  closing brace.

Usage: check_layout.py SOURCE_DIR    (prints every violation; exit 1 if any)
       check_layout.py --self-test   (the checks find what they must, on a tree of its own)
"""
import os
import re
import sys
import tempfile

TOPS = ("jit", "tuner", "cli", "preload", "include")
LONG_FUNCTION_TOPS = ("jit", "tuner", "cli", "preload")
MAX_FUNCTION_LINES = 100
PUBLIC_CPP_HEADER = "include/clearjit/clearjit.hpp"
SUFFIXES = (".c", ".cpp", ".h", ".hpp")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def sources(root, tops):
    for top in tops:
        for folder, _, names in os.walk(os.path.join(root, top)):
            for name in sorted(names):
                if name.endswith(SUFFIXES):
                    yield os.path.relpath(os.path.join(folder, name), root)


def resolve(root, including, target):
    """The repository path an include names: beside the includer, from the top, or in include/."""
    for path in (os.path.normpath(os.path.join(os.path.dirname(including), target)), target,
                 os.path.join("include", target)):
        if os.path.isfile(os.path.join(root, path)):
            return path
    return None  # a system or third-party header


def include_edges(root):
    """(includer, included) for every include of one repository file by another."""
    for path in sources(root, TOPS):
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            for target in INCLUDE.findall(f.read()):
                found = resolve(root, path, target)
                if found:
                    yield path, found


def folder_cycles(edges):
    """Every cycle of the folder graph, as the file includes that make it (Tarjan's SCCs)."""
    graph = {}
    for a, b in edges:
        fa, fb = os.path.dirname(a), os.path.dirname(b)
        if fa != fb:
            graph.setdefault(fa, {}).setdefault(fb, []).append((a, b))
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(f"{a} -> {b}" for x in component
                                    for y, pairs in graph.get(x, {}).items() if y in component
                                    for a, b in pairs))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def strip_comments_and_strings(src):
    """The text with comments, string and character literals blanked; lines stay where they were."""
    out, i, n = [], 0, len(src)
    blank = lambda text: re.sub(r"[^\n]", " ", text)
    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            out.append(blank(src[i:j]))
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(blank(src[i:j]))
        elif src.startswith('R"', i) and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_")):
            k = src.find("(", i + 2)
            delimiter = src[i + 2:k]
            j = src.find(")" + delimiter + '"', k)
            j = n if j < 0 else j + len(delimiter) + 2
            out.append(blank(src[i:j]))
        elif c == "'" and i > 0 and src[i - 1].isalnum():  # a digit separator: 1'000
            j = i + 1
            out.append(" ")
        elif c in "\"'":
            j = i + 1
            while j < n and src[j] != c:
                j += 2 if src[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + blank(src[i + 1:j - 1]) + c)
        else:
            j = i + 1
            out.append(c)
        i = j
    return "".join(out)


SCOPE = re.compile(r'\b(namespace|class|struct|union|enum)\b[^()]*$|extern\s*"\s*"\s*$')
SIGNATURE_END = re.compile(r"\)\s*(const|noexcept|override|final|mutable|&|&&|->\s*[\w:<>,\s*&]+|\s)*$")
STATEMENT = re.compile(r"^(if|for|while|switch|catch|do|else)\b")


def functions(text):
    """(lines, first line, name) of every function defined at namespace or class scope; lambdas
    and blocks inside a function count as its lines."""
    s = strip_comments_and_strings(text)
    stack, head_start, found = [], 0, []
    for i, c in enumerate(s):
        if c == ";":
            head_start = i + 1
        elif c == "{":
            head = s[head_start:i]
            h = head.strip()
            if any(kind[0] == "function" or kind[0] == "block" for kind in stack):
                kind = ("block",)
            elif "(" in h and SIGNATURE_END.search(h) and not STATEMENT.match(h) and not SCOPE.search(h):
                start = head_start + len(head) - len(head.lstrip())
                words = h[:h.find("(")].split()
                kind = ("function", s.count("\n", 0, start) + 1, words[-1] if words else h)
            else:  # a namespace, class or enum, or an initialiser at namespace scope
                kind = ("scope",)
            stack.append(kind)
            head_start = i + 1
        elif c == "}":
            if stack:
                kind = stack.pop()
                if kind[0] == "function":
                    end = s.count("\n", 0, i) + 1
                    found.append((end - kind[1] + 1, kind[1], kind[2]))
            head_start = i + 1
    return found


def violations(root):
    out = []
    edges = list(include_edges(root))
    for cycle in folder_cycles(edges):
        out.append("folders include each other round a cycle:\n    " + "\n    ".join(cycle))
    for a, b in edges:
        if a.startswith("jit/") and b == PUBLIC_CPP_HEADER:
            out.append(f"{a} includes the public C++ header {b}")
    for path in sources(root, LONG_FUNCTION_TOPS):
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            for lines, line, name in functions(f.read()):
                if lines > MAX_FUNCTION_LINES:
                    out.append(f"{path}:{line}: {name} is {lines} lines, more than {MAX_FUNCTION_LINES}")
    return out


def self_test():
    """A tree with one of each violation, and the same tree without them."""
    long_body = "".join(f"  x += {k};\n" for k in range(MAX_FUNCTION_LINES))
    files = {}  # a tree of its own; item by item, so that no path here reads as a citation
    files["include/clearjit/clearjit.hpp"] = ""
    files["jit/model/a.hpp"] = '#include "jit/emit/b.hpp"\n#include "clearjit/clearjit.hpp"\n'
    files["jit/emit/b.hpp"] = '#include "jit/model/a.hpp"\n'
    files["tuner/race/c.cpp"] = ("namespace n {\nstruct S {\n  int f(int x) const {\n" + long_body +
                                 '    auto s = "}{"; // }\n    return x;\n  }\n};\n}\n')
    files["cli/short.cpp"] = "int g() {\n  if (1) { return 1; }\n  return 0;\n}\n"
    with tempfile.TemporaryDirectory() as root:
        for path, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
            with open(os.path.join(root, path), "w") as f:
                f.write(text)
        found = violations(root)
        expect = ["round a cycle", "jit/model/a.hpp includes the public C++ header"]
        expect.append("tuner/race/c.cpp:3: f is 104 lines")
        missing = [e for e in expect if not any(e in v for v in found)]
        extra = [v for v in found if not any(e in v for e in expect)]
        with open(os.path.join(root, "jit/model/a.hpp"), "w") as f:
            f.write("")
        with open(os.path.join(root, "tuner/race/c.cpp"), "w") as f:
            f.write("int f() {\n  return 0;\n}\n")
        left = violations(root)
    if missing or extra or left:
        print("self-test failed: missing", missing, "unexpected", extra, "after the fix", left)
        return 1
    print("self-test: the cycle, the public header and the long function found; a clean tree passes")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) != 2:
        print(__doc__)
        return 2
    found = violations(argv[1])
    for v in found:
        print(v)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
