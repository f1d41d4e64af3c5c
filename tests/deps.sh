#!/bin/sh
# Install (as root, with apt-get) or demand what tkc needs to build and test.
need=""
command -v re2c  >/dev/null 2>&1 || need="$need re2c"
command -v bison >/dev/null 2>&1 || need="$need bison"
command -v cc    >/dev/null 2>&1 || need="$need gcc"
command -v make  >/dev/null 2>&1 || need="$need make"
[ -e /usr/include/cblas.h ] || [ -e /usr/include/x86_64-linux-gnu/cblas.h ] || \
  [ -e /usr/include/openblas/cblas.h ] || need="$need libopenblas-dev"
[ -z "$need" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "tkc: installing:$need"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q $need >/dev/null 2>&1 || { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q $need >/dev/null; } || {
    echo "tkc: apt-get install$need failed"; exit 1; }
else
  echo "tkc: missing:$need — install them (Debian/Ubuntu: sudo apt-get install$need)"; exit 1
fi
