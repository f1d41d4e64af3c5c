/*
 * targets/cuda/nvrtc.c — CUDA C to PTX with NVRTC, PTX to cubin with ptxas.
 *
 * NVRTC is loaded with dlopen at run time so that tkc builds and runs
 * without a CUDA toolkit; only --target=cuda needs one.  The library is
 * looked up under $CUDA_HOME/lib64, $CUDA_PATH/lib64, /usr/local/cuda/lib64
 * and then by the loader's own search.  The device code includes no headers,
 * but the toolkit's include folder is passed with -I when it is found, for
 * code that someday does.  When ptxas is found ($CUDA_HOME/bin, PATH) the
 * PTX is also assembled for the exact --arch; the header then carries both
 * and the launcher prefers the cubin.  TKC_CUBIN=0 skips that step;
 * TKC_LOGS=ptxas prints its time (NVRTC's is in TKC_LOGS=nvrtc).
 *
 * NVRTC's time is mostly its optimizer's and grows with the instructions
 * of the kernel, after a fixed ~25 ms; --minimal (12.4+) trims the fixed
 * part for the same PTX.  -Ofast-compile is not used: faster, but worse
 * code at every level (doc/bench/compile-time.md).
 *
 * ptxas compiles a module's functions (every kernel, NAME and NAME__nomap)
 * in parallel threads (--split-compile): the same machine code, in about
 * the time of the largest function instead of the sum.  NVRTC can too
 * (TKC_PAR_COMPILE=2), but its PTX is not always the same then
 * (nvrtc_threads).
 *
 * With a code cache (tkc --max-autotune, TargetOptions.cache) the PTX and
 * cubin are kept keyed by everything they depend on — the CUDA C, the
 * architecture, the NVRTC version and options, the ptxas binary — so a
 * tuned header is rebuilt without NVRTC.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cuda.h"
#include "../../lang/timing.h"
#include "../../lower/gpu.h"

extern char **environ;

typedef struct Nvrtc {
    int (*create)(void **prog, const char *src, const char *name, int nh, const char *const *h,
                  const char *const *names);
    int (*compile)(void *prog, int nopt, const char *const *opts);
    int (*log_size)(void *prog, size_t *n);
    int (*log)(void *prog, char *log);
    int (*ptx_size)(void *prog, size_t *n);
    int (*ptx)(void *prog, char *ptx);
    int (*destroy)(void **prog);
    const char *(*error)(int r);
    int (*version)(int *major, int *minor);
} Nvrtc;

static const struct { const char *name; int64_t smem; } archs[] = {
    { "sm_80", 163 * 1024 }, { "sm_86", 99 * 1024 }, { "sm_89", 99 * 1024 },
    { "sm_90", 227 * 1024 }, { "sm_90a", 227 * 1024 },
};

bool cuda_arch_ok(const char *arch)
{
    for (size_t i = 0; i < sizeof archs / sizeof *archs; i++)
        if (!strcmp(archs[i].name, arch))
            return true;
    return false;
}

int64_t cuda_arch_smem(const char *arch)
{
    for (size_t i = 0; i < sizeof archs / sizeof *archs; i++)
        if (!strcmp(archs[i].name, arch))
            return archs[i].smem;
    return 48 * 1024;
}

static bool is_file(const char *p)
{
    struct stat s;
    return stat(p, &s) == 0 && S_ISREG(s.st_mode);
}

static bool is_dir(const char *p)
{
    struct stat s;
    return stat(p, &s) == 0 && S_ISDIR(s.st_mode);
}

/* The toolkit roots to search, in order. */
static int cuda_roots(const char **r)
{
    int n = 0;
    const char *h = getenv("CUDA_HOME"), *p = getenv("CUDA_PATH");
    if (h && *h)
        r[n++] = h;
    if (p && *p)
        r[n++] = p;
    r[n++] = "/usr/local/cuda";
    return n;
}

