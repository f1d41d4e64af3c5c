/*
 * lang/tune.h — build-time autotuning: `tkc --max-autotune`.
 *
 * The driver hands each selected kernel that has an @autotune space to
 * tune_kernel, which returns the instantiations to emit (one, or several
 * behind a dispatching entry point).  Everything else — the space, pruning,
 * the persistent cache, the tuning table, checking and choosing — lives in
 * lang/tune.c; building and timing a variant is the target's business, one
 * TuneBackend per target (the C target's is in lang/tune.c, the CUDA
 * target's in targets/cuda/tune.c).
 */
#ifndef TKC_TUNE_H
#define TKC_TUNE_H

#include "lang.h"
#include "../sema/sema.h"
#include "../targets/target.h"

/* The command line's tuning options, and what tuning needs from the rest of
 * the compilation (set by the driver before tune_kernel). */
typedef struct TuneOptions {
    bool on;                          /* --max-autotune */
    Vec(const char *) shapes;         /* each --tune DIM=V,... */
    const char *table;                /* --tune-table FILE.tktune */
    bool no_cache;                    /* --no-cache */
    const Program *program;           /* sources, for the cache key */
    const Define *defs; int ndefs;    /* -D options: pinned, and in the key */
    const char *dump;                 /* -dPASSES for the final instantiations */
    const char *arch;                 /* --arch (cuda), in the key */
    bool nvrtc;                       /* --codegen=nvrtc: every kernel's PTX from NVRTC */
    bool llvm;                        /* cuda's PTX from LLVM (--target=nvptx, --codegen=llvm):
                                       * tuned as target nvptx, in the key and the table */
} TuneOptions;

/* The options' lines for tkc --help. */
#define TUNE_USAGE                                                                   \
    "  --max-autotune        choose @autotune values by timing the variants\n"        \
    "  --tune DIM=V,...      a shape to tune for (repeat for several shapes)\n"       \
    "  --tune-table FILE     take choices from FILE.tktune; write new ones to it\n"   \
    "  --no-cache, --cache-info, --cache-clear  skip, show, empty the tuning cache\n"

/* argv[*i] is a tuning option: consume it (and its argument) and return 0,
 * or 2 after reporting a usage error; -1 when it is not one.  --cache-info
 * and --cache-clear act at once and exit. */
int tune_option(Arena *a, TuneOptions *o, int argc, char **argv, int *i);

/* The persistent cache for compiled code (TargetOptions.cache), or NULL
 * when tuning is off or --no-cache. */
const TargetCache *tune_code_cache(const TuneOptions *o);

/* What tuning one kernel adds to the header. */
typedef struct TuneResult {
    TirKernel **kernels; int nkernels;
    TargetDispatch *dispatch;         /* NULL: kernels[0] is the entry point */
} TuneResult;

/* Choose k's const values for target t and every --tune shape; 0, 1 after
 * errors (reported to d), 2 after a usage error. */
int tune_kernel(Arena *a, const KernelInfo *k, const Target *t, const TuneOptions *o,
                TuneResult *out, Diag *d);

/* ------------------------------------------------------------- backends */

typedef struct TuneVariant {
    int64_t *cvals;                   /* every const param */
    int64_t launch[LO_N];             /* per LaunchOpt; -1: the target's choice */
    const char *label;                /* "BM=64 BN=32 BK=16" */
    TirKernel *tir;                   /* lowered and optimized (NULL: pruned) */
    const char *dir;                  /* the variant's own temporary folder */
    const char *pruned;               /* why it cannot run, or NULL */
} TuneVariant;

typedef struct TuneShape {
    const char *text;                 /* "M=2048,N=2048,K=2048": the kernel's dims in order */
    int64_t *dims;                    /* per KernelInfo.dims (-D specialized: their value) */
    double *scalars;                  /* per KernelInfo.params: scalar params' values */
} TuneShape;

typedef struct TuneMeasure {
    int status;                       /* TK_OK (0), or the entry point's tk_status */
    const char *error;                /* its message, when not TK_OK */
    double median_ns;
    void **outputs;                   /* per param: malloc'ed copy of a stored tensor */
    size_t *bytes;
} TuneMeasure;

typedef struct TuneBackend {
    const char *target;
    /* Does launch option o (LaunchOpt) change the code for --arch (NULL:
     * the default)?  NULL: none does. */
    bool (*launch)(int o, const char *arch);
    int jobs;                         /* the most builds at once (0: 4) */
    /* The device and toolchain, for the cache key; NULL: no device here. */
    char *(*device)(Arena *a);
    /* Make v runnable, writing under v->dir (header options: to).  Runs in
     * a child process, a few at once; returns its exit status (0: built) or
     * does not return. */
    int (*build)(const TuneVariant *v, const Target *t, const TargetOptions *to);
    /* On random data of shape s (the same for every variant): run v once and
     * copy its outputs, warm up, then time tune_reps() runs and give the
     * median.  In the parent, one variant at a time; false if v could not be
     * loaded (m->error says why). */
    bool (*measure)(Arena *a, const TuneVariant *v, const TuneShape *s, double best_ns,
                    TuneMeasure *m);
} TuneBackend;

/* How many timed runs after a warm-up run of first_ns; 0 when the variant
 * is already far slower than the best so far (its warm-up time stands). */
int tune_reps(double first_ns, double best_ns);

/* The harness every backend starts from (C, for $CC): after TK_NP/TK_ND
 * and `#include "k.h"`, the arrays tk_t (tensors), tk_d (dims), tk_s
 * (scalars), tk_es (element sizes, 0 for scalars), and
 *   size_t tk_numel(int i)            tensor param i's elements at tk_d
 *   void tk_fill(int i, void *p, size_t n)   the deterministic random data
 *   int tk_call(void)                 ENTRY(params, dims, contiguous strides EXTRA)
 * extra (e.g. ", NULL") or "" follows the arguments. */
char *tune_harness(Arena *a, const TuneVariant *v, const char *entry, const char *extra);

/* A backend's build, in the child: stdout and stderr to v->dir/build.log,
 * the variant's header k.h (then more(), if any), the harness h.c, then
 * exec argv (the compiler, writing h.so).  Returns only on failure: the
 * exit status, TUNE_UNFIT when the target rejected the variant (its error,
 * e.g. too much shared memory, is the reason it is pruned). */
#define TUNE_UNFIT 4
int tune_build(const TuneVariant *v, const Target *t, const TargetOptions *to, const char *harness,
               char **argv, void (*more)(const TuneVariant *, const TargetOptions *, Diag *));

/* The compiler for harnesses: $CC, else cc. */
const char *tune_cc(void);

/* Write through a temporary name and rename: readers see all or nothing. */
bool tune_write_atomic(Arena *a, const char *path, const char *data, size_t n);

extern const TuneBackend cuda_tune_backend;   /* targets/cuda/tune.c */

#endif
