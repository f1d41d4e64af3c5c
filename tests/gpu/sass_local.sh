#!/bin/sh
# tests/gpu/sass_local.sh FILE.tk KERNEL [tkc options] — SASS of a kernel
# without a GPU: tkc's PTX (--emit=ptx, NVRTC), ptxas -arch=sm_90a (register
# and spill report), cuobjdump -sass, then the loops' instruction counts
# (tests/gpu/sass_loops.py).  cuobjdump and nvdisasm are not in this
# machine's CUDA; they come from PyPI's nvidia-cuda-cuobjdump and
# nvidia-cuda-nvdisasm wheels (pip download, unzipped into $SASS_TOOLS,
# default build/sass-tools; nothing is installed).  Output: $OUT (default
# build/sass)/KERNEL.{ptx,ptxas,sass}.
#
#   sh tests/gpu/sass_local.sh stdlib/attention.tk sdpa_relpos_bf16
#   sh tests/gpu/sass_local.sh stdlib/attention.tk sdpa_bf16 -D D=128
set -u
cd "$(dirname "$0")/../.." || exit 2
[ $# -ge 2 ] || { echo "usage: sh tests/gpu/sass_local.sh FILE.tk KERNEL [tkc options]"; exit 2; }
src=$1 kern=$2; shift 2
CUDA=${CUDA_HOME:-/usr/local/cuda}
T=${SASS_TOOLS:-build/sass-tools} O=${OUT:-build/sass}
mkdir -p "$T" "$O" || exit 2
if [ ! -x "$T/cuobjdump" ] || [ ! -x "$T/nvdisasm" ]; then
    for w in nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm; do
        python3 -m pip download -q --no-deps "$w" -d "$T/wheels" || { echo "sass_local: pip download $w failed"; exit 2; }
    done
    for f in "$T"/wheels/*.whl; do
        python3 -c "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])" "$f" "$T/x" || exit 2
    done
    for b in cuobjdump nvdisasm; do
        p=$(find "$T/x" -type f -name $b | head -1)
        [ -n "$p" ] || { echo "sass_local: no $b in the wheels"; exit 2; }
        cp "$p" "$T/$b" && chmod +x "$T/$b"
    done
fi
build/tkc "$src" --target=cuda --kernel="$kern" "$@" --emit=ptx -o "$O/$kern.ptx" || exit 1
"$CUDA/bin/ptxas" -arch=sm_90a -v -o "$O/$kern.cubin" "$O/$kern.ptx" >"$O/$kern.ptxas" 2>&1 || { cat "$O/$kern.ptxas"; exit 1; }
grep -E "Compiling|spill|Used" "$O/$kern.ptxas"
PATH=$T:$PATH cuobjdump -sass "$O/$kern.cubin" >"$O/$kern.sass" || exit 1
python3 tests/gpu/sass_loops.py "$O/$kern.sass"
