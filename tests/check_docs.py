#!/usr/bin/env python3
"""Checks the documentation's structure: every relative link in README.md and docs/ resolves,
every file under docs/results/<cpu>/ is named in that folder's README.md (the index), no data
file name carries an ordinal or is a patch, README.md stays within 400 lines, and every
repository path that a Markdown file or a source file's comment cites exists (cited_paths).

Usage: check_docs.py SOURCE_DIR
"""
import io
import os
import re
import subprocess
import sys
import tokenize

ORDINALS = re.compile(r"(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|"
                      r"run\d)\b", re.I)

# Cited paths (cited_paths). The files read: every Markdown file whole, but the measurements in
# docs/results/<cpu>/ (program output: its paths are the measuring host's), and the comments and
# Python docstrings of every C, C++, shell, Python and CMake file.
SOURCE_SUFFIXES = (".c", ".cpp", ".h", ".hpp", ".sh", ".py", ".cmake")
SOURCE_NAMES = ("CMakeLists.txt",)
# A path token is a run of these characters: a space, quote, comma, colon, parenthesis or
# backquote ends it. URLs are taken out first.
TOKEN = re.compile(r"[\w.+\-/~$<>*{}?%@]+")
URL = re.compile(r"\b[a-z][a-z0-9+.-]*://\S+")
# A wildcard or placeholder (a glob's star, <cpu>, $VARIABLE, ~, an ellipsis): only the folders
# before it are checked.
WILDCARD = re.compile(r"[~$<>*{}?%@]|\.\.\.")
# A name without a folder is a path when it ends like the repository's C and C++ sources: a file
# of that name must exist somewhere in the repository.
BARE_SUFFIXES = (".c", ".cpp", ".h", ".hpp")
# A commit (hex digits, with a letter and a digit) in a paragraph that says "history": a path gone
# from the tree passes if it existed at that commit ("git history:
# docs/small-amd-family26-model2.txt at 39375de").
COMMIT = re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b")

# The allow-list. Absolute paths in these folders are the host's (the profile lookup's
# /etc/clearjit, sysfs and procfs reads, temporaries, /dev/null, /bin/true and /usr/bin/env);
# any other absolute path (a checkout's, a session's folder) is outside the repository.
HOST_FOLDERS = ("/bin/", "/dev/", "/etc/", "/proc/", "/sys/", "/tmp/", "/usr/")
# Tokens that look like repository paths but are not.
NOT_REPOSITORY_PATHS = {
    "../lib": "where an installed clearjit finds the preload, relative to its bin/ folder",
    "a64formatter.cpp": "AsmJit's source, which CMakeLists.txt leaves out of the build",
}


def markdown_files(root):
    yield os.path.join(root, "README.md")
    for base, _, files in os.walk(os.path.join(root, "docs")):
        for f in files:
            if f.endswith(".md"):
                yield os.path.join(base, f)


def repository_files(root):
    """Every file under root, relative, but for hidden folders and top-level build* folders."""
    for base, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and
                         not (base == root and d.startswith("build")))
        for f in sorted(files):
            yield os.path.relpath(os.path.join(base, f), root)


RAW_STRING = re.compile(r'(?<![\w])(?:u8|[uUL])?R"([^(\s]{0,16})\(')


def find(text, what, start):
    """text.find, but the text's end where `what` is not found."""
    at = text.find(what, start)
    return len(text) if at < 0 else at


def c_comments(text):
    """(line, text) of every // and /* */ comment, past string, character and raw literals."""
    i, line, n = 0, 1, len(text)
    while i < n:
        raw = RAW_STRING.match(text, i)
        if text.startswith("//", i):
            end = find(text, "\n", i)
            yield line, text[i + 2:end]
            i = end
        elif text.startswith("/*", i):
            end = find(text, "*/", i)
            for k, part in enumerate(text[i + 2:end].split("\n")):
                yield line + k, part
            line += text.count("\n", i, end)
            i = end + 2
        elif raw:
            end = find(text, ")" + raw.group(1) + '"', raw.end())
            line += text.count("\n", i, end)
            i = end + 1
        elif text[i] == '"' or (text[i] == "'" and not text[i - 1:i].isdigit()):  # not 1'000
            j = i + 1  # a literal ends at its quote or, unterminated, at the line's end
            while j < n and text[j] not in (text[i], "\n"):
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        else:
            line += text[i] == "\n"
            i += 1


def hash_comments(text):
    """(line, text) of every # comment of a shell or CMake file: a # that starts a word outside
    quotes on its line; not the #! line."""
    for number, line in enumerate(text.split("\n"), 1):
        quote = None
        for i, c in enumerate(line):
            if quote:
                quote = None if c == quote else quote
            elif c in "\"'":
                quote = c
            elif c == "#" and (i == 0 or line[i - 1].isspace()):
                if not line.startswith("#!"):
                    yield number, line[i + 1:]
                break


