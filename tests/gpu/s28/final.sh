#!/bin/sh
# tests/gpu/s28/final.sh — session 28's closing benchmark with the closing
# code (its defaults as session 27's: the two experiments stay off):
# tests/gpu/s19/final.sh, as tests/gpu/s27/final.sh runs it.
cd "$(dirname "$0")/../../.." || exit 2
BTO=${BTO:-300} MTO=${MTO:-250} OUT=$OUT sh tests/gpu/s19/final.sh
