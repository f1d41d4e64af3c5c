/*
 * tests/unit/nvptx_math.c — targets/nvptx/math.c without a GPU: the IR it
 * builds for each function, f32 and f64, compiled for the host by LLVM's
 * JIT (the IR uses only target-independent intrinsics) and checked against
 * libm as tests/gpu/nvptx_math.h says.  The GPU runs the same IR through
 * the NVPTX backend (gpu-nvptx/math in tests/gpu/run.sh).  Passes after
 * saying so when tkc was built without LLVM.
 */
#include <stdlib.h>

#include "unit.h"
#include "tests/gpu/nvptx_math.h"

#ifdef TKC_HAVE_LLVM
#include <llvm-c/Analysis.h>
#include <llvm-c/ExecutionEngine.h>
#include <llvm-c/Target.h>

#include "targets/nvptx/ll.h"

static const PirMath fns[] = { PM_EXP, PM_EXP2, PM_LOG, PM_LOG2, PM_SQRT, PM_RSQRT, PM_SIN, PM_COS,
                               PM_TANH, PM_ERF, PM_SIGMOID, PM_FABS, PM_FLOOR, PM_CEIL, PM_POW, PM_FMA };

/* T f<k>_<d>(T v): function k of v (as tk_math computes it) */
static void build(Ll *l, int k, bool dbl)
{
    LLVMTypeRef t = dbl ? l->t_f64 : l->t_f32;
    char name[32];
    snprintf(name, sizeof name, "f%d_%d", k, dbl);
    LLVMValueRef fn = LLVMAddFunction(l->m, name, LLVMFunctionType(t, &t, 1, 0));
    LLVMPositionBuilderAtEnd(l->b, LLVMAppendBasicBlockInContext(l->c, fn, "entry"));
    LLVMValueRef v = LLVMGetParam(fn, 0), r;
    LLVMValueRef p = LLVMBuildFAdd(l->b, ll_intrinsic(l, "llvm.fabs", &t, 1, &v, 1), LLVMConstReal(t, 0.25), "");
    PirTy ty = dbl ? PT_F64 : PT_F32;
    if (k == NM_NFN - 1) {
        r = nvptx_fmod(l, ty, v, LLVMConstReal(t, 1.5));
    } else {
        PirMath f = fns[k];
        bool pos = f == PM_LOG || f == PM_LOG2 || f == PM_SQRT || f == PM_RSQRT;
        LLVMValueRef x[3] = { pos ? p : v, NULL, NULL };
        if (f == PM_POW)
            x[0] = p, x[1] = v;
        if (f == PM_FMA)
            x[1] = p, x[2] = LLVMConstReal(t, 1.5);
        if (f == PM_SQRT || f == PM_FABS || f == PM_FLOOR || f == PM_CEIL || f == PM_FMA) {
            static const char *const in[] = { [PM_SQRT] = "llvm.sqrt", [PM_FABS] = "llvm.fabs",
                                              [PM_FLOOR] = "llvm.floor", [PM_CEIL] = "llvm.ceil",
                                              [PM_FMA] = "llvm.fma" };
            r = ll_intrinsic(l, in[f], &t, 1, x, f == PM_FMA ? 3 : 1);
        } else if (f == PM_RSQRT) {
            r = LLVMBuildFDiv(l->b, LLVMConstReal(t, 1), ll_intrinsic(l, "llvm.sqrt", &t, 1, x, 1), "");
        } else {
            r = nvptx_math(l, f, ty, x);
        }
    }
    LLVMBuildRet(l->b, r);
}

static int run(void)
{
    LLVMLinkInMCJIT();
    LLVMInitializeNativeTarget();
    LLVMInitializeNativeAsmPrinter();
    Ll l = { 0 };
    l.host = true;     /* a host module: math.c's portable code (the GPU's f32 takes MUFU
                        * intrinsics there, checked by tests/gpu/nvptx_math.c) */
    l.c = LLVMContextCreate();
    l.m = LLVMModuleCreateWithNameInContext("math", l.c);
    l.b = LLVMCreateBuilderInContext(l.c);
    l.t_i1 = LLVMInt1TypeInContext(l.c);
    l.t_i32 = LLVMInt32TypeInContext(l.c);
    l.t_i64 = LLVMInt64TypeInContext(l.c);
    l.t_f32 = LLVMFloatTypeInContext(l.c);
    l.t_f64 = LLVMDoubleTypeInContext(l.c);
    for (int k = 0; k < NM_NFN; k++)
        for (int d = 0; d < 2; d++)
            build(&l, k, d);
    char *err = NULL;
    CHECK(!LLVMVerifyModule(l.m, LLVMPrintMessageAction, &err));
    LLVMDisposeMessage(err);
    LLVMExecutionEngineRef ee;
    struct LLVMMCJITCompilerOptions opt;
    LLVMInitializeMCJITCompilerOptions(&opt, sizeof opt);
    opt.OptLevel = 2;
    if (LLVMCreateMCJITCompilerForModule(&ee, l.m, &opt, sizeof opt, &err)) {
        printf("no JIT: %s\n", err);
        return 1;
    }
    int64_t n = NM_NSPECIAL + 20000;
    float *x = malloc(sizeof(float) * (size_t)n), *y = malloc(sizeof(float) * (size_t)n);
    double *xd = malloc(sizeof(double) * (size_t)n), *yd = malloc(sizeof(double) * (size_t)n);
    for (int64_t i = 0; i < n; i++)
        xd[i] = nm_arg(i, n), x[i] = (float)xd[i];
    for (int k = 0; k < NM_NFN; k++) {
        char name[32];
        float (*f32)(float);
        double (*f64)(double);
        snprintf(name, sizeof name, "f%d_0", k);
        uint64_t a32 = LLVMGetFunctionAddress(ee, name);
        snprintf(name, sizeof name, "f%d_1", k);
        uint64_t a64 = LLVMGetFunctionAddress(ee, name);
        memcpy(&f32, &a32, sizeof a32);
        memcpy(&f64, &a64, sizeof a64);
        for (int64_t i = 0; i < n; i++)
            y[i] = f32(x[i]), yd[i] = f64(xd[i]);
        CHECK(nm_check(k, n, x, y, xd, yd));
    }
    LLVMDisposeExecutionEngine(ee);       /* owns the module */
    LLVMDisposeBuilder(l.b);
    LLVMContextDispose(l.c);
    free(x), free(y), free(xd), free(yd);
    return 0;
}
#endif

int main(void)
{
#ifdef TKC_HAVE_LLVM
    if (run())
        return 1;
#else
    printf("skipped: tkc was built without LLVM\n");
#endif
    return unit_done("nvptx_math");
}
