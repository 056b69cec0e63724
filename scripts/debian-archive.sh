# Sourced by the fetch scripts: debian_archive prints the Debian archive that this machine's apt
# uses, read from its own sources as apt reads them (deb822 or one-line, /etc/apt/sources.list
# and sources.list.d). CLEARJIT_DEBIAN_MIRROR overrides it. No archive's name is written here.
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