static void *open_nvrtc(Arena *a)
{
    static const char *const libs[] = { "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so" };
    const char *roots[4];
    int nr = cuda_roots(roots);
    for (int i = 0; i < nr; i++)
        for (size_t j = 0; j < sizeof libs / sizeof *libs; j++) {
            char *path = arena_printf(a, "%s/lib64/%s", roots[i], libs[j]);
            void *h = is_file(path) ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
            if (h)
                return h;
        }
    for (size_t j = 0; j < sizeof libs / sizeof *libs; j++) {
        void *h = dlopen(libs[j], RTLD_NOW | RTLD_LOCAL);
        if (h)
            return h;
    }
    return NULL;
}

static bool load_nvrtc(Arena *a, Nvrtc *n)
{
    static void *lib;
    if (!lib)
        lib = open_nvrtc(a);
    if (!lib)
        return false;
    struct { const char *sym; void *dst; } syms[] = {
        { "nvrtcCreateProgram", &n->create }, { "nvrtcCompileProgram", &n->compile },
        { "nvrtcGetProgramLogSize", &n->log_size }, { "nvrtcGetProgramLog", &n->log },
        { "nvrtcGetPTXSize", &n->ptx_size }, { "nvrtcGetPTX", &n->ptx },
        { "nvrtcDestroyProgram", &n->destroy }, { "nvrtcGetErrorString", &n->error },
        { "nvrtcVersion", &n->version },
    };
    for (size_t i = 0; i < sizeof syms / sizeof *syms; i++) {
        void *f = dlsym(lib, syms[i].sym);
        if (!f)
            return false;
        memcpy(syms[i].dst, &f, sizeof f);   /* object to function pointer, portably */
    }
    return true;
}

bool cuda_nvrtc_version(Arena *a, int *major, int *minor)
{
    Nvrtc nv;
    return load_nvrtc(a, &nv) && nv.version(major, minor) == 0;
}

static const char *find_include(Arena *a)
{
    const char *roots[4];
    int nr = cuda_roots(roots);
    for (int i = 0; i < nr; i++) {
        char *p = arena_printf(a, "%s/include", roots[i]);
        if (is_dir(p))
            return p;
    }
    return NULL;
}

