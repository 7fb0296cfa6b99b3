#!/usr/bin/env bash
# Installs the Debian packages wuc needs, skipping those already present, so a
# second run costs a few dpkg queries.  Needs root (or sudo) only when
# something is missing.
set -euo pipefail

packages=(
  cmake ninja-build gcc g++ make bison flex python3
  clang-14 libclang-14-dev libclang-cpp14-dev llvm-14-dev llvm-14-tools
  libclang-rt-14-dev libgtest-dev pkg-config
  libtsan2 libasan8 libubsan1  # gcc's sanitizer run-time libraries: libwuc-tsan.a and
                               # libwuc-asan.a are built only if a program links with them
  binutils                   # test/dropin, test/lit: readelf, nm, ar
  clang-format-14            # scripts/check_format.sh: the format check
  gdb                        # test/lit/debug: the debugger test
  spin                       # test/model: the select-protocol model check
)

missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
$sudo apt-get update
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
