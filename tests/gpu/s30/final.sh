#!/bin/sh
# tests/gpu/s30/final.sh — session 30's closing benchmark (the code as
# session 29 left it: this session changed no generated kernel):
# tests/gpu/s19/final.sh, as sessions 27-29 ran it.
cd "$(dirname "$0")/../../.." || exit 2
BTO=${BTO:-300} MTO=${MTO:-250} OUT=$OUT sh tests/gpu/s19/final.sh