static const char *find_ptxas(Arena *a)
{
    const char *roots[4];
    int nr = cuda_roots(roots);
    for (int i = 0; i < nr; i++) {
        char *p = arena_printf(a, "%s/bin/ptxas", roots[i]);
        if (is_file(p) && access(p, X_OK) == 0)
            return p;
    }
    const char *path = getenv("PATH");
    for (const char *s = path; s && *s;) {
        size_t len = strcspn(s, ":");
        char *p = arena_printf(a, "%.*s/ptxas", (int)len, s);
        if (len && is_file(p) && access(p, X_OK) == 0)
            return p;
        s += len + (s[len] == ':');
    }
    return NULL;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* How many times `what` starts a line of text (the functions of a module:
 * "extern \"C\" __global__" in CUDA C, ".visible .entry" in PTX). */
static int count_entries(const char *text, const char *what)
{
    int n = 0;
    size_t len = strlen(what);
    for (const char *p = text; (p = strstr(p, what)); p += len)
        n += p == text || p[-1] == '\n';
    return n;
}

/* The threads of ptxas's --split-compile: one per function, at most 16,
 * for a module of 512 KiB of PTX or more.  A number of the PTX alone, not
 * of this machine's processors: ptxas records its options in the cubin
 * (.note.nv.tkinfo), and the header must not depend on where it was built.
 * The machine code is the same at every count (every .text section, the
 * stdlib's files and tests/run's).  The split costs CPU time of its own
 * (ptxas user+sys, 2-core machine: +15% for stdlib/nn.tk's 130 KB, +20%
 * for tests/run/mma.tk's 440 KB, +9% for matmul_bf16's 610 KB, ~0 for
 * sdpa_bf16 D=128's 930 KB), so small modules, which gain little wall
 * clock from it, stay whole.  TKC_PAR_COMPILE=0 turns it off (knob.c). */
static int ptxas_threads(const char *ptx)
{
    if (!tkc_knob("TKC_PAR_COMPILE", 1) || strlen(ptx) < 512 * 1024)
        return 1;
    int n = count_entries(ptx, ".visible .entry ");
    return n > 16 ? 16 : n;
}

static void ptxas_log(const char *ptxas, const char *arch, int threads, double ms)
{
    if (threads > 1)
        tir_log("ptxas", "%s -arch=%s --split-compile=%d in %.1f ms", ptxas, arch, threads, ms);
    else
        tir_log("ptxas", "%s -arch=%s in %.1f ms", ptxas, arch, ms);
}

/* Run ptxas on the PTX; the cubin, or NULL (a failure is reported). */
static bool assemble(Arena *a, const char *ptxas, const char *ptx, const char *arch,
                     CudaBinary *out, Diag *d)
{
    TkTimer tm = tk_timer();
    const char *tmp = getenv("TMPDIR");
    char *dir = arena_printf(a, "%s/tkc-ptxas-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        return true;                     /* no cubin; the PTX still serves */
    char *in = arena_printf(a, "%s/k.ptx", dir), *obj = arena_printf(a, "%s/k.cubin", dir);
    char *log = arena_printf(a, "%s/log", dir);
    bool ok = true;
    FILE *f = fopen(in, "w");
    if (f) {
        fputs(ptx, f);
        fclose(f);
        int threads = ptxas_threads(ptx);
        char *argv[] = { (char *)ptxas, arena_printf(a, "-arch=%s", arch), "-o", obj, in, NULL, NULL };
        if (threads > 1) {        /* before the input: the PTX file stays last */
            argv[5] = argv[4];
            argv[4] = arena_printf(a, "--split-compile=%d", threads);
        }
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        posix_spawn_file_actions_adddup2(&fa, 1, 2);
        pid_t pid;
        int st = -1;
        double t0 = now_ms();
        if (posix_spawn(&pid, ptxas, &fa, NULL, argv, environ) == 0)
            waitpid(pid, &st, 0);
        if (st != 0 && threads > 1) {    /* a ptxas before --split-compile (CUDA 12.1)? */
            argv[4] = argv[5];
            argv[5] = NULL;
            threads = 1;
            if (posix_spawn(&pid, ptxas, &fa, NULL, argv, environ) == 0)
                waitpid(pid, &st, 0);
        }
        ptxas_log(ptxas, arch, threads, now_ms() - t0);
        posix_spawn_file_actions_destroy(&fa);
        FILE *c = st == 0 ? fopen(obj, "rb") : NULL;
        if (c) {
            Buf b = { .a = a };
            char chunk[8192];
            for (size_t n; (n = fread(chunk, 1, sizeof chunk, c)) > 0;)
                for (size_t i = 0; i < n; i++)
                    buf_putc(&b, chunk[i]);
            fclose(c);
            out->cubin = (unsigned char *)b.s;
            out->ncubin = b.n;
        } else if (st != -1) {
            FILE *l = fopen(log, "r");
            char msg[2048] = "";
            size_t n = l ? fread(msg, 1, sizeof msg - 1, l) : 0;
            msg[n] = 0;
            if (l)
                fclose(l);
            diag_error(d, (Span){0}, "internal error: ptxas rejected the generated PTX:\n%s", msg);
            ok = false;
        }
    }
    remove(in);
    remove(obj);
    remove(log);
    rmdir(dir);
    tk_timer_end(&tm, "ptxas (PTX -> cubin)");
    return ok;
}

/* The code cache's key: what the PTX and cubin depend on, then the source. */
static char *cache_key(Arena *a, Nvrtc *nv, const char *src, const char *arch, const char *extra,
                       const char *ptxas)
{
    int major = 0, minor = 0;
    struct stat st = {0};
    nv->version(&major, &minor);
    if (ptxas)
        stat(ptxas, &st);
    return arena_printf(a, "tkc %s\nnvrtc %d.%d\narch %s\noption %s\nptxas %s %lld %lld\n\n%s", TKC_VERSION,
                        major, minor, arch, extra ? extra : "", ptxas ? ptxas : "-", (long long)st.st_size,
                        (long long)st.st_mtime, src);
}

/* A cache entry: "ptx N\n" N bytes, "cubin N\n" N bytes. */
static bool cache_parse(Arena *a, const char *s, size_t len, CudaBinary *out)
{
    const char *end = s + len;
    size_t n[2];
    const char *at[2];
    for (int i = 0; i < 2; i++) {
        const char *tag = i ? "cubin " : "ptx ";
        char *e;
        if ((size_t)(end - s) < strlen(tag) || strncmp(s, tag, strlen(tag)))
            return false;
        n[i] = strtoull(s + strlen(tag), &e, 10);
        if (*e != '\n' || n[i] > (size_t)(end - e - 1))
            return false;
        at[i] = e + 1;
        s = at[i] + n[i];
    }
    if (s != end || n[0] == 0)
        return false;
    out->ptx = arena_strndup(a, at[0], n[0]);
    if (n[1]) {
        out->cubin = arena_alloc(a, n[1]);
        memcpy(out->cubin, at[1], n[1]);
        out->ncubin = n[1];
    }
    out->cached = true;
    return true;
}

static void cache_store(Arena *a, const TargetCache *cache, const char *key, const CudaBinary *bin)
{
    Buf b = { .a = a };
    buf_printf(&b, "ptx %zu\n%s", strlen(bin->ptx), bin->ptx);
    buf_printf(&b, "cubin %zu\n", bin->ncubin);
    for (size_t i = 0; i < bin->ncubin; i++)
        buf_putc(&b, (char)bin->cubin[i]);
    cache->put(a, "ptx", key, b.s, b.n);
}

/* The threads of NVRTC's --split-compile (NVVM optimizes the functions of
 * the program in parallel), with TKC_PAR_COMPILE=2 only: one per function,
 * at most this machine's processors, but two at least for a program of
 * several functions.  The PTX is the same at every count from 2 on
 * (stdlib/attention.tk, all ten functions: 2, 4, 10 threads), but not
 * always the same as without the option: NVVM orders some instructions
 * differently.  For the stdlib's kernels ptxas makes the same machine code
 * of both (matmul.tk, nn.tk, vec.tk: the same PTX; attention.tk: a cvt on
 * the other side of a bar.sync in 8 places), not for every test kernel
 * (tests/run/matmul.tk, dot_i8.tk, dot_tf32.tk: loop address arithmetic in
 * another order, other SASS), so it is not the default. */
static int nvrtc_threads(const char *src)
{
    if (tkc_knob("TKC_PAR_COMPILE", 1) < 2)
        return 1;
    int n = count_entries(src, "extern \"C\" __global__ ");
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 2 ? 1 : n < cpus ? n : cpus > 2 ? (int)cpus : 2;
}

/* NVRTC's --time=FILE report, into tkc's: "phase name, ms" rows. */
static void nvrtc_phases(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        char *p1 = strchr(line, ','), *p2 = p1 ? strchr(p1 + 1, ',') : NULL;
        if (!p2 || !strstr(p2, "ms"))
            continue;
        double ms = atof(p2 + 1);
        if (strstr(p1, "Frontend"))
            tk_time_add("  NVRTC: CUDA C++ front end", ms, -1);
        else if (strstr(p1, "Optimizer"))
            tk_time_add("  NVRTC: NVVM optimizer", ms, -1);
    }
    if (f)
        fclose(f);
    remove(path);
}

/* NVRTC: src -> out->ptx. */
static bool compile_ptx(Arena *a, Nvrtc *nvp, const char *src, const char *arch, const char *extra,
                        CudaBinary *out, Diag *d)
{
    Nvrtc nv = *nvp;
    memset(out, 0, sizeof *out);
    const char *opts[16];
    int no = 0;
    opts[no++] = arena_printf(a, "--gpu-architecture=compute_%s", arch + 3);
    opts[no++] = "--std=c++17";
    opts[no++] = "-default-device";
    opts[no++] = "-w";
    int major = 0, minor = 0;
    bool v124 = nv.version(&major, &minor) == 0 && (major > 12 || (major == 12 && minor >= 4));
    if (v124)
        opts[no++] = "--minimal";        /* no runtime-API types, textures, device launch */
    int threads = nvrtc_threads(src);
    if (v124 && threads > 1)
        opts[no++] = arena_printf(a, "--split-compile=%d", threads);
    char *times = NULL;                  /* --time: NVRTC's own split of its time */
    if (tk_time_on() && v124) {
        const char *tmp = getenv("TMPDIR");
        times = arena_printf(a, "%s/tkc-nvrtc-time-%ld.csv", tmp && *tmp ? tmp : "/tmp", (long)getpid());
        remove(times);
        opts[no++] = arena_printf(a, "--time=%s", times);
    }
    const char *inc = find_include(a);
    if (inc)
        opts[no++] = arena_printf(a, "-I%s", inc);
    if (extra && *extra)
        opts[no++] = extra;
    void *prog = NULL;
    TkTimer tm = tk_timer();
    double t0 = now_ms();
    int r = nv.create(&prog, src, "tkc.cu", 0, NULL, NULL);
    if (r != 0) {
        diag_error(d, (Span){0}, "internal error: nvrtcCreateProgram: %s", nv.error(r));
        return false;
    }
    r = nv.compile(prog, no, opts);
    out->ms = now_ms() - t0;
    tk_timer_end(&tm, threads > 1 ? "NVRTC (CUDA C -> PTX; threads)" : "NVRTC (CUDA C -> PTX)");
    if (times)
        nvrtc_phases(times);
    size_t n = 0;
    if (r != 0) {
        char *log = "";
        if (nv.log_size(prog, &n) == 0 && n > 0) {
            log = arena_alloc(a, n + 1);
            nv.log(prog, log);
        }
        diag_error(d, (Span){0}, "internal error: NVRTC rejected the generated CUDA C (%s):\n%s",
                   nv.error(r), log);
        nv.destroy(&prog);
        return false;
    }
    if (nv.ptx_size(prog, &n) != 0 || n == 0) {
        diag_error(d, (Span){0}, "internal error: NVRTC produced no PTX");
        nv.destroy(&prog);
        return false;
    }
    out->ptx = arena_alloc(a, n + 1);
    nv.ptx(prog, out->ptx);
    nv.destroy(&prog);
    return true;
}

bool cuda_compile(Arena *a, const char *src, const char *arch, bool want_cubin,
                  const TargetCache *cache, CudaBinary *out, Diag *d)
{
    Nvrtc nv;
    memset(out, 0, sizeof *out);
    if (!load_nvrtc(a, &nv)) {
        diag_error(d, (Span){0}, "--target=cuda needs NVRTC (libnvrtc.so.13 not found; set CUDA_HOME)");
        return false;
    }
    const char *extra = getenv("TKC_NVRTC_OPTS");   /* one extra option, for experiments */
    const char *env = getenv("TKC_CUBIN");
    const char *ptxas = want_cubin && !(env && !strcmp(env, "0")) ? find_ptxas(a) : NULL;
    char *key = cache ? cache_key(a, &nv, src, arch, extra, ptxas) : NULL;
    size_t len;
    const char *hit = key ? cache->get(a, "ptx", key, &len) : NULL;
    if (hit && cache_parse(a, hit, len, out))
        return true;
    if (!compile_ptx(a, &nv, src, arch, extra, out, d))
        return false;
    if (ptxas && !assemble(a, ptxas, out->ptx, arch, out, d))
        return false;
    if (key)
        cache_store(a, cache, key, out);
    return true;
}

bool cuda_assemble(Arena *a, const char *ptx, const char *arch, CudaBinary *out, Diag *d)
{
    const char *env = getenv("TKC_CUBIN");
    const char *ptxas = !(env && !strcmp(env, "0")) ? find_ptxas(a) : NULL;
    return ptxas ? assemble(a, ptxas, ptx, arch, out, d) : true;
}
