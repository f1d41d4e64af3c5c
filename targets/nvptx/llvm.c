/*
 * targets/nvptx/llvm.c — PTX from LLVM 19's NVPTX backend, through the
 * LLVM C API only.
 *
 * Per header: every kernel is lowered to the per-thread IR (lower/gpu.c),
 * built into one LLVM module (gen.c), optimized and printed as PTX by the
 * target machine for nvptx64-nvidia-cuda, CPU sm_XX.  One module, like the
 * one NVRTC program of --codegen=nvrtc, so the header around it is the same.
 *
 * Compile time is the point of the configuration.  gen.c hands over code
 * that is already unrolled and numbered, and ptxas optimizes the PTX again
 * (CSE, code motion, scheduling, registers), and gen.c builds the locals
 * as SSA values itself, so what LLVM has to do is what ptxas cannot: fold the index
 * arithmetic knowing that thread ids are small (nvvm-intr-range, then
 * instcombine: 32-bit instead of 64-bit, shifts instead of divisions), and
 * merge the blocks of masked accesses (simplifycfg).  default<O3> made no
 * better PTX for ptxas (registers, spills) at 3-8 times the time; the code
 * generator runs at its default level (EarlyCSE where Aggressive runs GVN
 * twice) and without loop strength reduction (it added registers and
 * spills in the pipelined matmul loops).  The module is verified only
 * with TKC_NVPTX_VERIFY=1 (the tests set it).
 *
 * A module of several functions (kernels, NAME and NAME__nomap) is built,
 * optimized and printed one function per LLVM context in parallel threads,
 * and the PTX texts are joined into the one the whole module gives, byte
 * for byte (see join_ptx); TKC_PAR_COMPILE=0 compiles the one module.
 *
 * TKC_LOGS=nvptx prints the time each step took.  For experiments:
 * TKC_NVPTX_PASSES=o3 the former configuration (default<O3>, Aggressive
 * code generation, LSR), =none no optimizer (to read the IR gen.c builds),
 * =PIPELINE another new-pass-manager pipeline; TKC_NVPTX_LLVM_ARGS="..."
 * options for LLVM itself (-time-passes: the time of every pass).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Support.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "ll.h"
#include "../../lang/timing.h"
#include "../../lower/gpu.h"

/* The architectures tkc targets and the PTX ISA each gets: 7.8 knows sm_89
 * (CUDA 11.8 drivers and later); sm_90a needs 8.0. */
static const struct { const char *sm, *features; } archs[] = {
    { "sm_80", "+ptx78" }, { "sm_86", "+ptx78" }, { "sm_89", "+ptx78" },
    { "sm_90", "+ptx80" }, { "sm_90a", "+ptx80" },
};
#define NARCH (sizeof archs / sizeof *archs)

