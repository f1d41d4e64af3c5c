/*
 * targets/nvptx/ll.h — what llvm.c, gen.c and math.c share: one LLVM module
 * under construction and its types.  Not an interface (nvptx.h is); only
 * files compiled with LLVM's headers include it.
 */
#ifndef TKC_NVPTX_LL_H
#define TKC_NVPTX_LL_H

#include <llvm-c/Core.h>

#include "nvptx.h"
#include "../../lower/pir.h"

#define LL_GLOBAL 1            /* NVPTX address spaces */
#define LL_SHARED 3

typedef struct Ll {
    LLVMContextRef c;
    LLVMModuleRef m;
    LLVMBuilderRef b;
    LLVMTypeRef t_void, t_i1, t_i8, t_i16, t_i32, t_i64, t_f32, t_f64, t_half, t_bf16;
    LLVMTypeRef t_gptr, t_sptr;        /* ptr addrspace(1), ptr addrspace(3) */
    LLVMValueRef smem;                 /* @tk_smem: external addrspace(3) [0 x i8], align 16 */
    bool host;                         /* TKC_NVPTX_HOST=1: for the CPU stand-in (see gen.c) */
    bool allocas;                      /* a local in memory: the optimizer runs SROA */
} Ll;

/* llvm.c */
LLVMTypeRef ll_reg_type(Ll *l, PirTy t);      /* in registers: BOOL i1, F16/BF16 i16 */
LLVMTypeRef ll_mem_type(Ll *l, PirTy t);      /* in memory: BOOL i8 */
/* A call of intrinsic `name` overloaded on types over[0..nover). */
LLVMValueRef ll_intrinsic(Ll *l, const char *name, LLVMTypeRef *over, int nover, LLVMValueRef *args,
                          int nargs);
/* A call of the external C function `name` (declared on first use). */
LLVMValueRef ll_call(Ll *l, const char *name, LLVMTypeRef ret, LLVMTypeRef *argt, LLVMValueRef *args, int nargs);
LLVMValueRef ll_f(Ll *l, LLVMTypeRef t, double v);         /* a float constant */
LLVMValueRef ll_i32(Ll *l, int64_t v);

/* gen.c: the kernel function of f in l->m; NULL after reporting to d. */
LLVMValueRef nvptx_gen(Ll *l, const PirFunc *f, Diag *d);

/* math.c: PE_MATH fn of x[0..nargs) of type F32 or F64, for the functions
 * that have no LLVM intrinsic the NVPTX backend lowers by itself (exp, log,
 * sin, tanh, erf, pow, ... and float remainder), built inline. */
LLVMValueRef nvptx_math(Ll *l, PirMath fn, PirTy ty, LLVMValueRef *x);
LLVMValueRef nvptx_fmod(Ll *l, PirTy ty, LLVMValueRef a, LLVMValueRef b);

#endif
