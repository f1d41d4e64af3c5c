#!/bin/sh
# tests/gpu/s11rp/run2.sh PRE — session 11, helper s11-rp, device call 2:
# bench_attn.py on PRE/configs (tests/gpu/s11rp/pre2.sh), then the relpos run
# tests on the tree (cuda + nvptx, memcheck).
set -u
cd "$(dirname "$0")/../../.." || exit 2
PRE=${1:-pre2}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "== bench (same process, one config after another)"
ATTN_FORCE=1 PYTHONUNBUFFERED=1 timeout 120 python3 tests/gpu/bench_attn.py "$PRE/configs" 2>&1 | grep -v "^      vs "
echo "== relpos run tests (cuda + nvptx, memcheck)"
timeout 100 sh tests/gpu/run.sh relpos_bf16 relpos_bf16_n32 relpos_bf16_n128 relpos_bf16_d80 relpos_bf16_d128 2>&1 | tail -14
