/*
 * lower/gpu_mm.h — the short names the tensor-core lowering files
 * (gpu_mma.c, gpu_wgmma.c, gpu_wgdt.c, gpu_tma.c) build per-thread IR with,
 * on a GpuMma: F the function, CUR where statements go, I/ty a TIR value's
 * instruction and type, ci an I32 constant, add/mul/op expressions, ref a
 * local's value, let a new local.
 */
#ifndef TKC_GPU_MM_H
#define TKC_GPU_MM_H

#include "gpu.h"

#define F (gpu_func(m->e))
#define CUR (gpu_cur(m->e))

static inline Instr *I(const GpuMma *m, int v) { return m->k->instrs.v[v]; }
static inline const TTy *ty(const GpuMma *m, int v) { return &m->k->instrs.v[v]->ty; }
static inline PirExpr *ci(GpuMma *m, int64_t v) { return gpu_i(m->e, v); }
static inline PirExpr *add(GpuMma *m, PirExpr *a, PirExpr *b) { return gpu_add(m->e, a, b); }
static inline PirExpr *mul(GpuMma *m, PirExpr *a, PirExpr *b) { return gpu_mul(m->e, a, b); }
static inline PirExpr *op(GpuMma *m, PirBinOp o, PirExpr *a, PirExpr *b) { return gpu_op(m->e, o, a, b); }
static inline PirExpr *ref(GpuMma *m, PirLocal *l) { return pir_ref(F, l); }
static inline PirLocal *let(GpuMma *m, const char *hint, PirExpr *x) { return gpu_let(m->e, hint, x); }

#endif
