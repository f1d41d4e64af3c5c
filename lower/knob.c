/*
 * lower/knob.c — the GPU lowering's experiment switches.
 *
 * Each is an environment variable that overrides one decision of the
 * lowering, so that a benchmark can time the alternatives of a change
 * without rebuilding tkc (tests/gpu/bench_*.sh pass them as VARIANTS).
 * They are not part of the language: a kernel's code is decided by its
 * source and the command line, and these exist to measure those decisions.
 * Every switch read anywhere is listed here, with what it does; reading an
 * unlisted name is a bug of tkc and stops it (so a misspelt switch never
 * silently does nothing).  The value is an integer; unset or empty means
 * the lowering's own choice.  The generated code depends on them only
 * through the source NVRTC or LLVM compiles, so the code cache keyed by that
 * source never mixes them up.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"

static const struct {
    const char *name, *what;
} knobs[] = {
    { "TKC_AHEAD", "0: loads of a run are issued in the run, not ahead of it" },
    { "TKC_CL_MODE", "1: pairs of blocks share no copies (but release each other's stages); 2: blocks launched in clusters of two each run alone (gpu_mma.c, \"pairs of blocks\")" },
    { "TKC_CL_SPLIT", "1: a pair shares an operand's copies of two or more boxes by each block issuing every other box of each iteration, not every other iteration's boxes (gpu_mma.c, \"pairs of blocks\")" },
    { "TKC_CLUSTER", "0: the launch option cluster = 2 changes nothing (gpu_mma.c, \"pairs of blocks\")" },
    { "TKC_RECOMP_HOIST", "K: an I64 tile of K or more recomputable ops (an offset such as b * s0 + h * s1 + rm * s2) defined outside a loop and read inside it is kept in registers, computed once (default 5; 0: every such tile recomputed at each read, in the loop too; gpu.c, plan_recomp)" },
    { "TKC_VERSIONS", "0: a GPU kernel with two or more top-level ifs with loops whose conditions the launcher can compute is compiled whole only, not also once per such if (lower/version.c)" },
    { "TKC_SKIP_ONE", "1: a multiply x * r[:, None] of f32 tiles in the MMA fragments (flash attention's acc * alpha[:, None]) is skipped by each warp whose factors are all exactly 1 (a vote; gpu.c, flush_one)" },
    { "TKC_ROUND_F16W", "0: an f32 tile cast to f16 that only stores transposed from the fragments read is rounded by the plain round trip, not through PA_ROUND_F16W (gpu.c, op_expr)" },
    { "TKC_CAST_AT_STORE", "0: an f32 tile cast to f16 / bf16 that only stores of that type read (through views) is rounded where it is cast too, not only by the store (gpu.c, op_expr)" },
    { "TKC_CLAMP_ONCE", "0: every lane mask against an I64 scalar bound (cols < N) clamps the bound to I32 itself, not once after the scalar (gpu.c, clamp_once)" },
    { "TKC_WG_N8", "0: a dot whose N is a multiple of 8 but not of 16 is never on tensor cores (else on sm_90a it may be on wgmma, gpu_mma.c n8_fits)" },
    { "TKC_EARLY_INV", "0: a wgmma dot's B operand defined before its loop staged before every dot, not once" },
    { "TKC_EPI_DB", "0: a TMA-stored wgmma epilogue writes its buffer's two 64 x 64 boxes, sends both and waits for their reads before the next pair (else one box at a time, alternating, waiting only for the reads of the store group before last; gpu.c, frag_store_tma)" },
    { "TKC_EPI_WAIT_IN", "1: a persistent kernel's TMA-stored epilogue's last store groups waited for at the end of every program (the global writes done, then the consumers' barrier), not once after the loop over programs (0: also in other kernels; gpu.c, epi_wait_all)" },
    { "TKC_EPI_LEAN", "0: a wgmma K loop's tile stored by the threads (NAME without a map of the result, NAME__nomap) a masked branch per pair of fragment slots, unrolled (frag_store), not through shared memory by one loop over each 64 x 64 box (gpu.c, frag_store_lean: a fraction of the code); 2 (default): in NAME only; 1: in NAME__nomap too (H100: 14-18% slower there on aligned tiles, doc/bench/h100-s12-s12-ir-1.log)" },
    { "TKC_EPI_WGBAR", "0: a warp-specialized kernel's TMA-stored epilogue synchronizes all consumer warpgroups on their common barrier (else each on a named barrier of its own, 4 + w, 128 threads)" },
    { "TKC_FIT_EPI", "0: a kernel with blocks > 1 whose shared memory does not fit blocks times keeps its attention epilogue's block-layout copy through shared memory (else lowered again with the epilogue in the fragments, gpu.c store_lay); 2: every kernel's epilogue in the fragments where it can" },
    { "TKC_KEY_OVERLAY", "0: the MMA staging region and the shared buffers first written after the key loops keep regions of their own instead of lying in those loops' stages (gpu.c plan_overlay)" },
    { "TKC_FIT_STAGES", "0: a kernel with blocks > 1 and stages > 2 keeps its stages where blocks copies of its shared memory do not fit the arch's" },
    { "TKC_FRAG_EPI", "0: the K loop's epilogue goes to the block layout through shared memory" },
    { "TKC_FRAG_TR", "0: store(p, trans(x)) of a tile x in fragments goes through shared memory; 1: each thread stores its own elements of x, transposed, at every size (gpu.c, store_lay; default: where the tile is over 8 KB)" },
    { "TKC_HOIST", "0: no loads hoisted to the top of loops around tensor-core dots" },
    { "TKC_KEY_MBAR", "1: the key loop's stages guarded by mbarriers instead of a block barrier" },
    { "TKC_KEY_PIPE", "0: no cp.async pipeline for the key loop of attention" },
    { "TKC_KEY_TMA", "0: the key loop's pipeline copies k and v by cp.async, not TMA (rank-4 maps); 2: TMA with empty/full mbarriers instead of the block barrier (with TKC_PINGPONG=1: ping-pong)" },
    { "TKC_KEY_WS", "0: never; 1: the TMA key loops of a two-warpgroup kernel (sdpa_tc at D >= 128) fed by a producer warpgroup (default: where the loads are at least 128 wide and there is one such loop, or several that each carry a dot pair: sdpa_tc at D >= 128): per-load full and per-stage empty mbarriers, no block barrier in the loop (gpu_mma.c, \"warp-specialized key loops\"); 2: each load's part of a stage released right after its dot's MMAs are waited for (else the stage at the head of the next iteration)" },
    { "TKC_KW_HEAD", "1: the consumers of a producer-fed key loop (TKC_KEY_WS) wait for all of a stage's loads at the head of their iteration, not each right before the dot that reads it (gpu_mma.c, kw_head)" },
    { "TKC_KEY_SKEW", "1: a key loop's TMA stages guarded by a named barrier that warpgroup 0 waits at and warpgroup 1 only arrives at, instead of the block barrier (the warpgroups may drift an iteration apart)" },
    { "TKC_KEY_STAGES", "the key loop pipeline's stages when the kernel sets none" },
    { "TKC_MBAR_SUSPEND_P", "N > 0: TKC_MBAR_SUSPEND for the key producer's waits for empty stages only" },
    { "TKC_MBAR_SUSPEND", "N > 0: mbarrier waits pass try_wait a suspend-time hint of N ns (a waiting thread sleeps until the phase completes instead of spinning; gpu_mma.c mbar_wait)" },
    { "TKC_MIN_CTAS", "N > 1: blocks per SM asked of the register allocator (0/1: none)" },
    { "TKC_MMA", "0: dot never on tensor cores" },
    { "TKC_MMA_LATE", "1/0: copies of the next stages after / before this stage's MMAs" },
    { "TKC_MMA_PIPE", "0: no cp.async/TMA pipeline for K loops feeding dot" },
    { "TKC_MMA_RES", "0: no resident (register) operands of dot" },
    { "TKC_MMA_STAGES", "the K loop pipeline's stages when the kernel sets none" },
    { "TKC_MM_PP", "1: a specialized persistent wgmma K loop of one consumer warpgroup (T = 128) runs two, each its own programs, taking turns (ping-pong)" },
    { "TKC_PACK_VAR", "0: a 16-bit var in the MMA fragments read only as the A operand of dots on tensor cores (attention's p) keeps one value to a float register, not two to a word as that operand takes them (gpu.c, plan_packed)" },
    { "TKC_PAR_COMPILE", "0: a module's functions compiled one after another, not in parallel threads (ptxas's --split-compile, LLVM one context per function; the same code either way); 2: NVRTC's --split-compile too (the same SASS for the stdlib's kernels, not for all: targets/cuda/nvrtc.c)" },
    { "TKC_PRINT_DEAD", "1: the CUDA printer prints both arms of an if with a constant test (if (true) { ... } else { dead }), as before s9-ln" },
    { "TKC_PERSIST", "1/0: overrides the launch option persistent" },
    { "TKC_PERSIST_ANY", "1: the launch option persistent applies to every kernel, not only to one whose K loop is warp-specialized" },
    { "TKC_UNALIGNED", "1: unaligned in-bounds operand chunks of a K loop by word loads staged through registers, one operand at a time (gpu_stage.c; the default in NAME__nomap kernels), 0: never; 2: both operands' loads at once" },
    { "TKC_PINGPONG", "1 (with TKC_KEY_MBAR=1 or TKC_KEY_WS): the two warpgroups of a key loop take turns at the tensor cores (named barriers; with TKC_KEY_WS and TKC_WG_PAIR both dots issued in a turn, q k^T waited for after it); default: in producer-fed key loops that carry a dot pair (sdpa_tc at D >= 128: gpu_mma.c fa3_plan); 0: never" },
    { "TKC_NOMAP_LEAN", "0: NAME__nomap's operand copies as before (copy_plain when every chunk is aligned, else the two-pass staged copy, both unrolled); 1 (default): one copy loop, not unrolled, a chunk at a time by cp.async, word loads or elements (gpu_mma.c, copy_lean: a fraction of the code)" },
    { "TKC_REPACK", "0: no tensor map marked repackable (PirParam.repack): the launcher runs NAME__nomap for a tensor whose rows are not 16-byte aligned instead of NAME on a padded copy" },
    { "TKC_ROW_ACC", "N (a power of 2): a row reduction of fragments keeps N partial results per thread and row (1: one chain)" },
    { "TKC_ROW_SHARE", "0: a row vector of one fragment grid read by another grid's lanes goes through shared memory unless the grids are equal" },
    { "TKC_SLAB_ZERO", "0: a conversion from the MMA fragments to the block layout done in slabs of rows does not zero its destination first (the default does, so that no register of it is live before the conversion: gpu_mma.c, to_block_into)" },
    { "TKC_SPLAT_FOLD", "1: integer and bool elementwise ops whose operands are all splats are computed once as scalars (lower/splat.c; measured no faster)" },
    { "TKC_STORE_MAP_OPT", "0: a result's tensor map (TMA stores) is required like the operands' (the launcher runs NAME__nomap, or repacks the result, when it cannot build it), not optional (PP_TMA_OK bit 1: stored by the threads)" },
    { "TKC_SPLIT", "0: one kernel testing tk_tma instead of a TMA kernel and a NAME__nomap one" },
    { "TKC_TMA", "0: no TMA copies (cp.async instead)" },
    { "TKC_TMA_STORE", "0: wgmma epilogues stored by the threads, not through shared memory by TMA; 2: the kernel's end waits only for their reads of shared memory" },
    { "TKC_WG_TRANS", "0: a pipelined wgmma dot of 16-bit operands given as trans(x) is not staged as x (B K-major, A M-major: the descriptors' transpose bits) but falls back to the unpipelined path" },
    { "TKC_TMAP_L2", "the L2 promotion of the tensor maps a header builds (CU_TENSOR_MAP_L2_PROMOTION_*: 0 none, 1 64B, 2 128B, the default, 3 256B)" },
    { "TKC_WG_CHAIN", "0: a single wgmma dot whose result is the next one's accumulator waited for on its own, not in one group with it" },
    { "TKC_WAIT_TWICE", "1 (default): after the K loop's guarded last wgmma wait (TKC_WAIT_RAN) a second one on every path, so that ptxas does not serialize the wgmma of a kernel whose epilogue reads the accumulators (C7514); 0: the guarded one alone (before s23)" },
    { "TKC_WAIT_RAN", "the K loop's last wgmma wait guarded by \"the loop ran\": 2 (default) in a TMA version only (LLVM's PTX: nowhere), 1 everywhere (before s12-ir2), 0 nowhere" },
    { "TKC_VAR_BACK", "0: a var keeps the layout of its updates even where all its reads are read in another one (gpu.c, var_back: then each read goes through shared memory)" },
    { "TKC_VERSION_TID", "0: the two copies of a versioned kernel body (gpu.c, emit_copy) share the thread index also where the kernel sets blocks (NVVM then hoists their common arithmetic above the vote); 2: each copy its own opaque index in every versioned kernel" },
    { "TKC_WARPS", "the warps of a kernel that sets none" },
    { "TKC_WGMMA", "0: K loop dots on mma.sync instead of wgmma" },
    { "TKC_WG_ATTN", "0: single dots (attention) on mma.sync instead of wgmma" },
    { "TKC_WG_DTYPE", "K loop dots on wgmma (gpu_wgdt.c): 1 tf32 (in NAME__nomap too), 2 i8, 3 both (the default; tf32 in the TMA version NAME only), 0 neither" },
    { "TKC_WGDT_CVT", "1: wgmma tf32 operands rounded by PA_CVT_TF32 (else integer adds; both to nearest even)" },
    { "TKC_WGDT_RA", "1: wgmma tf32's A from registers (ldmatrix, rounded there; not measured)" },
    { "TKC_WGDT_W0", "1: warp 0 (the TMA issuer) stays out of gpu_wgdt.c's rewrite of the operands" },
    { "TKC_WGDT_FENCE", "0: no proxy fence after gpu_wgdt.c's rewrite (timing only: unordered)" },
    { "TKC_WGDT_PREP", "0: no rewrite of tf32/s8 wgmma operands (timing only: wrong results)" },
    { "TKC_WGDT_BK", "0: a tf32 K loop's B = trans(x) not pipelined on wgmma (x staged K-major, no rewrite)" },
    { "TKC_WGDT_ROUND", "0: tf32 operands staged K-major not rounded in place (timing only: truncated)" },
    { "TKC_WGDT_BKRA", "0: tf32 K-major-B loops round A in place too (else A from registers, rounded there)" },
    { "TKC_WGDT_TMAROUND", "0: not; 1 (default): tf32 K-major-B loops whose operands both come by TMA: their maps of data type TFLOAT32 (TMA rounds as it copies), none rounded in place (A still from registers unless TKC_WGDT_BKRA=0)" },
    { "TKC_WGDT_PROUND", "1: warp-specialized tf32 K-major operands rounded by the producer's warps 1-3" },
    { "TKC_WGDT_AN", "0: a tf32 K loop dot(trans(load(y)), trans(load(x))) (c^T = b^T a^T: stdlib matmul_tf32) runs on mma.sync, not on wgmma with y staged N-major and wgmma's A loaded from it into registers (gpu_wgdt.c, \"N-major A\")" },
    { "TKC_WG_LB", "1: the TMA version's K loop reuses a stage after the wait for the MMAs before it, copies S - 1 ahead, its block barrier after that wait (lb_plan)" },
    { "TKC_WG_PAIR", "1: a single wgmma dot followed in its block by another that does not read it is waited for after that one's commit (wait_group 1), not on its own (sdpa_tc at D >= 128); default: where the warpgroups take turns in producer-fed loops (gpu_mma.c fa3_plan); 0: never" },
    { "TKC_DOT_RELOAD", "1: a dot off the tensor cores reads its loaded operands again from global memory at every k (reload), not through shared memory" },
    { "TKC_DOT_PAD", "0: the x of a dot's B = trans(x) off the tensor cores kept in shared memory without a padding element per row" },
    { "TKC_KEY_LATE", "1: a key loop's head barrier and TMA copies after its first wgmma dot's commit, not before its issue" },
    { "TKC_WG_BACKDEFER", "1: a key loop's last single wgmma dot (p v) waited for by the next iteration's first dot's wait (and after the loop); the stage's barrier and copies after that wait" },
    { "TKC_WG_DEFER", "1: a single wgmma dot waited for before the first instruction of its block that reads it (or holds blocks, or at the block end), not right after its commit" },
    { "TKC_WG_INFLIGHT", "0: every wgmma group waited for in its own iteration" },
    { "TKC_WG_ZERO", "1: a single wgmma dot whose accumulator operand is zeros skips the zeroing (its first k step ignores the accumulators; measured slower)" },
    { "TKC_WG_UNIFORM", "1 / 0: wgmma's shared addresses and descriptors from the warpgroup index broadcast from lane 0, which ptxas keeps in uniform registers, everywhere / nowhere (gpu_wgmma.c, warp_uniform; default: where the warpgroups take turns, sdpa_tc at D >= 128, and in the key loops of three consumer warpgroups with a producer; measured slower at D=64)" },
    { "TKC_WG_HOIST", "0: the warp-uniform warpgroup index (TKC_WG_UNIFORM) computed at each wgmma dot, not once at the top of the function (gpu_wgmma.c, gpu_wg_head)" },
    { "TKC_NVPTX_PLOAD", "0: --target=nvptx builds a masked global load as a branch around the load, not one predicated ld in inline asm (targets/nvptx/gen.c, pred_load)" },
    { "TKC_NVPTX_PSTORE", "0: --target=nvptx builds `if (c) store` to global memory as a branch around the store, not one predicated st in inline asm (targets/nvptx/gen.c, pred_store)" },
    { "TKC_NVPTX_ROTATE", "0: --target=nvptx's optimizer does not rotate loops (loop-rotate after simplifycfg: the exit test at the bottom, which lets ptxas keep loop-carried scalars in uniform registers; targets/nvptx/llvm.c)" },
    { "TKC_NVPTX_SSA", "0: --target=nvptx keeps every local that is not single-definition in an alloca (SROA makes registers of them), not in SSA values built by gen.c; 2 (for tests): each register array moves to an alloca at its first access, by building the function again, as one indexed by a variable does (targets/nvptx/gen.c, slot_of)" },
    { "TKC_WG_DINC", "0: a single wgmma dot's k step descriptors each built from its address; 1: B's the first one plus a constant, A's from their address (default 2: both the first plus a constant)" },
    { "TKC_WG_DOPAQUE", "1: the wgmma descriptors' low words through an opaque move (no hoisting)" },
    { "TKC_SWZ_SLACK", "1: 1024 bytes of slack after each swizzled shared-memory tile instead of aligned offsets" },
    { "TKC_WG_PROXY", "0: no fence.proxy.async before wgmma reads shared memory" },
    { "TKC_WS", "1/0: overrides the launch option specialize" },
    { "TKC_WS_ARRIVE", "0: every consumer thread releases a warp-specialized stage (not one per warpgroup)" },
    { "TKC_WS_NREG", "0: no setmaxnreg in warp-specialized kernels" },
};

int tkc_knob(const char *name, int dflt)
{
    for (size_t i = 0; i < sizeof knobs / sizeof *knobs; i++)
        if (!strcmp(knobs[i].name, name)) {
            const char *v = getenv(name);
            return v && *v ? atoi(v) : dflt;
        }
    fprintf(stderr, "tkc: internal error: experiment switch %s is not listed in lower/knob.c\n", name);
    abort();
}
