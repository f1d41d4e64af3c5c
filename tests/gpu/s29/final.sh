#!/bin/sh
# tests/gpu/s29/final.sh — session 29's closing benchmark with the closing
# code (sdpa_relpos_bf16's key-row walks as versions of their own,
# lower/version.c): tests/gpu/s19/final.sh, as sessions 27 and 28 ran it.
cd "$(dirname "$0")/../../.." || exit 2
BTO=${BTO:-300} MTO=${MTO:-250} OUT=$OUT sh tests/gpu/s19/final.sh
