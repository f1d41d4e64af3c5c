#!/bin/sh
# Install (as root, with apt-get) or demand what tkc needs to build and test.
#   sh tests/deps.sh         what building and testing need (make deps)
#   sh tests/deps.sh extra   what widens tests and reports (make deps-extra): cmake and
#                            pkg-config (eco tests SKIP without them), gnuplot (the plot
#                            in make bench's report)
# Optional for make deps: llvm-19-dev (--target=nvptx; tkc builds without it) is installed
# when this runs as root with apt-get, and otherwise only named.
need=""
if [ "${1:-}" = extra ]; then
  command -v cmake      >/dev/null 2>&1 || need="$need cmake"
  command -v pkg-config >/dev/null 2>&1 || need="$need pkg-config"
  command -v gnuplot    >/dev/null 2>&1 || need="$need gnuplot-nox"
else
  command -v re2c  >/dev/null 2>&1 || need="$need re2c"
  command -v bison >/dev/null 2>&1 || need="$need bison"
  command -v cc    >/dev/null 2>&1 || need="$need gcc"
  command -v make  >/dev/null 2>&1 || need="$need make"
  [ -e /usr/include/cblas.h ] || [ -e /usr/include/x86_64-linux-gnu/cblas.h ] || \
    [ -e /usr/include/openblas/cblas.h ] || need="$need libopenblas-dev"
  # the launch tests (tests/robust) call every kernel through its DLPack entry
  [ -e /usr/include/dlpack/dlpack.h ] || need="$need libdlpack-dev"
fi
optional() {
  [ "${1:-}" = extra ] && return 0
  [ -x /usr/lib/llvm-19/bin/llvm-config ] && [ -e /usr/lib/llvm-19/include/llvm-c/Core.h ] && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "tkc: installing: llvm-19-dev (optional: --target=nvptx)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q llvm-19-dev >/dev/null 2>&1 || {
      apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q llvm-19-dev >/dev/null 2>&1; } ||
      echo "tkc: apt-get install llvm-19-dev failed: building without --target=nvptx"
  else
    echo "tkc: optional: llvm-19-dev for --target=nvptx (sudo apt-get install llvm-19-dev)"
  fi
  return 0
}
optional "${1:-}"
[ -z "$need" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "tkc: installing:$need"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q $need >/dev/null 2>&1 || { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q $need >/dev/null; } || {
    echo "tkc: apt-get install$need failed"; exit 1; }
else
  echo "tkc: missing:$need — install them (Debian/Ubuntu: sudo apt-get install$need)"; exit 1
fi