def python_comments(text):
    """(line, text) of every comment and docstring of a Python file."""
    previous = tokenize.NEWLINE
    for t in tokenize.generate_tokens(io.StringIO(text).readline):
        if t.type == tokenize.COMMENT or (t.type == tokenize.STRING and previous in (
                tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT)):
            for k, part in enumerate(t.string.split("\n")):
                yield t.start[0] + k, part
        if t.type != tokenize.COMMENT:
            previous = t.type


def cited_texts(root, rel):
    """(line, text) of the parts of the file `rel` whose paths are checked, or nothing."""
    name = os.path.basename(rel)
    parts = rel.split(os.sep)
    if parts[:2] == ["docs", "results"] and name != "README.md":
        return []
    if not (rel.endswith(SOURCE_SUFFIXES + (".md",)) or name in SOURCE_NAMES):
        return []
    text = open(os.path.join(root, rel), encoding="utf-8", errors="replace").read()
    if rel.endswith(".md"):
        return enumerate(text.split("\n"), 1)
    if rel.endswith(".py"):
        return python_comments(text)
    if rel.endswith((".sh", ".cmake")) or name in SOURCE_NAMES:
        return hash_comments(text)
    return c_comments(text)


def paragraphs(lines):
    """Runs of consecutive, non-blank (line, text) pairs."""
    run = []
    for number, text in lines:
        if run and (number != run[-1][0] + 1 or not text.strip()):
            yield run
            run = []
        if text.strip():
            run.append((number, text))
    if run:
        yield run


def in_history(root, commit, path):
    """Whether `path` existed at `commit`; True where git cannot tell (no git, not a checkout,
    a shallow clone or a copy without that commit)."""
    def exists(name):
        try:
            return subprocess.run(["git", "-C", root, "cat-file", "-e", name],
                                  capture_output=True).returncode == 0
        except OSError:
            return False
    return exists(f"{commit}:{path}") or not exists(f"{commit}^{{commit}}")


def outside(path):
    return path.startswith("/") or path == ".." or path.startswith("../")


def missing(token, root, folder, entries, names):
    """The path that `token`, cited in `folder`, names when it is a repository path that does
    not exist (relative to the root: ../ when it leaves it; or absolute); None when it exists or
    is not a repository path."""
    if token in NOT_REPOSITORY_PATHS:
        return None
    wildcard = WILDCARD.search(token)
    if wildcard:
        token = token[:token.rfind("/", 0, wildcard.start()) + 1]  # the folders before it
    else:
        token = token.rstrip(".")  # a sentence's full stop
    if token.startswith("/"):
        if not re.match(r"/[A-Za-z_]", token):
            return None  # `//`, `stosb`/256
        return None if (token.rstrip("/") + "/").startswith(HOST_FOLDERS) else token
    if "/" not in token:
        return token if token.endswith(BARE_SUFFIXES) and token not in names else None
    first = token.split("/")[0]
    relative = first in (".", "..")  # ./ and ../: from the citing file's folder or the root
    if not relative and first not in entries[""] and first not in entries[folder]:
        return None  # another project's path (libc/src/...), a ratio (GB/s)
    for base in (folder, ""):
        path = os.path.normpath(os.path.join(base, token))
        if not outside(path) and os.path.exists(os.path.join(root, path)):
            return None
    return os.path.normpath(os.path.join(folder if relative else "", token))


def cited_paths(root):
    """file:line: PATH does not exist, for every path that a Markdown file or a source comment
    cites and the repository does not have. A token is such a path when its first folder is a
    name at the root or in the citing file's folder (read from either), when it starts with ./
    or ../, when it is absolute outside HOST_FOLDERS, or when it is a bare C or C++ file name."""
    files = list(repository_files(root))
    names = {os.path.basename(f) for f in files}
    entries = {}  # folder -> the names in it
    for f in files:
        parts = f.split(os.sep)
        for k in range(len(parts)):
            entries.setdefault(os.sep.join(parts[:k]), set()).add(parts[k])
    errors = []
    for rel in files:
        folder = os.path.dirname(rel)
        for paragraph in paragraphs(cited_texts(root, rel)):
            words = " ".join(text for _, text in paragraph)
            commits = COMMIT.findall(words) if "history" in words.lower() else []
            for number, text in paragraph:
                for token in TOKEN.findall(URL.sub(" ", text)):
                    path = missing(token, root, folder, entries, names)
                    if path is None:
                        continue
                    if not outside(path) and any(in_history(root, c, path) for c in commits):
                        continue  # a file of the history
                    where = " (outside the repository)" if outside(path) else ""
                    errors.append(f"{rel}:{number}: {token.rstrip('.')} does not exist{where}")
    return errors


def main(root):
    root = os.path.abspath(root)
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
    errors += cited_paths(root)
    for e in errors:
        print(e)
    print(f"{len(errors)} documentation problems")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