const char *nvptx_unavailable(void)
{
    return NULL;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* The pipeline tkc runs; with SROA where gen.c left a local in memory (an
 * array indexed by a variable, or every local with TKC_NVPTX_SSA=0); the
 * stand-in's host module's (without the NVPTX pass; SROA for its asm
 * stand-ins' buffers); the former one (TKC_NVPTX_PASSES=o3).
 *
 * loop-rotate (TKC_NVPTX_ROTATE=0: without): each loop's exit test moves
 * to its bottom, behind a guard.  With the test at the top ptxas kept every
 * loop-carried scalar of sdpa_bf16's key loops (the iteration count, the
 * stage index) in vector registers and built each wgmma descriptor there,
 * moving it to a uniform register before its HGMMA (48 R2UR in D=128's
 * loop; NVRTC's PTX, whose loops NVVM rotates, 5); rotated, 24, and the
 * rest on the uniform datapath.  H100, 12 interleaved rounds: sdpa_bf16
 * D=128 528.2 vs 500.6 TFLOP/s, causal 433.8 vs 417.5, D=64 461.3 vs
 * 454.0, causal 413.3 vs 409.0 (NVRTC 572.8 / 482.9 / 471.8 / 421.7),
 * matmul_bf16 0.973 vs 0.975 of cuBLAS at 4096^3 (doc/bench/
 * h100-s19-e10.log).  Compile time over the 242 kernels of every stdlib
 * kernel and run test (this 2-core machine, three runs each way,
 * alternating): 18.6 / 18.9 / 19.0 vs 18.1 / 18.0 / 18.4 ms a kernel, 3%.
 * No LICM:
 * with loop-mssa(licm) after simplifycfg, sdpa_bf16 D=128's key loop went
 * from 563 to 530 SASS instructions (its descriptors' warpgroup part
 * hoisted) but ptxas spilled 64 bytes, and on an H100 in 12 interleaved
 * rounds it ran slower: D=128 495.0 vs 504.2 TFLOP/s, causal 399.0 vs
 * 419.6, D=64 435.8 vs 451.2; matmul_bf16 0.967 vs 0.969 of cuBLAS at
 * 4096^3 (doc/bench/h100-s19-e7.log, session 19). */
#define FAST_PASSES "function(nvvm-intr-range,early-cse,instcombine<no-verify-fixpoint>,simplifycfg,loop-rotate)"
#define SROA_PASSES "function(nvvm-intr-range,sroa,early-cse,instcombine<no-verify-fixpoint>,simplifycfg,loop-rotate)"
#define HOST_PASSES "function(sroa,early-cse,instcombine<no-verify-fixpoint>,simplifycfg)"
#define NOROT_PASSES "function(nvvm-intr-range,early-cse,instcombine<no-verify-fixpoint>,simplifycfg)"
#define NOROT_SROA_PASSES "function(nvvm-intr-range,sroa,early-cse,instcombine<no-verify-fixpoint>,simplifycfg)"
#define O3_PASSES   "default<O3>"

static bool o3_mode(void)
{
    const char *env = getenv("TKC_NVPTX_PASSES");
    return env && !strcmp(env, "o3");
}

/* LLVM's own options, once per process before any target: no loop
 * strength reduction (see above); CodeGenPrepare treating every function
 * as huge (after a change to the CFG it revisits only the new blocks
 * instead of starting over: the many small blocks of masked accesses made
 * it the code generator's costliest pass, for the same PTX); no block
 * placement, branch folding or tail duplication (ptxas lays the blocks out
 * again: the same registers and SASS instructions for every stdlib kernel,
 * 3-6% less time); four passes and one part of CodeGenPrepare that leave
 * the PTX of every stdlib kernel and tests/run file byte for byte the same
 * (1-6% of the instructions tkc executes for a kernel, see
 * doc/bench/compile-time.md); and TKC_NVPTX_LLVM_ARGS. */
static void llvm_args(void)
{
    const char *argv[64] = { "tkc" };
    int argc = 1;
    if (!o3_mode()) {
        argv[argc++] = "-disable-lsr";
        argv[argc++] = "-cgpp-huge-func=0";
        argv[argc++] = "-disable-block-placement";
        argv[argc++] = "-disable-branch-fold";
        argv[argc++] = "-disable-early-taildup";
        argv[argc++] = "-disable-tail-duplicate";
        /* passes that change nothing in the PTX of any stdlib kernel or
         * tests/run file (byte for byte): gen.c's loads and stores are
         * already as wide as they can be (the load/store vectorizer), no
         * constant is worth hoisting for a target without immediates
         * limits, no stack slots to color, no copies left to propagate */
        argv[argc++] = "-disable-nvptx-load-store-vectorizer";
        argv[argc++] = "-disable-constant-hoisting";
        argv[argc++] = "-disable-ssc";
        argv[argc++] = "-disable-copyprop";
        /* CodeGenPrepare's rewriting of phis between integer and float
         * types (none worth it in tkc's code: the same PTX) took 40% of
         * the pass's time in sdpa_relpos_bf16 */
        argv[argc++] = "-cgp-optimize-phi-types=0";
    }
    const char *env = getenv("TKC_NVPTX_LLVM_ARGS");
    char *s = env ? strdup(env) : NULL;
    for (char *t = s ? strtok(s, " ") : NULL; t && argc < 64; t = strtok(NULL, " "))
        argv[argc++] = t;
    LLVMParseCommandLineOptions(argc, argv, NULL);
    if (env && strstr(env, "-time-passes"))
        atexit(LLVMShutdown);      /* prints the code generator's report */
}

static LLVMTargetRef target;
static LLVMTargetMachineRef new_machine(size_t i);
static bool init_target(Diag *d);

static size_t arch_index(const char *arch)
{
    size_t i = 0;
    while (i < NARCH && strcmp(archs[i].sm, arch))
        i++;
    return i;
}

/* One target machine per architecture, made on first use, for the whole
 * process (the tuner compiles many variants). */
static LLVMTargetMachineRef machine(const char *arch, Diag *d)
{
    static LLVMTargetMachineRef tms[NARCH];
    size_t i = 0;
    while (i < NARCH && strcmp(archs[i].sm, arch))
        i++;
    if (i == NARCH) {
        diag_error(d, (Span){0}, "--target=nvptx: unknown architecture '%s'", arch);
        return NULL;
    }
    if (tms[i])
        return tms[i];
    if (!init_target(d))
        return NULL;
    return tms[i] = new_machine(i);
}

/* A target machine of its own for a thread (one is not safe to share). */
static LLVMTargetMachineRef new_machine(size_t i)
{
    return LLVMCreateTargetMachine(target, "nvptx64-nvidia-cuda", archs[i].sm, archs[i].features,
                                   o3_mode() ? LLVMCodeGenLevelAggressive : LLVMCodeGenLevelDefault,
                                   LLVMRelocDefault, LLVMCodeModelDefault);
}

static bool init_target(Diag *d)
{
    if (!target) {
        llvm_args();
        LLVMInitializeNVPTXTargetInfo();
        LLVMInitializeNVPTXTarget();
        LLVMInitializeNVPTXTargetMC();
        LLVMInitializeNVPTXAsmPrinter();
        char *err = NULL;
        if (LLVMGetTargetFromTriple("nvptx64-nvidia-cuda", &target, &err)) {
            diag_error(d, (Span){0}, "--target=nvptx: LLVM has no NVPTX target: %s", err ? err : "?");
            LLVMDisposeMessage(err);
            target = NULL;
            return false;
        }
    }
    return true;
}

LLVMTypeRef ll_reg_type(Ll *l, PirTy t)
{
    switch (t) {
    case PT_VOID: return l->t_void;
    case PT_BOOL: return l->t_i1;
    case PT_I8: case PT_U8: return l->t_i8;
    case PT_I16: case PT_U16: case PT_F16: case PT_BF16: return l->t_i16;
    case PT_I32: case PT_U32: return l->t_i32;
    case PT_I64: case PT_U64: return l->t_i64;
    case PT_F32: return l->t_f32;
    case PT_F64: return l->t_f64;
    case PT_PTR: return l->t_gptr;
    case PT_COUNT: break;
    }
    return l->t_i32;
}

LLVMTypeRef ll_mem_type(Ll *l, PirTy t)
{
    return t == PT_BOOL ? l->t_i8 : ll_reg_type(l, t);
}

LLVMValueRef ll_intrinsic(Ll *l, const char *name, LLVMTypeRef *over, int nover, LLVMValueRef *args, int nargs)
{
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(l->m, id, over, (size_t)nover);
    LLVMTypeRef ft = LLVMIntrinsicGetType(l->c, id, over, (size_t)nover);
    return LLVMBuildCall2(l->b, ft, fn, args, (unsigned)nargs, "");
}

LLVMValueRef ll_call(Ll *l, const char *name, LLVMTypeRef ret, LLVMTypeRef *argt, LLVMValueRef *args, int nargs)
{
    LLVMTypeRef ft = LLVMFunctionType(ret, argt, (unsigned)nargs, 0);
    LLVMValueRef fn = LLVMGetNamedFunction(l->m, name);
    if (!fn)
        fn = LLVMAddFunction(l->m, name, ft);
    return LLVMBuildCall2(l->b, ft, fn, args, (unsigned)nargs, "");
}

LLVMValueRef ll_f(Ll *l, LLVMTypeRef t, double v)
{
    return LLVMConstReal(t, v);
}

LLVMValueRef ll_i32(Ll *l, int64_t v)
{
    return LLVMConstInt(l->t_i32, (unsigned long long)v, 1);
}

/* LLVM's warnings and remarks (a loop it could not unroll as asked, say)
 * are no business of tkc's user: only TKC_LOGS=nvptx shows them.  Errors
 * surface through the calls that fail. */
static void diagnostic(LLVMDiagnosticInfoRef di, void *ctx)
{
    LLVMDiagnosticSeverity sev = LLVMGetDiagInfoSeverity(di);
    if (sev != LLVMDSError && sev != LLVMDSWarning)
        return;
    char *s = LLVMGetDiagInfoDescription(di);
    tir_log("nvptx", "LLVM: %s", s);
    LLVMDisposeMessage(s);
}

/* TKC_NVPTX_HOST=1 (with --emit=llvm): the module for this machine's CPU
 * instead, for tests/gpu/emu, which runs it one thread per CUDA thread:
 * thread ids, barriers, shuffles and the inline PTX become calls of C
 * functions tk_nvx_* (tests/gpu/emu/nvptx.cc), pointers address space 0. */
static LLVMTargetMachineRef host_machine(Diag *d)
{
    static LLVMTargetMachineRef tm;
    if (tm)
        return tm;
    LLVMInitializeNativeTarget();
    LLVMInitializeNativeAsmPrinter();
    char *triple = LLVMGetDefaultTargetTriple(), *err = NULL;
    LLVMTargetRef t;
    if (LLVMGetTargetFromTriple(triple, &t, &err)) {
        diag_error(d, (Span){0}, "TKC_NVPTX_HOST: no LLVM target for %s: %s", triple, err ? err : "?");
        LLVMDisposeMessage(err);
    } else {
        tm = LLVMCreateTargetMachine(t, triple, "", "", LLVMCodeGenLevelDefault, LLVMRelocPIC,
                                     LLVMCodeModelDefault);
    }
    LLVMDisposeMessage(triple);
    return tm;
}

static void ll_init(Ll *l, LLVMTargetMachineRef tm, bool host)
{
    LLVMContextRef c = l->c = LLVMContextCreate();
    LLVMContextSetDiagnosticHandler(c, diagnostic, NULL);
    l->m = LLVMModuleCreateWithNameInContext("tkc", c);
    l->b = LLVMCreateBuilderInContext(c);
    l->host = host;
    char *triple = LLVMGetTargetMachineTriple(tm);
    LLVMSetTarget(l->m, triple);
    LLVMDisposeMessage(triple);
    LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
    LLVMSetModuleDataLayout(l->m, td);
    LLVMDisposeTargetData(td);
    l->t_void = LLVMVoidTypeInContext(c);
    l->t_i1 = LLVMInt1TypeInContext(c);
    l->t_i8 = LLVMInt8TypeInContext(c);
    l->t_i16 = LLVMInt16TypeInContext(c);
    l->t_i32 = LLVMInt32TypeInContext(c);
    l->t_i64 = LLVMInt64TypeInContext(c);
    l->t_f32 = LLVMFloatTypeInContext(c);
    l->t_f64 = LLVMDoubleTypeInContext(c);
    l->t_half = LLVMHalfTypeInContext(c);
    l->t_bf16 = LLVMBFloatTypeInContext(c);
    l->t_gptr = LLVMPointerTypeInContext(c, host ? 0 : LL_GLOBAL);
    l->t_sptr = LLVMPointerTypeInContext(c, host ? 0 : LL_SHARED);
    l->smem = LLVMAddGlobalInAddressSpace(l->m, LLVMArrayType2(l->t_i8, 0), "tk_smem", host ? 0 : LL_SHARED);
    LLVMSetLinkage(l->smem, LLVMExternalLinkage);
    LLVMSetAlignment(l->smem, 16);
}

static void ll_free(Ll *l)
{
    LLVMDisposeBuilder(l->b);
    LLVMDisposeModule(l->m);
    LLVMContextDispose(l->c);
}

static char *arena_copy(Arena *a, const char *s, size_t n)
{
    char *r = arena_alloc(a, n + 1);
    memcpy(r, s, n);
    r[n] = 0;
    return r;
}

/* The freezes of i1 values replaced by their operands: the branches of
 * masked loads are on the masks themselves again, as the PIR has them
 * (see masked_load in gen.c).  Those are gen.c's freezes, or ones
 * InstCombine made of them by moving them onto the operands of an and
 * (sdpa_mask): the pipeline makes none of its own from tkc's IR (none in
 * the 41 stdlib and test files built without gen.c's).  With all of them
 * out, the PTX is what it was without them. */
static void unfreeze(Ll *l)
{
    for (LLVMValueRef fn = LLVMGetFirstFunction(l->m); fn; fn = LLVMGetNextFunction(fn))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef in = LLVMGetFirstInstruction(bb), next; in; in = next) {
                next = LLVMGetNextInstruction(in);
                if (LLVMGetInstructionOpcode(in) == LLVMFreeze && LLVMTypeOf(in) == l->t_i1) {
                    LLVMReplaceAllUsesWith(in, LLVMGetOperand(in, 0));
                    LLVMInstructionEraseFromParent(in);
                }
            }
}

/* FAST_PASSES, or what TKC_NVPTX_PASSES asks for. */
static bool optimize(Ll *l, LLVMTargetMachineRef tm, Diag *d)
{
    const char *env = getenv("TKC_NVPTX_PASSES");
    bool rot = tkc_knob("TKC_NVPTX_ROTATE", 1) == 1;
    const char *passes = env && *env ? (o3_mode() ? O3_PASSES : env)
                       : l->host ? HOST_PASSES : l->allocas ? (rot ? SROA_PASSES : NOROT_SROA_PASSES)
                       : rot ? FAST_PASSES : NOROT_PASSES;
    if (!strcmp(passes, "none"))
        return true;
    LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
    /* Loops PIR marks unroll carry llvm.loop.unroll.full (or were unrolled
     * by gen.c); LLVM unrolls no others: its own unrolling of the already
     * long straight-line tile code doubled the code and the compile time
     * (TKC_NVPTX_UNROLL=1 turns it back on, for comparisons). */
    const char *unroll = getenv("TKC_NVPTX_UNROLL");
    LLVMPassBuilderOptionsSetLoopUnrolling(po, unroll && !strcmp(unroll, "1"));
    LLVMErrorRef e = LLVMRunPasses(l->m, passes, tm, po);
    LLVMDisposePassBuilderOptions(po);
    if (!e)
        return true;
    char *msg = LLVMGetErrorMessage(e);
    diag_error(d, (Span){0}, "internal error: nvptx: the LLVM pass pipeline failed: %s", msg);
    LLVMDisposeErrorMessage(msg);
    return false;
}

/* With TKC_NVPTX_VERIFY=1: is the module valid LLVM IR?  (Else an error.) */
static bool verify_ir(Ll *l, Diag *d)
{
    const char *verify = getenv("TKC_NVPTX_VERIFY");
    char *msg = NULL;
    bool ok = true;
    if (verify && !strcmp(verify, "1") && LLVMVerifyModule(l->m, LLVMReturnStatusAction, &msg)) {
        diag_error(d, (Span){0}, "internal error: nvptx: invalid LLVM IR:\n%s", msg);
        ok = false;
    }
    LLVMDisposeMessage(msg);
    return ok;
}

/* The module's PTX, malloc'd (NUL-terminated), or NULL after an error. */
static char *ptx_text(Ll *l, LLVMTargetMachineRef tm, Diag *d)
{
    char *err = NULL;
    LLVMMemoryBufferRef mb = NULL;
    if (LLVMTargetMachineEmitToMemoryBuffer(tm, l->m, LLVMAssemblyFile, &err, &mb)) {
        diag_error(d, (Span){0}, "internal error: nvptx: LLVM could not make PTX: %s", err ? err : "?");
        LLVMDisposeMessage(err);
        return NULL;
    }
    size_t len = LLVMGetBufferSize(mb);
    char *ptx = malloc(len + 1);
    if (ptx) {
        memcpy(ptx, LLVMGetBufferStart(mb), len);
        ptx[len] = 0;
    } else {
        diag_error(d, (Span){0}, "nvptx: out of memory for %zu bytes of PTX", len);
    }
    LLVMDisposeMemoryBuffer(mb);
    return ptx;
}

static bool emit_ptx(Arena *a, Ll *l, LLVMTargetMachineRef tm, CudaBinary *bin, Diag *d)
{
    char *ptx = ptx_text(l, tm, d);
    if (!ptx)
        return false;
    bin->ptx = arena_copy(a, ptx, strlen(ptx));
    free(ptx);
    return true;
}

/* ------------------------------------------------ one module, in parallel */

/* One function of the module in a module of its own, built, optimized and
 * printed by one thread, in its own LLVM context and target machine. */
typedef struct Part {
    PirFunc f;             /* a copy of the function whose arena is the part's */
    size_t arch;           /* index in archs */
    unsigned align;        /* tk_smem's alignment: the whole module's */
    Diag d;
    char *ptx;             /* malloc'd */
    double ms[3];          /* IR, passes, PTX */
    double cpu;            /* the thread's CPU time for it, ms */
    bool ok;
} Part;

static double thread_cpu_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

typedef struct Pool {
    Part *parts;
    int n, next;
    pthread_mutex_t mu;
} Pool;

static void compile_part(Part *p)
{
    double t0 = now_ms(), c0 = thread_cpu_ms();
    LLVMTargetMachineRef tm = new_machine(p->arch);
    Ll l = { 0 };
    ll_init(&l, tm, false);
    LLVMSetAlignment(l.smem, p->align);   /* what nvptx_gen leaves in the one module */
    p->ok = nvptx_gen(&l, &p->f, &p->d) != NULL && verify_ir(&l, &p->d);
    double t1 = now_ms();
    p->ok = p->ok && optimize(&l, tm, &p->d);
    if (p->ok)
        unfreeze(&l);
    double t2 = now_ms();
    if (p->ok)
        p->ok = (p->ptx = ptx_text(&l, tm, &p->d)) != NULL;
    ll_free(&l);
    LLVMDisposeTargetMachine(tm);
    p->ms[0] = t1 - t0, p->ms[1] = t2 - t1, p->ms[2] = now_ms() - t2;
    p->cpu = thread_cpu_ms() - c0;
}

/* LLVM makes some of its globals on first use (timer groups, option
 * tables) through statics that the threads would otherwise race to make:
 * one empty kernel through the passes and the code generator first, on
 * this thread (about a millisecond). */
static void warm_up(size_t arch)
{
    static bool done;
    if (done)
        return;
    done = true;
    LLVMTargetMachineRef tm = new_machine(arch);
    Ll l = { 0 };
    ll_init(&l, tm, false);
    LLVMValueRef fn = LLVMAddFunction(l.m, "tk_warm_up", LLVMFunctionType(l.t_void, NULL, 0, 0));
    LLVMPositionBuilderAtEnd(l.b, LLVMAppendBasicBlockInContext(l.c, fn, "entry"));
    LLVMBuildRetVoid(l.b);
    Diag d;
    diag_init(&d, stderr);
    LLVMMemoryBufferRef mb = NULL;
    char *err = NULL;
    if (optimize(&l, tm, &d) && !LLVMTargetMachineEmitToMemoryBuffer(tm, l.m, LLVMAssemblyFile, &err, &mb))
        LLVMDisposeMemoryBuffer(mb);
    LLVMDisposeMessage(err);
    ll_free(&l);
    LLVMDisposeTargetMachine(tm);
}

static void *worker(void *arg)
{
    Pool *pl = arg;
    for (;;) {
        pthread_mutex_lock(&pl->mu);
        int i = pl->next++;
        pthread_mutex_unlock(&pl->mu);
        if (i >= pl->n)
            return NULL;
        compile_part(&pl->parts[i]);
    }
}

/* Append s[0..len) with the function number of the labels and the stack
 * frame of a module of one function (0) made k. */
static void put_renumbered(Buf *b, const char *s, size_t len, int k)
{
    static const char *const names[] = { "$L__BB0_", "__local_depot0" };
    const char *end = s + len;
    while (s < end) {
        size_t i = 0, nl = 0;
        for (; i < 2; i++) {
            nl = strlen(names[i]);
            if ((size_t)(end - s) >= nl && !memcmp(s, names[i], nl))
                break;
        }
        if (i == 2) {
            buf_putc(b, *s++);
            continue;
        }
        buf_printf(b, "%.*s%d%s", (int)nl - (i ? 1 : 2), names[i], k, i ? "" : "_");
        s += nl;
    }
}

/* The PTX of the whole module from its functions' modules'.  LLVM prints a
 * module as its header (version, target), then per function a "// .globl"
 * line and the function, the module's globals (tk_smem) after the first
 * such line; it numbers the functions in order ($L__BB1_7 is a label of the
 * second).  So: the first part whole, the others from their .globl line
 * on, less their tk_smem, renumbered.  NULL if a text is not of that form
 * (then the one module is compiled instead). */
static char *join_ptx(Arena *a, const Part *p, int n)
{
    Buf b = { .a = a };
    for (int k = 0; k < n; k++) {
        const char *s = p[k].ptx;
        if (k > 0) {
            s = strstr(s, "\t// .globl\t");
            const char *nl = s ? strchr(s, '\n') : NULL;
            if (!nl)
                return NULL;
            put_renumbered(&b, s, (size_t)(nl + 1 - s), k);
            s = nl + 1;
            if (strncmp(s, ".extern .shared .align ", 23) || !(nl = strstr(s, " tk_smem[];\n")) ||
                memchr(s, '\n', (size_t)(nl - s)))
                return NULL;
            s = nl + strlen(" tk_smem[];\n");
            if (*s == '\n')
                s++;
        }
        if (strstr(s, "$L__BB1_") || strstr(s, "__local_depot1"))   /* not a module of one function */
            return NULL;
        put_renumbered(&b, s, strlen(s), k);
    }
    return b.s;
}

/* fs[0..n) compiled in parallel and joined: true with bin->ptx set, or
 * false with nothing reported (*done false: compile the one module
 * instead) or after reporting an error (*done true). */
static bool compile_parallel(Arena *a, PirFunc **fs, int n, const char *arch, CudaBinary *bin, Diag *d,
                             bool *done)
{
    *done = false;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int nthreads = n < cpus ? n : (int)cpus;
    if (n < 2 || nthreads < 2 || !tkc_knob("TKC_PAR_COMPILE", 1) || o3_mode() || getenv("TKC_NVPTX_HOST"))
        return false;
    size_t ai = arch_index(arch);
    if (ai == NARCH || !machine(arch, d))          /* the target and LLVM's options, once */
        return false;
    double t0 = now_ms();
    TkTimer tm = tk_timer();
    unsigned align = 16;
    for (int i = 0; i < n; i++)
        if (fs[i]->smem_align > (int)align)
            align = (unsigned)fs[i]->smem_align;
    Part *parts = arena_alloc(a, sizeof *parts * (size_t)n);
    for (int i = 0; i < n; i++) {
        parts[i].f = *fs[i];
        parts[i].f.a = arena_new();          /* gen.c allocates in the function's arena */
        parts[i].arch = ai;
        parts[i].align = align;
        parts[i].d = *d;
        parts[i].d.nerrors = parts[i].d.nwarnings = 0;
    }
    warm_up(ai);
    Pool pl = { parts, n, 0, PTHREAD_MUTEX_INITIALIZER };
    pthread_t *th = arena_alloc(a, sizeof *th * (size_t)nthreads);
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setstacksize(&at, 64u << 20);   /* LLVM recurses on long blocks */
    int started = 0;
    while (started < nthreads - 1 && pthread_create(&th[started], &at, worker, &pl) == 0)
        started++;
    pthread_attr_destroy(&at);
    worker(&pl);                                 /* this thread works too */
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    bool ok = true;
    double ms[3] = { 0, 0, 0 }, largest = 0, cpu = 0;
    for (int i = 0; i < n; i++) {
        d->nerrors += parts[i].d.nerrors;
        d->nwarnings += parts[i].d.nwarnings;
        ok &= parts[i].ok;
        for (int j = 0; j < 3; j++)
            ms[j] += parts[i].ms[j];
        largest = parts[i].cpu > largest ? parts[i].cpu : largest;
        cpu += parts[i].cpu;
        arena_free(parts[i].f.a);
    }
    char *ptx = ok ? join_ptx(a, parts, n) : NULL;
    for (int i = 0; i < n; i++)
        free(parts[i].ptx);
    if (!ok) {
        *done = true;
        return false;
    }
    if (!ptx)
        return false;
    tk_timer_end(&tm, "LLVM (IR, passes, PTX; threads)");
    tk_time_add("  LLVM IR (gen.c), threads' sum", ms[0], -1);
    tk_time_add("  LLVM passes, threads' sum", ms[1], -1);
    tk_time_add("  LLVM codegen, threads' sum", ms[2], -1);
    bin->ptx = ptx;
    bin->ms = now_ms() - t0;
    *done = true;
    tir_log("nvptx", "%d kernel(s) in %.1f ms, %.1f ms/kernel (IR %.1f, opt %.1f, PTX %.1f summed over %d threads, "
            "CPU %.1f, the largest function's %.1f; %s, %zu bytes of PTX)",
            n, bin->ms, bin->ms / n, ms[0], ms[1], ms[2], started + 1, cpu, largest, arch, strlen(bin->ptx));
    return true;
}

bool nvptx_compile_pir(Arena *a, PirFunc **fs, int n, CudaKernel *ck, const char *arch, char **ir,
                       CudaBinary *bin, Diag *d)
{
    bool done = false;
    if (!ir) {
        for (int i = 0; i < n; i++)
            ck[i] = (CudaKernel){ fs[i]->name, fs[i]->threads, fs[i]->smem, fs[i], -1 };
        bool ok = compile_parallel(a, fs, n, arch, bin, d, &done);
        if (done)
            return ok;
    }
    TkTimer tt = tk_timer();
    double t0 = now_ms();
    const char *h = getenv("TKC_NVPTX_HOST");
    bool host = ir && h && !strcmp(h, "1");
    LLVMTargetMachineRef tm = host ? host_machine(d) : machine(arch, d);
    if (!tm)
        return false;
    Ll l = { 0 };
    ll_init(&l, tm, host);
    bool ok = true;
    for (int i = 0; i < n && ok; i++) {
        ok = nvptx_gen(&l, fs[i], d) != NULL;
        ck[i] = (CudaKernel){ fs[i]->name, fs[i]->threads, fs[i]->smem, fs[i], -1 };
    }
    ok = ok && verify_ir(&l, d);
    double t1 = now_ms();
    ok = ok && optimize(&l, tm, d);
    if (ok)
        unfreeze(&l);
    double t2 = now_ms();
    if (ok && ir) {
        char *s = LLVMPrintModuleToString(l.m);
        *ir = arena_copy(a, s, strlen(s));
        LLVMDisposeMessage(s);
    } else if (ok) {
        ok = emit_ptx(a, &l, tm, bin, d);
    }
    double t3 = now_ms();
    ll_free(&l);
    bin->ms = t3 - t0;
    tk_timer_end(&tt, "LLVM (IR, passes, PTX)");
    tk_time_add("  LLVM IR (gen.c)", t1 - t0, -1);
    tk_time_add("  LLVM passes", t2 - t1, -1);
    tk_time_add("  LLVM codegen", t3 - t2, -1);
    if (ok && !ir)
        tir_log("nvptx", "%d kernel(s) in %.1f ms, %.1f ms/kernel (IR %.1f, opt %.1f, PTX %.1f; %s, %zu bytes of PTX)",
                n, bin->ms, bin->ms / (n ? n : 1), t1 - t0, t2 - t1, t3 - t2, arch, strlen(bin->ptx));
    return ok;
}

bool nvptx_compile(Arena *a, TirKernel **ks, int n, CudaKernel *ck, const char *arch, char **ir,
                   CudaBinary *bin, Diag *d)
{
    PirFunc **fs = arena_alloc(a, sizeof *fs * (size_t)(n + 1));
    bool ok = true;
    for (int i = 0; i < n; i++)
        ok &= (fs[i] = gpu_lower(ks[i], d)) != NULL;
    return ok && nvptx_compile_pir(a, fs, n, ck, arch, ir, bin, d);
}
