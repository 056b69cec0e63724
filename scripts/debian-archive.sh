# Sourced by the fetch scripts: debian_archive prints the Debian archive that this machine's apt
# uses, read from its own sources as apt reads them (deb822 or one-line, /etc/apt/sources.list
# and sources.list.d). CLEARJIT_DEBIAN_MIRROR overrides it. No archive's name is written here.
# The helpers after it check a cached tree against the package it came from (tests/fetch_cache.sh).
debian_archive() {
  if [[ -n "${CLEARJIT_DEBIAN_MIRROR:-}" ]]; then
    echo "${CLEARJIT_DEBIAN_MIRROR%/}"
    return
  fi
  # The repositories whose Release file says Origin and Label Debian: the main archive (the
  # security archive is labelled Debian-Security). Needs the lists of one `apt-get update`.
  local uri
  uri="$(apt-get indextargets --format '$(REPO_URI)' "Created-By: Packages" "Origin: Debian" \
    "Label: Debian" 2>/dev/null | head -1)"
  if [[ -z "$uri" ]]; then
    echo "no Debian archive in this machine's apt sources, or no lists yet: run apt-get update," \
      "or set CLEARJIT_DEBIAN_MIRROR to the archive's address" >&2
    return 1
  fi
  echo "${uri%/}"
}

# has_sha256 FILE HASH: FILE exists and its SHA-256 is HASH.
has_sha256() {
  [[ -f $1 && ! -L $1 && "$(sha256sum <"$1" | cut -d' ' -f1)" == "$2" ]]
}

# same_tree A B: the two folders hold the same names, kinds, modes, link targets and contents.
same_tree() {
  [[ -d $1 && -d $2 ]] || return 1
  [[ "$(cd "$1" && find . -printf '%P %y %m %l\n' | LC_ALL=C sort)" == \
    "$(cd "$2" && find . -printf '%P %y %m %l\n' | LC_ALL=C sort)" ]] &&
    diff -r --no-dereference -q "$1" "$2" >/dev/null 2>&1
}

# keep_or_replace TREE FRESH WHO: a cached TREE is reused only where it is the twin of FRESH,
# unpacked just now from the package whose hash was checked; FRESH is then removed. Anything
# else (changed, added or removed files) is replaced by FRESH, and WHO says so on stderr.
keep_or_replace() {
  local tree="$1" fresh="$2" who="$3"
  if same_tree "$tree" "$fresh"; then
    rm -rf "$fresh"
    return
  fi
  [[ -e $tree || -L $tree ]] && echo "$who: $tree differs from its checked package: unpacked again" >&2
  rm -rf "$tree"
  mv "$fresh" "$tree"
}
