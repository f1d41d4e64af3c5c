/*
 * lang/tune.c — build-time autotuning (tkc --max-autotune).
 *
 * For each kernel with an @autotune space and each --tune shape, tkc takes
 * the const values (and, on GPUs, the launch options) from
 *
 *   1. the --tune-table file, when it has a line for the kernel and shape;
 *   2. else the persistent cache, keyed by everything the choice depends on
 *      (tkc version, source bytes, kernel, target, -D options, shape, the
 *      device and compiler);
 *   3. else tuning: the space is enumerated with the default values first;
 *      a variant that does not lower (a static_assert, a bad size) or whose
 *      tiles need more than TILE_BUDGET bytes per program is pruned; the
 *      rest are built in parallel child processes, then measured one at a
 *      time on the same random data: a first run whose outputs must match
 *      the reference's (the default variant's, or the first that runs), a
 *      warm-up, then timed runs.  The fastest median wins.
 *
 * Building and measuring belong to the target: a TuneBackend each.  The C
 * target's is at the end of this file: the variant's header plus a harness
 * that fills the tensors and times the entry point, compiled with the
 * system compiler into a shared object that tkc dlopens.  The CUDA
 * target's (targets/cuda/tune.c) builds the same way from the same harness
 * generator and times on the GPU.  The cache folder also keeps the CUDA
 * target's compiled code for the headers tuning writes (tune_code_cache).
 *
 * The header then holds the winners: when one variant serves every shape
 * it is the entry point itself; otherwise each distinct winner is NAME__vN
 * and NAME dispatches on the run-time dims (TargetDispatch), falling back to
 * the default values when a winner's require rejects an untuned shape.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tune.h"
#include "../lower/tir.h"

#define TILE_BUDGET (4 << 20)       /* bytes of tiles per program, C target */
#define MAX_VARIANTS 4096
#define CACHE_MAGIC "tkc tune cache 1"

static const TuneBackend backend_c;
static const TuneBackend *const backends[] = { &backend_c, &cuda_tune_backend };

/* nvptx is the cuda target with LLVM's PTX: the same backend. */
static const TuneBackend *backend_find(const char *target)
{
    if (!strcmp(target, "nvptx"))
        target = "cuda";
    for (size_t i = 0; i < sizeof backends / sizeof *backends; i++)
        if (strcmp(backends[i]->target, target) == 0)
            return backends[i];
    return NULL;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static char *time_str(Arena *a, double ns)
{
    if (ns < 0)
        return "-";
    if (ns < 1e3)
        return arena_printf(a, "%.0f ns", ns);
    if (ns < 1e6)
        return arena_printf(a, "%.1f us", ns * 1e-3);
    if (ns < 1e9)
        return arena_printf(a, "%.2f ms", ns * 1e-6);
    return arena_printf(a, "%.2f s", ns * 1e-9);
}

/* ------------------------------------------------------------ files */

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ s[i]) * 0x100000001b3ull;
    return h;
}

#define FNV0 0xcbf29ce484222325ull

/* A string and its terminating NUL: fields cannot run together. */
static uint64_t fnv_str(uint64_t h, const char *s) { return fnv(h, s ? s : "", strlen(s ? s : "") + 1); }

static char *read_file(Arena *a, const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    Buf b = { .a = a };
    buf_puts(&b, "");
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        for (size_t i = 0; i < n; i++)
            buf_putc(&b, chunk[i]);
    fclose(f);
    if (len)
        *len = b.n;
    return b.s;
}

bool tune_write_atomic(Arena *a, const char *path, const char *data, size_t n)
{
    char *tmp = arena_printf(a, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f)
        return false;
    bool ok = fwrite(data, 1, n, f) == n;
    ok &= fclose(f) == 0;
    if (ok && rename(tmp, path) == 0)
        return true;
    remove(tmp);
    return false;
}

static char *first_line(Arena *a, const char *s)
{
    while (s && (*s == ' ' || *s == '\n'))
        s++;
    return s ? arena_strndup(a, s, strcspn(s, "\n")) : "";
}

/* ------------------------------------------------------------ cache */

static char *cache_dir(Arena *a)
{
    const char *d = getenv("TKC_CACHE_DIR");
    if (d && *d)
        return arena_strdup(a, d);
    const char *home = getenv("HOME");
    return arena_printf(a, "%s/.cache/tkc", home && *home ? home : "/tmp");
}

static void make_dirs(Arena *a, const char *path)
{
    char *p = arena_strdup(a, path);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            mkdir(p, 0755);
            *s = '/';
        }
    mkdir(p, 0755);
}

/* Entries are `*.tkc` files; `*.tkc.tmp<pid>` are interrupted writes. */
static bool cache_file(const char *name)
{
    const char *dot = strstr(name, ".tkc");
    return dot && (dot[4] == 0 || !strncmp(dot + 4, ".tmp", 4));
}

static void cache_walk(bool clear)
{
    Arena *a = arena_new();
    char *dir = cache_dir(a);
    DIR *d = opendir(dir);
    long n = 0, bytes = 0;
    struct dirent *de;
    while (d && (de = readdir(d))) {
        if (!cache_file(de->d_name))
            continue;
        char *path = arena_printf(a, "%s/%s", dir, de->d_name);
        struct stat st;
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (clear && remove(path) != 0)
            continue;
        n++;
        bytes += (long)st.st_size;
    }
    if (d)
        closedir(d);
    if (clear)
        printf("tkc: removed %ld cache entries (%ld bytes) from %s\n", n, bytes, dir);
    else
        printf("cache dir: %s\nentries:   %ld\nbytes:     %ld\n", dir, n, bytes);
    arena_free(a);
}

/* The checksum line covers every byte before it (binary too). */
static Buf seal(Arena *a, const char *body, size_t n)
{
    Buf b = { .a = a };
    for (size_t i = 0; i < n; i++)
        buf_putc(&b, body[i]);
    buf_printf(&b, "checksum %016llx\n", (unsigned long long)fnv(FNV0, body, n));
    return b;
}

static bool sealed(char *text, size_t len)
{
    if (len < 26 || text[len - 1] != '\n')
        return false;
    char *c = text + len - 26;
    if (strncmp(c, "checksum ", 9) != 0 || (c != text && c[-1] != '\n'))
        return false;
    unsigned long long want = strtoull(c + 9, NULL, 16);
    return fnv(FNV0, text, (size_t)(c - text)) == want;
}

/* ------------------------------------------------------------ code cache */

/* Compiled code (the CUDA target's PTX and cubin) in the same folder as
 * the tuning results: `KIND-<hash of the key>.tkc`, the magic line and the
 * kind, the bytes and a newline, the checksum line. */
#define CODE_MAGIC "tkc code cache 1"

/* In a variant's build (a child process): its own folder, where its code
 * goes instead of the cache folder; promote_code moves a chosen variant's
 * there, so that the header's own compile of the winner finds it (and the
 * cache keeps the chosen variants' code, not every variant's). */
static const char *code_dir;

static char *code_path(Arena *a, const char *kind, const char *key)
{
    uint64_t h = fnv_str(fnv_str(FNV0, kind), key);
    return arena_printf(a, "%s/%s-%016llx.tkc", code_dir ? code_dir : cache_dir(a), kind, (unsigned long long)h);
}

static char *code_get(Arena *a, const char *kind, const char *key, size_t *len)
{
    char *path = code_path(a, kind, key), *head = arena_printf(a, "%s\n%s\n", CODE_MAGIC, kind);
    size_t n, hn = strlen(head);
    char *text = read_file(a, path, &n);
    if (!text)
        return NULL;
    if (!sealed(text, n) || n < hn + 27 || memcmp(text, head, hn)) {
        tir_log("autotune", "cache entry %s is corrupted: rebuilding", path);
        return NULL;
    }
    *len = n - hn - 27;
    return text + hn;
}

static void code_put(Arena *a, const char *kind, const char *key, const char *data, size_t len)
{
    Buf b = { .a = a };
    buf_printf(&b, "%s\n%s\n", CODE_MAGIC, kind);
    for (size_t i = 0; i < len; i++)
        buf_putc(&b, data[i]);
    buf_putc(&b, '\n');
    if (!code_dir)
        make_dirs(a, cache_dir(a));
    Buf e = seal(a, b.s, b.n);
    char *path = code_path(a, kind, key);
    if (!tune_write_atomic(a, path, e.s, e.n))
        tir_log("autotune", "cannot write the cache entry %s: %s", path, strerror(errno));
}

const TargetCache *tune_code_cache(const TuneOptions *o)
{
    static const TargetCache cache = { code_get, code_put };
    return o->on && !o->no_cache ? &cache : NULL;
}

/* Copy the code cache entries of variant folder dir into the cache folder. */
static void promote_code(Arena *a, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    make_dirs(a, cache_dir(a));
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name), len;
        if (n < 9 || strncmp(e->d_name, "ptx-", 4) || strcmp(e->d_name + n - 4, ".tkc"))
            continue;
        char *text = read_file(a, arena_printf(a, "%s/%s", dir, e->d_name), &len);
        char *to = arena_printf(a, "%s/%s", cache_dir(a), e->d_name);
        if (text && !tune_write_atomic(a, to, text, len))
            tir_log("autotune", "cannot write the cache entry %s: %s", to, strerror(errno));
    }
    closedir(d);
}

/* ------------------------------------------------------------ options */

int tune_option(Arena *a, TuneOptions *o, int argc, char **argv, int *i)
{
    const char *s = argv[*i];
    if (!strcmp(s, "--max-autotune")) {
        o->on = true;
    } else if (!strcmp(s, "--no-cache")) {
        o->no_cache = true;
    } else if (!strcmp(s, "--cache-info") || !strcmp(s, "--cache-clear")) {
        cache_walk(s[8] == 'c');
        exit(0);
    } else if (!strcmp(s, "--tune") || !strcmp(s, "--tune-table")) {
        if (*i + 1 >= argc) {
            fprintf(stderr, "tkc: %s needs an argument\n", s);
            return 2;
        }
        const char *v = argv[++*i];
        if (s[6])
            o->table = v;
        else
            vec_push(a, o->shapes, v);
    } else if (!strncmp(s, "--tune=", 7)) {
        vec_push(a, o->shapes, s + 7);
    } else if (!strncmp(s, "--tune-table=", 13)) {
        o->table = s + 13;
    } else {
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ the space */

typedef struct Tuner {
    Arena *a;
    const KernelInfo *k;
    const Target *target;
    const TuneBackend *be;
    const TuneOptions *o;
    Diag *d;
    Vec(const TuneAxis *) axes;      /* the axes tuned here */
    Vec(TuneVariant) vs;             /* vs.v[0]: the default values */
    Vec(TuneShape) shapes;
    int *choice;                     /* per shape: variant, or -1 */
    bool *from_table;                /* per shape */
    double *best_ns;                 /* per shape, when known */
    char *device;                    /* for the cache key, once asked */
    bool no_device;
    const char *tmp;                 /* the temporary folder, once made */
    bool prepared;
} Tuner;

/* The target as tables, cache entries and logs name it: nvptx for the
 * cuda backend with LLVM's PTX (its code, so its best choices, differ). */
static const char *tuned_target(const Tuner *T)
{
    return T->o->llvm && !strcmp(T->be->target, "cuda") ? "nvptx" : T->be->target;
}

static bool pinned(const Tuner *T, const char *name)
{
    for (int i = 0; i < T->o->ndefs; i++)
        if (!strcmp(T->o->defs[i].name, name))
            return true;
    return false;
}

static bool is_launch(const TuneAxis *ax) { return ax->konst < 0; }

/* Does launch option o (a LaunchOpt) change this target's code? */
static bool applies(const Tuner *T, int o)
{
    return T->be->launch && T->be->launch(o, T->o->arch);
}

/* The axis named by the n bytes at name among those tuned here, or -1. */
static int axis_named(const Tuner *T, const char *name, size_t n)
{
    for (int j = 0; j < T->axes.n; j++)
        if (strlen(T->axes.v[j]->name) == n && !strncmp(T->axes.v[j]->name, name, n))
            return j;
    return -1;
}

/* A launch option named by the n bytes at name that does not change this
 * target's code (a table line may name it). */
static bool ignored(const Tuner *T, const char *name, size_t n)
{
    for (int o = 0; o < LO_N; o++)
        if (strlen(sema_launch_names[o]) == n && !strncmp(sema_launch_names[o], name, n))
            return !applies(T, o);
    return false;
}

static int64_t axis_value(const TuneAxis *ax, const int64_t *cv, const int64_t *lv)
{
    return is_launch(ax) ? lv[ax->launch] : cv[ax->konst];
}

static char *label(Tuner *T, const int64_t *cv, const int64_t *lv)
{
    Buf b = { .a = T->a };
    buf_puts(&b, "");
    for (int i = 0; i < T->axes.n; i++)
        buf_printf(&b, "%s%s=%lld", b.n ? " " : "", T->axes.v[i]->name,
                   (long long)axis_value(T->axes.v[i], cv, lv));
    return b.n ? b.s : "(no axes)";
}

/* The variant with these const and launch values, or -1. */
static int variant_of(const Tuner *T, const int64_t *cv, const int64_t *lv)
{
    for (int i = 0; i < T->vs.n; i++)
        if (!memcmp(T->vs.v[i].cvals, cv, sizeof(int64_t) * (size_t)T->k->nconsts)
            && !memcmp(T->vs.v[i].launch, lv, sizeof lv[0] * LO_N))
            return i;
    return -1;
}

static void add_variant(Tuner *T, const int64_t *cv, const int64_t *lv)
{
    int nc = T->k->nconsts;
    if (variant_of(T, cv, lv) >= 0)
        return;
    TuneVariant v = { 0 };
    memcpy(v.launch, lv, sizeof v.launch);
    v.cvals = arena_alloc(T->a, sizeof(int64_t) * (size_t)(nc + 1));
    memcpy(v.cvals, cv, sizeof(int64_t) * (size_t)nc);
    v.label = label(T, cv, lv);
    vec_push(T->a, T->vs, v);
}

/* The axes tuned here, one per name (launch options that do not change
 * the code and consts set by -D are not), with a note on the others. */
static void tuned_axes(Tuner *T)
{
    const KernelInfo *k = T->k;
    Buf ign = { .a = T->a };
    int nign = 0;
    unsigned said = 0;                /* bit per LaunchOpt ignored */
    buf_puts(&ign, "");
    for (int i = 0; i < k->ntune; i++) {
        const TuneAxis *ax = &k->tune[i];
        if (axis_named(T, ax->name, strlen(ax->name)) >= 0 || (is_launch(ax) && (said >> ax->launch & 1)))
            continue;
        if (is_launch(ax) && !applies(T, ax->launch)) {
            said |= 1u << ax->launch;
            buf_printf(&ign, "%s%s", nign++ ? ", " : "", ax->name);
        } else if (pinned(T, ax->name)) {
            tir_log("autotune", "%s: %s is set by -D: not tuned", k->name, ax->name);
        } else {
            vec_push(T->a, T->axes, ax);
        }
    }
    if (nign)
        tir_log("autotune", "%s: %s do%s not change %s-target code%s%s: ignored", k->name, ign.s,
                nign > 1 ? "" : "es", tuned_target(T), T->be->launch ? " for " : "",
                T->be->launch ? (T->o->arch ? T->o->arch : "sm_90a") : "");
}

/* The default variant, then per @autotune space the Cartesian product of
 * its axes in order (the last axis varies fastest; axes of other spaces at
 * their defaults): the union of the spaces. */
static bool enumerate(Tuner *T)
{
    const KernelInfo *k = T->k;
    tuned_axes(T);
    int64_t *cv = arena_alloc(T->a, sizeof(int64_t) * (size_t)(k->nconsts + 1));
    for (int i = 0; i < k->nconsts; i++)
        cv[i] = k->consts[i].ival;
    /* launch options: @launch's (or -D's), else false for the switches, 1
     * for cluster, no hint (0) for blocks and the first value listed for
     * warps and stages */
    int64_t lw[LO_N];
    for (int o = 0; o < LO_N; o++)
        lw[o] = k->launch[o] >= 0 ? k->launch[o] : o == LO_WARPS || o == LO_STAGES ? -1 : o == LO_CLUSTER ? 1 : 0;
    for (int i = 0; i < T->axes.n; i++)
        if (is_launch(T->axes.v[i]) && lw[T->axes.v[i]->launch] < 0)
            lw[T->axes.v[i]->launch] = T->axes.v[i]->values[0];
    add_variant(T, cv, lw);
    int64_t *dc = arena_alloc(T->a, sizeof(int64_t) * (size_t)(k->nconsts + 1));
    memcpy(dc, cv, sizeof(int64_t) * (size_t)k->nconsts);
    int *at = arena_alloc(T->a, sizeof(int) * (size_t)(k->ntune + 1));
    const TuneAxis **sp = arena_alloc(T->a, sizeof *sp * (size_t)(k->ntune + 1));
    for (int s = 0; s < k->nspaces; s++) {
        int n = 0;
        for (int i = 0; i < k->ntune; i++) {
            const TuneAxis *ax = &k->tune[i];
            int j = axis_named(T, ax->name, strlen(ax->name));
            if (ax->space == s && j >= 0)
                sp[n++] = ax, at[n - 1] = 0;
        }
        for (;;) {
            int64_t l[LO_N];
            memcpy(l, lw, sizeof l);
            memcpy(cv, dc, sizeof(int64_t) * (size_t)k->nconsts);
            for (int i = 0; i < n; i++) {
                if (is_launch(sp[i]))
                    l[sp[i]->launch] = sp[i]->values[at[i]];
                else
                    cv[sp[i]->konst] = sp[i]->values[at[i]];
            }
            add_variant(T, cv, l);
            if (T->vs.n > MAX_VARIANTS) {
                diag_error(T->d, k->decl->span, "the @autotune space of %s has more than %d variants", k->name,
                           MAX_VARIANTS);
                return false;
            }
            int i = n - 1;
            while (i >= 0 && ++at[i] == sp[i]->n)
                at[i--] = 0;
            if (i < 0)
                break;
        }
    }
    return true;
}

/* "BM=64 BN=32": the variant with these values on the tuned axes (the rest
 * default), or -1. */
static int find_choice(Tuner *T, const char *text)
{
    int64_t *cv = arena_alloc(T->a, sizeof(int64_t) * (size_t)(T->k->nconsts + 1));
    memcpy(cv, T->vs.v[0].cvals, sizeof(int64_t) * (size_t)T->k->nconsts);
    int64_t lv[LO_N];
    memcpy(lv, T->vs.v[0].launch, sizeof lv);
    for (const char *p = text; *p;) {
        p += strspn(p, " \t");
        size_t n = strcspn(p, "= \t");
        if (!n || p[n] != '=')
            break;
        char *end;
        long long v = strtoll(p + n + 1, &end, 10);
        if (end == p + n + 1)
            return -1;
        int j = axis_named(T, p, n);
        if (j < 0 && !ignored(T, p, n))
            return -1;
        if (j >= 0 && is_launch(T->axes.v[j]))
            lv[T->axes.v[j]->launch] = v;
        else if (j >= 0)
            cv[T->axes.v[j]->konst] = v;
        p = end;
    }
    return variant_of(T, cv, lv);
}

/* ------------------------------------------------------------ shapes */

static int dim_index(const KernelInfo *k, const char *name, size_t n)
{
    for (int i = 0; i < k->ndims; i++)
        if (strlen(k->dims[i].name) == n && !strncmp(k->dims[i].name, name, n))
            return i;
    return -1;
}

static int scalar_index(const KernelInfo *k, const char *name, size_t n)
{
    for (int i = 0; i < k->nparams; i++)
        if (!k->params[i].is_tensor && strlen(k->params[i].name) == n
            && !strncmp(k->params[i].name, name, n))
            return i;
    return -1;
}

/* "M=2048,N=2048": values for the kernel's run-time dims and, optionally,
 * its scalar params (default 1); names of other kernels' dims are ignored. */
static bool parse_shape(Tuner *T, const char *spec, TuneShape *s)
{
    const KernelInfo *k = T->k;
    s->dims = arena_alloc(T->a, sizeof(int64_t) * (size_t)(k->ndims + 1));
    s->scalars = arena_alloc(T->a, sizeof(double) * (size_t)(k->nparams + 1));
    bool *set = arena_alloc(T->a, (size_t)(k->ndims + 1));
    for (int i = 0; i < k->nparams; i++)
        s->scalars[i] = 1;
    for (const char *p = spec; *p;) {
        size_t n = strcspn(p, "=,");
        char *end;
        double v = p[n] == '=' ? strtod(p + n + 1, &end) : 0;
        if (!n || p[n] != '=' || end == p + n + 1 || (*end && *end != ',')) {
            fprintf(stderr, "tkc: --tune wants DIM=VALUE,..., got '%s'\n", spec);
            return false;
        }
        int d = dim_index(k, p, n), sc = scalar_index(k, p, n);
        if (d >= 0 && (v < 0 || v != floor(v) || v > 9e18)) {
            fprintf(stderr, "tkc: --tune '%s': dim %.*s must be a non-negative integer\n", spec, (int)n, p);
            return false;
        }
        if (d >= 0 && !k->dims[d].specialized)
            s->dims[d] = (int64_t)v, set[d] = true;
        if (sc >= 0)
            s->scalars[sc] = v;
        p = *end ? end + 1 : end;
    }
    Buf b = { .a = T->a };
    buf_puts(&b, "");
    for (int d = 0; d < k->ndims; d++) {
        if (k->dims[d].specialized) {
            s->dims[d] = k->dims[d].value;
            continue;
        }
        if (!set[d]) {
            fprintf(stderr, "tkc: --tune '%s' gives no value for dim %s of kernel %s\n", spec,
                    k->dims[d].name, k->name);
            return false;
        }
        buf_printf(&b, "%s%s=%lld", b.n ? "," : "", k->dims[d].name, (long long)s->dims[d]);
    }
    for (int i = 0; i < k->nparams; i++)
        if (!k->params[i].is_tensor && s->scalars[i] != 1)
            buf_printf(&b, "%s%s=%.17g", b.n ? "," : "", k->params[i].name, s->scalars[i]);
    s->text = b.n ? b.s : "-";
    return true;
}

static bool parse_shapes(Tuner *T)
{
    const TuneOptions *o = T->o;
    bool rt = false;
    for (int d = 0; d < T->k->ndims; d++)
        rt |= !T->k->dims[d].specialized;
    if (o->shapes.n == 0 && rt) {
        fprintf(stderr, "tkc: --max-autotune needs a shape: --tune %s=...\n", T->k->dims[0].name);
        return false;
    }
    for (int i = 0; i < (o->shapes.n ? o->shapes.n : 1); i++) {
        TuneShape s = {0};
        if (!parse_shape(T, o->shapes.n ? o->shapes.v[i] : "", &s))
            return false;
        bool dup = false;
        for (int j = 0; j < T->shapes.n; j++)
            dup |= !strcmp(T->shapes.v[j].text, s.text);
        if (!dup)
            vec_push(T->a, T->shapes, s);
    }
    return true;
}

/* ------------------------------------------------------------ table */

/* A table line: `KERNEL[@TARGET] SHAPE -> NAME=V ...  # comment`; the target
 * is written when it is not c. */
static char *table_key(Tuner *T, const TuneShape *s)
{
    return strcmp(T->be->target, "c")
         ? arena_printf(T->a, "%s@%s %s", T->k->name, tuned_target(T), s->text)
         : arena_printf(T->a, "%s %s", T->k->name, s->text);
}

static const char *table_lookup(Tuner *T, const char *text, const char *key)
{
    size_t n = strlen(key);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p) {
        const char *q = p + strspn(p, " \t");
        if (strncmp(q, key, n) != 0 || (q[n] != ' ' && q[n] != '\t'))
            continue;
        q += n + strspn(q + n, " \t");
        if (strncmp(q, "->", 2) != 0)
            continue;
        size_t len = strcspn(q + 2, "#\n");
        return arena_strndup(T->a, q + 2, len);
    }
    return NULL;
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Merge the choices made here into the table: every other line stays (the
 * ones this run read, too), all sorted, so the file only changes where a
 * choice does. */
static void table_write(Tuner *T, const char *old)
{
    Vec(char *) lines = {0};
    for (const char *p = old; p && *p;) {
        size_t n = strcspn(p, "\n");
        char *l = arena_strndup(T->a, p, n);
        p += n + (p[n] == '\n');
        const char *q = l + strspn(l, " \t");
        bool mine = false;
        for (int i = 0; i < T->shapes.n; i++) {
            if (T->from_table[i])
                continue;
            char *key = table_key(T, &T->shapes.v[i]);
            size_t kn = strlen(key);
            mine |= !strncmp(q, key, kn) && (q[kn] == ' ' || q[kn] == '\t');
        }
        if (*q && *q != '#' && !mine)
            vec_push(T->a, lines, l);
    }
    for (int i = 0; i < T->shapes.n; i++) {
        if (T->from_table[i])
            continue;
        Buf b = { .a = T->a };
        buf_printf(&b, "%s -> %s", table_key(T, &T->shapes.v[i]), T->vs.v[T->choice[i]].label);
        if (T->best_ns[i] > 0)
            buf_printf(&b, "  # %s", time_str(T->a, T->best_ns[i]));
        vec_push(T->a, lines, b.s);
    }
    qsort(lines.v, (size_t)lines.n, sizeof *lines.v, cmp_str);
    Buf b = { .a = T->a };
    buf_puts(&b, "# tkc tuning table: KERNEL SHAPE -> CONST=VALUE ...  (tkc --tune-table; times are notes)\n");
    for (int i = 0; i < lines.n; i++)
        buf_printf(&b, "%s\n", lines.v[i]);
    if (old && !strcmp(old, b.s))
        return;
    if (!tune_write_atomic(T->a, T->o->table, b.s, b.n))
        fprintf(stderr, "tkc: warning: cannot write the tuning table '%s': %s\n", T->o->table,
                strerror(errno));
}

/* ------------------------------------------------------------ cache entries */

static char *cache_path(Tuner *T, const TuneShape *s)
{
    const TuneOptions *o = T->o;
    uint64_t h = fnv_str(FNV0, "tkc " TKC_VERSION);
    for (int i = 0; o->program && i < o->program->nfiles; i++) {
        const Src *src = o->program->files[i]->src;
        h = fnv(h, src->text, src->len);
    }
    h = fnv_str(fnv_str(h, T->k->name), tuned_target(T));
    if (strcmp(T->be->target, "c"))
        h = fnv_str(h, o->arch ? o->arch : "default arch");
    for (int i = 0; i < o->ndefs; i++)
        h = fnv_str(fnv_str(h, o->defs[i].name), o->defs[i].value);
    h = fnv_str(fnv_str(h, s->text), T->device);
    return arena_printf(T->a, "%s/tune-%016llx.tkc", cache_dir(T->a), (unsigned long long)h);
}

/* The entry's choice, or -1 (missing, corrupt or stale: then rebuilt). */
static int cache_read(Tuner *T, int si, const char *path)
{
    size_t len;
    char *text = read_file(T->a, path, &len);
    if (!text)
        return -1;
    if (!sealed(text, len) || strncmp(text, CACHE_MAGIC "\n", sizeof CACHE_MAGIC)) {
        tir_log("autotune", "%s %s: cache entry %s is corrupted: rebuilding", T->k->name,
                T->shapes.v[si].text, path);
        return -1;
    }
    const char *c = strstr(text, "\nchoice ");
    int v = c ? find_choice(T, first_line(T->a, c + 8)) : -1;
    const char *t = strstr(text, "\nbest_ns ");
    T->best_ns[si] = t ? strtod(t + 9, NULL) : -1;
    if (v >= 0) {
        tir_log("autotune", "%s %s: cache hit (%s) -> %s", T->k->name, T->shapes.v[si].text, path,
                T->vs.v[v].label);
        for (const char *p = text; (p = strstr(p, "\nrow ")); p++)
            tir_log("autotune", "  %s", first_line(T->a, p + 5));
    }
    return v;
}

static void cache_write(Tuner *T, int si, const char *path, const char *rows)
{
    Buf b = { .a = T->a };
    buf_printf(&b, "%s\nkernel %s\ntarget %s\nshape %s\ndevice %s\nchoice %s\nbest_ns %.1f\n%s",
               CACHE_MAGIC, T->k->name, tuned_target(T), T->shapes.v[si].text, T->device,
               T->vs.v[T->choice[si]].label, T->best_ns[si], rows);
    make_dirs(T->a, cache_dir(T->a));
    Buf e = seal(T->a, b.s, b.n);
    if (!tune_write_atomic(T->a, path, e.s, e.n))
        tir_log("autotune", "cannot write the cache entry %s: %s", path, strerror(errno));
}

/* ------------------------------------------------------------ preparing */

/* The tiles one program keeps in arrays, roughly as the C target lays them
 * out: vars, loads, reductions, dots and a contiguous copy of each dot
 * operand.  Elementwise values fuse into loops and take no array; a sum
 * over every tile value overstates big-tile variants several times. */
static int64_t tile_bytes(const TirKernel *t)
{
    int64_t n = 0;
    for (int i = 1; i < t->instrs.n; i++) {
        const Instr *in = t->instrs.v[i];
        bool arr = in->op == OP_LOAD || in->op == OP_REDUCE || in->op == OP_CUMSUM || in->op == OP_DOT;
        if (arr && in->ty.rank > 0)
            n += tty_numel(&in->ty) * (dtype_info[in->ty.dt].bits / 8);
        for (int j = 0; in->op == OP_DOT && j < 2; j++)
            n += tty_numel(&t->instrs.v[in->args[j]]->ty) * 4;
    }
    for (int i = 0; i < t->vars.n; i++)
        n += tty_numel(&t->vars.v[i].ty) * (dtype_info[t->vars.v[i].ty.dt].bits / 8);
    return n;
}

/* Lower v with diagnostics to a string: the first error is why it is pruned. */
static TirKernel *lower_quiet(Tuner *T, const TuneVariant *v, const char **why)
{
    const int64_t *cv = v->cvals;
    const KernelInfo *k = T->k;
    double *fv = arena_alloc(T->a, sizeof(double) * (size_t)(k->nconsts + 1));
    for (int i = 0; i < k->nconsts; i++)
        fv[i] = k->consts[i].fval;
    char *msg = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&msg, &len);
    Diag d;
    diag_init(&d, f ? f : stderr);
    TirKernel *t = f ? tir_lower(k, cv, fv, T->a, &d) : NULL;
    if (f)
        fclose(f);
    if (!t || d.nerrors) {
        const char *e = msg ? strstr(msg, "error: ") : NULL;
        *why = arena_printf(T->a, "does not compile: %s", e ? first_line(T->a, e + 7) : "lowering failed");
        t = NULL;
    } else {
        tir_optimize(t, NULL, stderr);
        tir_launch(t, v->launch);
    }
    free(msg);
    return t;
}

static const char *make_tmp(Tuner *T)
{
    if (T->tmp)
        return T->tmp;
    const char *base = getenv("TMPDIR");
    char *tmpl = arena_printf(T->a, "%s/tkc-tune-XXXXXX", base && *base ? base : "/tmp");
    T->tmp = mkdtemp(tmpl);
    if (!T->tmp)
        fprintf(stderr, "tkc: error: cannot make a temporary folder %s: %s\n", tmpl, strerror(errno));
    return T->tmp;
}

static void remove_tree(Arena *a, const char *path)
{
    DIR *d = opendir(path);
    struct dirent *de;
    while (d && (de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        char *p = arena_printf(a, "%s/%s", path, de->d_name);
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
            remove_tree(a, p);
        else
            remove(p);
    }
    if (d)
        closedir(d);
    rmdir(path);
}

static void progress(Tuner *T, const char *what, int i, int n)
{
    if (!isatty(2))
        return;
    if (what)
        fprintf(stderr, "\r\033[Ktkc: tuning %s: %s %d/%d", T->k->name, what, i, n);
    else
        fprintf(stderr, "\r\033[K");
    fflush(stderr);
}

/* Timings on a machine busier than its cores mean little (OpenMP barriers
 * wait for descheduled threads): say so. */
static void busy_warning(void)
{
    double load = 0;
    FILE *f = fopen("/proc/loadavg", "r");
    if (!f)
        return;
    if (fscanf(f, "%lf", &load) != 1)
        load = 0;
    fclose(f);
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    if (ncpu > 0 && load > (double)ncpu)
        fprintf(stderr, "tkc: warning: --max-autotune: the machine is busy (load %.1f on %ld cores): "
                "timings may not be reliable\n", load, ncpu);
}

/* Lower every variant, prune, and build the rest in parallel children. */
static bool prepare(Tuner *T)
{
    if (T->prepared)
        return true;
    T->prepared = true;
    busy_warning();
    if (!make_tmp(T))
        return false;
    for (int i = 0; i < T->vs.n; i++) {
        TuneVariant *v = &T->vs.v[i];
        v->tir = lower_quiet(T, v, &v->pruned);
        if (v->tir && strcmp(T->be->target, "c") == 0 && tile_bytes(v->tir) > TILE_BUDGET) {
            v->pruned = arena_printf(T->a, "tiles need %lld KiB per program (budget %d KiB)",
                                     (long long)(tile_bytes(v->tir) >> 10), TILE_BUDGET >> 10);
            v->tir = NULL;
        }
        v->dir = arena_printf(T->a, "%s/v%d", T->tmp, i);
        if (v->tir && mkdir(v->dir, 0700) != 0) {
            v->pruned = arena_printf(T->a, "cannot make %s", v->dir);
            v->tir = NULL;
        }
    }
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN), most = T->be->jobs ? T->be->jobs : 4;
    int jobs = ncpu < 2 ? 2 : ncpu > most ? (int)most : (int)ncpu, running = 0, done = 0, total = 0;
    /* each variant's code goes to its folder (code_dir), the chosen ones' to
     * the cache (promote_code) */
    TargetOptions to = { .source = "autotune variant", .guard = "TKC_TUNE_VARIANT_H", .arch = T->o->arch,
                         .cache = tune_code_cache(T->o), .llvm = T->o->llvm, .nvrtc = T->o->nvrtc };
    pid_t *pid = arena_alloc(T->a, sizeof(pid_t) * (size_t)(T->vs.n + 1));
    for (int i = 0; i < T->vs.n; i++)
        total += T->vs.v[i].tir != NULL;
    fflush(stdout);
    fflush(stderr);
    for (int i = 0; i <= T->vs.n; i++) {
        while (running > 0 && (running >= jobs || i == T->vs.n)) {
            int st;
            pid_t p = wait(&st);
            if (p < 0)
                break;
            running--;
            progress(T, "compiled", ++done, total);
            for (int j = 0; j < T->vs.n; j++)
                if (pid[j] == p && !(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
                    TuneVariant *v = &T->vs.v[j];
                    char *log = read_file(T->a, arena_printf(T->a, "%s/build.log", v->dir), NULL);
                    const char *e = log ? strstr(log, "error") : NULL;
                    if (WIFEXITED(st) && WEXITSTATUS(st) == TUNE_UNFIT && e && !strncmp(e, "error: ", 7))
                        v->pruned = first_line(T->a, e + 7);
                    else
                        v->pruned = arena_printf(T->a, "compile failed: %s", first_line(T->a, e ? e : log));
                    v->tir = NULL;
                }
        }
        if (i == T->vs.n || !T->vs.v[i].tir)
            continue;
        pid[i] = fork();
        if (pid[i] == 0) {
            code_dir = T->vs.v[i].dir;
            _exit(T->be->build(&T->vs.v[i], T->target, &to));
        }
        if (pid[i] < 0) {
            T->vs.v[i].pruned = "cannot fork the compiler";
            T->vs.v[i].tir = NULL;
            continue;
        }
        running++;
    }
    progress(T, NULL, 0, 0);
    return true;
}

/* ------------------------------------------------------------ measuring */

int tune_reps(double first_ns, double best_ns)
{
    /* TKC_TUNE_EXHAUSTIVE=1: time every variant fully, for about 0.3 s (to
     * check the normal run's choice against) */
    const char *ex = getenv("TKC_TUNE_EXHAUSTIVE");
    bool all = ex && *ex && strcmp(ex, "0");
    if (best_ns > 0 && first_ns > 4 * best_ns && !all)
        return 0;
    double budget = all ? 0.3e9 : 0.1e9;           /* about 0.1 s of timed runs */
    int most = all ? 300 : 100;
    double n = first_ns > 0 ? budget / first_ns : most;
    return n < 5 ? 5 : n > most ? most : (int)n;
}

static void free_outputs(const KernelInfo *k, TuneMeasure *m)
{
    for (int i = 0; m->outputs && i < k->nparams; i++)
        free(m->outputs[i]);
    free(m->outputs);
    m->outputs = NULL;
}

/* Element i of a float tensor of type dt. */
static double elem(DType dt, const void *p, size_t i)
{
    if (dt == DT_F32)
        return ((const float *)p)[i];
    if (dt == DT_F64)
        return ((const double *)p)[i];
    uint16_t h = ((const uint16_t *)p)[i];
    uint32_t u = (uint32_t)h << 16;
    float f;
    if (dt == DT_F16) {   /* exact f16 -> f32 */
        uint32_t s = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
        if (e == 0) {
            f = (float)m * 5.9604644775390625e-8f;
            return s ? -f : f;
        }
        u = e == 0x1f ? s | 0x7f800000u | (m << 13) : s | ((e + 112u) << 23) | (m << 13);
    }
    memcpy(&f, &u, 4);
    return f;
}

/* Same outputs?  Integers exactly; floats within a relative 1e-3 (or two
 * ulps of a 16-bit type) of the reference, where elements much smaller than
 * the tensor's root mean square compare against that.  Streams: tensors of
 * 10^8 elements need no copies. */
static bool same_float(DType dt, const void *x, const void *r, size_t n, double tol)
{
    double ss = 0;
    for (size_t i = 0; i < n; i++) {
        double v = elem(dt, r, i);
        ss += isfinite(v) ? v * v : 0;
    }
    double rms = n ? sqrt(ss / (double)n) : 0;
    for (size_t i = 0; i < n; i++) {
        double a = elem(dt, x, i), b = elem(dt, r, i);
        if (isnan(b) || isnan(a) || isinf(b) || isinf(a)) {
            if (!(isnan(b) && isnan(a)) && a != b)
                return false;
            continue;
        }
        double scale = fabs(b) > rms ? fabs(b) : rms;
        if (fabs(a - b) > tol * scale)
            return false;
    }
    return true;
}

static bool same_outputs(const KernelInfo *k, const TuneMeasure *x, const TuneMeasure *r)
{
    for (int i = 0; i < k->nparams; i++) {
        if (!r->outputs[i])
            continue;
        if (!x->outputs || !x->outputs[i] || x->bytes[i] != r->bytes[i])
            return false;
        DType dt = k->params[i].dt;
        if (!dtype_is_float(dt)) {
            if (memcmp(x->outputs[i], r->outputs[i], r->bytes[i]))
                return false;
            continue;
        }
        size_t n = r->bytes[i] / (size_t)(dtype_info[dt].bits / 8);
        double tol = dt == DT_F16 ? 2e-3 : dt == DT_BF16 ? 1.6e-2 : 1e-3;
        if (!same_float(dt, x->outputs[i], r->outputs[i], n, tol))
            return false;
    }
    return true;
}

typedef struct Row { double ns; const char *status; } Row;

static void print_rows(Tuner *T, int si, Row *rows, int ref, Buf *out)
{
    size_t w = 6;
    for (int i = 0; i < T->vs.n; i++)
        w = strlen(T->vs.v[i].label) > w ? strlen(T->vs.v[i].label) : w;
    double base = ref >= 0 ? rows[ref].ns : -1;
    buf_printf(out, "row %-*s  %-10s  %-7s  %s\n", (int)w, "config", "median", "speedup", "status");
    for (int i = 0; i < T->vs.n; i++) {
        char *sp = rows[i].ns > 0 && base > 0 ? arena_printf(T->a, "%.2fx", base / rows[i].ns) : "-";
        buf_printf(out, "row %-*s  %-10s  %-7s  %s%s%s\n", (int)w, T->vs.v[i].label,
                   time_str(T->a, rows[i].ns), sp, rows[i].status, i == 0 ? " (default)" : "",
                   i == T->choice[si] ? " <- chosen" : "");
    }
}

/* Time the fastest few again, after all the others: a variant that ran
 * while the machine was busy gets a second chance, and the winner must be
 * fast twice.  Each keeps the better of its two medians. */
static int confirm(Tuner *T, const TuneShape *s, Row *rows, int best)
{
    enum { AGAIN = 3 };
    int top[AGAIN], n = 0;
    for (int i = 0; i < T->vs.n; i++) {
        if (rows[i].ns <= 0)
            continue;
        int j = n < AGAIN ? n++ : AGAIN;
        while (j > 0 && rows[top[j - 1]].ns > rows[i].ns) {
            if (j < AGAIN)
                top[j] = top[j - 1];
            j--;
        }
        if (j < AGAIN)
            top[j] = i;
    }
    for (int j = 0; n > 1 && j < n; j++) {
        TuneMeasure m = {0};
        if (T->be->measure(T->a, &T->vs.v[top[j]], s, -1, &m) && m.status == 0 && m.median_ns < rows[top[j]].ns)
            rows[top[j]].ns = m.median_ns;
        free_outputs(T->k, &m);
    }
    for (int j = 0; j < n; j++)
        if (rows[top[j]].ns < rows[best].ns)
            best = top[j];
    return best;
}

/* Measure every built variant at shape si and choose. */
static bool tune_shape(Tuner *T, int si)
{
    const KernelInfo *k = T->k;
    const TuneShape *s = &T->shapes.v[si];
    double t0 = now_s();
    Row *rows = arena_alloc(T->a, sizeof(Row) * (size_t)T->vs.n);
    TuneMeasure ref = {0};
    int nref = -1, best = -1;
    for (int i = 0; i < T->vs.n; i++) {
        TuneVariant *v = &T->vs.v[i];
        rows[i].ns = -1;
        if (!v->tir) {
            const char *why = v->pruned ? v->pruned : "?";
            rows[i].status = strncmp(why, "compile failed", 14) ? arena_printf(T->a, "pruned: %s", why) : why;
            continue;
        }
        progress(T, arena_printf(T->a, "timing %s", s->text), i + 1, T->vs.n);
        TuneMeasure m = {0};
        double best_ns = best >= 0 ? rows[best].ns : -1;
        if (!T->be->measure(T->a, v, s, best_ns, &m)) {
            rows[i].status = arena_printf(T->a, "failed: %s", m.error ? m.error : "?");
        } else if (m.status != 0) {
            rows[i].status = arena_printf(T->a, "pruned: %s", m.error ? m.error : "the entry point failed");
        } else if (nref >= 0 && !same_outputs(k, &m, &ref)) {
            rows[i].status = arena_printf(T->a, "wrong (outputs differ from %s)", T->vs.v[nref].label);
        } else {
            rows[i].ns = m.median_ns;
            rows[i].status = "ok";
            if (best < 0 || m.median_ns < rows[best].ns)
                best = i;
            if (nref < 0) {
                nref = i, ref = m;
                continue;
            }
        }
        free_outputs(k, &m);
    }
    progress(T, NULL, 0, 0);
    free_outputs(k, &ref);
    best = confirm(T, s, rows, best);
    if (best < 0) {
        fprintf(stderr, "tkc: warning: %s %s: no variant ran; using the default values\n", k->name, s->text);
        best = 0;
    }
    T->choice[si] = best;
    T->best_ns[si] = rows[best].ns;
    if (tune_code_cache(T->o) && T->vs.v[best].dir)
        promote_code(T->a, T->vs.v[best].dir);
    Buf tab = { .a = T->a };
    buf_puts(&tab, "");
    print_rows(T, si, rows, rows[0].ns > 0 ? 0 : nref, &tab);
    tir_log("autotune", "%s %s: %d variants on %s (%s)", k->name, s->text, T->vs.n, tuned_target(T),
            T->device);
    for (const char *p = tab.s; *p; p += strcspn(p, "\n") + 1)
        tir_log("autotune", "  %s", first_line(T->a, p + 4));
    tir_log("autotune", "%s %s -> %s, measured in %.2f s", k->name, s->text, T->vs.v[best].label,
            now_s() - t0);
    if (!T->o->no_cache && rows[best].ns > 0)
        cache_write(T, si, cache_path(T, s), tab.s);
    return true;
}

/* ------------------------------------------------------------ the result */

static TirKernel *instantiate(Tuner *T, int v, const char *name)
{
    const KernelInfo *k = T->k;
    double *fv = arena_alloc(T->a, sizeof(double) * (size_t)(k->nconsts + 1));
    for (int i = 0; i < k->nconsts; i++)
        fv[i] = k->consts[i].fval;
    TirKernel *t = tir_lower(k, T->vs.v[v].cvals, fv, T->a, T->d);
    if (!t)
        return NULL;
    tir_optimize(t, T->o->dump, stderr);
    t->name = name;
    tir_launch(t, T->vs.v[v].launch);
    return t;
}

/* One instantiation per distinct winner; a dispatcher when there are
 * several, or when a winner other than the default has requires that an
 * untuned shape could fail. */
static bool result(Tuner *T, TuneResult *out)
{
    const KernelInfo *k = T->k;
    int *slot = arena_alloc(T->a, sizeof(int) * (size_t)T->vs.n);
    Vec(int) used = {0};
    for (int i = 0; i < T->vs.n; i++)
        slot[i] = -1;
    for (int i = 0; i < T->shapes.n; i++)
        if (slot[T->choice[i]] < 0) {
            slot[T->choice[i]] = used.n;
            vec_push(T->a, used, T->choice[i]);
        }
    int rt = 0;
    for (int d = 0; d < k->ndims; d++)
        rt += !k->dims[d].specialized;
    const char *why;
    bool fallback = k->decl->nrequires > 0 && lower_quiet(T, &T->vs.v[0], &why);
    bool dispatch = rt > 0 && (used.n > 1 || (used.v[0] != 0 && fallback));
    if (!dispatch) {
        TirKernel *t = instantiate(T, used.v[0], k->name);
        out->kernels = arena_alloc(T->a, sizeof(TirKernel *));
        out->kernels[0] = t;
        out->nkernels = t != NULL;
        return t != NULL;
    }
    if (slot[0] < 0 && fallback) {
        slot[0] = used.n;
        vec_push(T->a, used, 0);
    }
    TargetDispatch *td = arena_alloc(T->a, sizeof *td);
    td->name = k->name;
    td->fallback = slot[0];
    td->nvariants = used.n;
    td->variants = arena_alloc(T->a, sizeof(TirKernel *) * (size_t)used.n);
    for (int i = 0; i < used.n; i++)
        if (!(td->variants[i] = instantiate(T, used.v[i], arena_printf(T->a, "%s__v%d", k->name, i))))
            return false;
    int64_t *shapes = arena_alloc(T->a, sizeof(int64_t) * (size_t)(T->shapes.n * k->ndims + 1));
    int *cases = arena_alloc(T->a, sizeof(int) * (size_t)T->shapes.n);
    for (int i = 0; i < T->shapes.n; i++) {
        memcpy(shapes + i * k->ndims, T->shapes.v[i].dims, sizeof(int64_t) * (size_t)k->ndims);
        cases[i] = slot[T->choice[i]];
    }
    td->shapes = shapes;
    td->cases = cases;
    td->ncases = T->shapes.n;
    out->kernels = td->variants;
    out->nkernels = td->nvariants;
    out->dispatch = td;
    return true;
}

/* Shape i's choice: from the table, the cache, or tuning.  false after an
 * error; *tuned says whether the table lacked it. */
static bool choose(Tuner *T, int i, const char *table, bool *tuned)
{
    const KernelInfo *k = T->k;
    const TuneShape *s = &T->shapes.v[i];
    const char *c = table ? table_lookup(T, table, table_key(T, s)) : NULL;
    T->best_ns[i] = -1;
    T->choice[i] = c ? find_choice(T, c) : -1;
    if (c && T->choice[i] < 0)
        fprintf(stderr, "tkc: warning: %s: the entry for %s %s (%s) is not in the @autotune space: "
                "tuning again\n", T->o->table, k->name, s->text, first_line(T->a, c));
    if ((T->from_table[i] = T->choice[i] >= 0)) {
        tir_log("autotune", "%s %s: from the tuning table %s -> %s", k->name, s->text, T->o->table,
                T->vs.v[T->choice[i]].label);
        return true;
    }
    static bool said;                /* once per run, not per kernel */
    if (!T->device && !T->no_device && !(T->device = T->be->device(T->a))) {
        if (!said)
            fprintf(stderr, "tkc: --max-autotune: no %s device here; using the tuning table or the default "
                    "values\n", T->be->target);
        said = true;
        T->no_device = true;
    }
    T->choice[i] = 0;
    if (T->no_device)
        return true;
    *tuned = true;
    if (!T->o->no_cache && (T->choice[i] = cache_read(T, i, cache_path(T, s))) >= 0)
        return true;
    double t0 = now_s();
    if (!prepare(T) || !tune_shape(T, i))
        return false;
    tir_log("autotune", "%s %s: tuned in %.2f s (compiling included)", k->name, s->text, now_s() - t0);
    return true;
}

int tune_kernel(Arena *a, const KernelInfo *k, const Target *t, const TuneOptions *o,
                TuneResult *out, Diag *d)
{
    static const TuneBackend none = { .target = "none" };
    Tuner T = { .a = a, .k = k, .target = t, .o = o, .d = d, .be = backend_find(t->name) };
    if (!T.be) {
        fprintf(stderr, "tkc: --max-autotune: the %s target cannot tune yet; using the default values\n",
                t->name);
        T.be = &none;
    }
    if (!enumerate(&T))
        return 1;
    if (T.be == &none) {
        TirKernel *ki = instantiate(&T, 0, k->name);
        out->kernels = arena_alloc(a, sizeof(TirKernel *));
        out->kernels[0] = ki;
        out->nkernels = ki != NULL;
        return ki ? 0 : 1;
    }
    if (!parse_shapes(&T))
        return 2;
    T.choice = arena_alloc(a, sizeof(int) * (size_t)T.shapes.n);
    T.best_ns = arena_alloc(a, sizeof(double) * (size_t)T.shapes.n);
    T.from_table = arena_alloc(a, (size_t)T.shapes.n);
    const char *table = o->table ? read_file(a, o->table, NULL) : NULL;
    bool ok = true, tuned = false;
    for (int i = 0; ok && i < T.shapes.n; i++)
        ok = choose(&T, i, table, &tuned);
    if (T.tmp && !getenv("TKC_TUNE_KEEP"))
        remove_tree(a, T.tmp);
    else if (T.tmp)
        tir_log("autotune", "kept %s", T.tmp);
    if (ok && o->table && tuned)
        table_write(&T, table);
    return ok && result(&T, out) ? 0 : 1;
}

/* ------------------------------------------------------------ the harness */

/* An expression for dim j of tensor param p in the harness. */
static char *harness_dim(Arena *a, const TuneVariant *v, const ParamInfo *p, int j)
{
    int64_t n = 0;
    if (p->dims[j].dim >= 0)
        return arena_printf(a, "tk_d[%d]", p->dims[j].dim);
    if (p->dims[j].size && sym_eval(p->dims[j].size, v->cvals, v->tir->info->nconsts, &n))
        return arena_printf(a, "INT64_C(%lld)", (long long)n);
    return "INT64_C(0)";
}

static const char *harness_fill(DType dt)
{
    switch (dt) {
    case DT_F16: return "tk_f32_to_f16((float)(2 * tk_rand() - 1))";
    case DT_BF16: return "tk_f32_to_bf16((float)(2 * tk_rand() - 1))";
    case DT_F32: return "(float)(2 * tk_rand() - 1)";
    case DT_F64: return "2 * tk_rand() - 1";
    case DT_BOOL: return "tk_rand() < 0.5";
    default: return "tk_rand() * 8";
    }
}

static const char harness_top[] =
    "#include <time.h>\n"
    "static void *tk_t[TK_NP + 1];\n"
    "static int64_t tk_d[TK_ND + 1];\n"
    "static double tk_s[TK_NP + 1];\n"
    "static uint64_t tk_rs;\n"
    "static double tk_rand(void)\n"
    "{\n"
    "    tk_rs ^= tk_rs << 13, tk_rs ^= tk_rs >> 7, tk_rs ^= tk_rs << 17;\n"
    "    return (double)(tk_rs >> 11) / 9007199254740992.0;\n"
    "}\n";

/* The arguments of the entry point: tensors from tk_t, scalars from tk_s,
 * the run-time dims, contiguous strides for strided tensors. */
static char *harness_args(Arena *a, const TuneVariant *v)
{
    const KernelInfo *k = v->tir->info;
    Buf call = { .a = a };
    buf_puts(&call, "");
    for (int i = 0; i < k->nparams; i++) {
        const ParamInfo *p = &k->params[i];
        const char *st = dtype_info[p->dt].c_storage;
        buf_printf(&call, "%s", i ? ", " : "");
        if (p->is_tensor)
            buf_printf(&call, "(%s *)tk_t[%d]", st, i);
        else if (p->dt == DT_F16 || p->dt == DT_BF16)
            buf_printf(&call, "tk_f32_to_%s((float)tk_s[%d])", p->dt == DT_F16 ? "f16" : "bf16", i);
        else if (p->dt == DT_BOOL)
            buf_printf(&call, "tk_s[%d] != 0", i);
        else
            buf_printf(&call, "(%s)tk_s[%d]", st, i);
    }
    for (int d = 0; d < k->ndims; d++)
        if (!k->dims[d].specialized)
            buf_printf(&call, "%stk_d[%d]", call.n ? ", " : "", d);
    for (int i = 0; i < k->nparams; i++) {
        const ParamInfo *p = &k->params[i];
        if (!p->is_tensor || !p->strided)
            continue;
        for (int j = 0; j < p->rank; j++) {
            buf_printf(&call, "%sINT64_C(1)", call.n ? ", " : "");
            for (int m = j + 1; m < p->rank; m++)
                buf_printf(&call, " * %s", harness_dim(a, v, p, m));
        }
    }
    return call.s;
}

char *tune_harness(Arena *a, const TuneVariant *v, const char *entry, const char *extra)
{
    const KernelInfo *k = v->tir->info;
    Buf b = { .a = a };
    buf_printf(&b, "#define _GNU_SOURCE 1\n#define TK_NP %d\n#define TK_ND %d\n#include \"k.h\"\n%s",
               k->nparams, k->ndims, harness_top);
    buf_puts(&b, "static const size_t tk_es[TK_NP + 1] = {");
    for (int i = 0; i < k->nparams; i++)
        buf_printf(&b, " %s,", k->params[i].is_tensor
                                   ? arena_printf(a, "sizeof(%s)", dtype_info[k->params[i].dt].c_storage) : "0");
    buf_puts(&b, " 0 };\nstatic size_t tk_numel(int i)\n{\n    switch (i) {\n");
    for (int i = 0; i < k->nparams; i++) {
        const ParamInfo *p = &k->params[i];
        if (!p->is_tensor)
            continue;
        buf_printf(&b, "    case %d:\n        return (size_t)1", i);
        for (int j = 0; j < p->rank; j++)
            buf_printf(&b, " * (size_t)%s", harness_dim(a, v, p, j));
        buf_puts(&b, ";\n");
    }
    buf_puts(&b, "    }\n    return 0;\n}\n");
    buf_puts(&b, "/* The same data for param i in every variant. */\n"
                 "static void tk_fill(int i, void *p, size_t n)\n{\n"
                 "    tk_rs = UINT64_C(0x9E3779B97F4A7C15) * (uint64_t)(i + 1) + 1;\n    switch (i) {\n");
    for (int i = 0; i < k->nparams; i++) {
        const ParamInfo *p = &k->params[i];
        const char *st = dtype_info[p->dt].c_storage;
        if (p->is_tensor)
            buf_printf(&b, "    case %d:\n        for (size_t j = 0; j < n; j++)\n"
                           "            ((%s *)p)[j] = (%s)(%s);\n        break;\n", i, st, st, harness_fill(p->dt));
    }
    buf_puts(&b, "    }\n    (void)p, (void)n;\n}\n");
    buf_printf(&b, "static int tk_call(void) { return %s(%s%s); }\n", entry, harness_args(a, v), extra);
    return b.s;
}

int tune_build(const TuneVariant *v, const Target *t, const TargetOptions *to, const char *harness,
               char **argv, void (*more)(const TuneVariant *, const TargetOptions *, Diag *))
{
    Arena *a = arena_new();
    int fd = open(arena_printf(a, "%s/build.log", v->dir), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return 3;
    dup2(fd, 1);
    dup2(fd, 2);
    Diag d;
    diag_init(&d, stderr);
    FILE *h = fopen(arena_printf(a, "%s/k.h", v->dir), "w");
    TirKernel *k = v->tir;
    bool ok = h && target_emit_header(h, &t, 1, &k, 1, to, &d);
    ok &= h && fclose(h) == 0;
    if (d.nerrors)
        return TUNE_UNFIT;
    if (ok && more)
        more(v, to, &d);
    ok &= tune_write_atomic(a, arena_printf(a, "%s/h.c", v->dir), harness, strlen(harness));
    if (!ok) {
        fprintf(stderr, "error: cannot write the variant's sources\n");
        return 3;
    }
    execvp(argv[0], argv);
    fprintf(stderr, "error: cannot run %s: %s\n", argv[0], strerror(errno));
    return 127;
}

/* ------------------------------------------------------------ the C backend */

const char *tune_cc(void)
{
    const char *cc = getenv("CC");
    return cc && *cc ? cc : "cc";
}

#define C_FLAGS "-O3", "-march=native", "-ffp-contract=fast", "-fopenmp", "-shared", "-fPIC"

static char *c_device(Arena *a)
{
    Buf b = { .a = a };
    char line[256] = "";
    FILE *p = popen(arena_printf(a, "%s --version 2>/dev/null", tune_cc()), "r");
    if (p) {
        if (!fgets(line, sizeof line, p))
            line[0] = 0;
        while (fgetc(p) != EOF)
            ;
        pclose(p);
    }
    buf_printf(&b, "%s (%s)", first_line(a, line), tune_cc());
    char *cpu = read_file(a, "/proc/cpuinfo", NULL);
    const char *m = cpu ? strstr(cpu, "model name") : NULL;
    m = m ? strchr(m, ':') : NULL;
    buf_printf(&b, ", %s, %ld cores", m ? first_line(a, m + 1) : "cpu", sysconf(_SC_NPROCESSORS_ONLN));
    return b.s;
}

static const char c_harness_run[] =
    "static size_t tk_b[TK_NP + 1];\n"
    "static double tk_now(void)\n"
    "{\n"
    "    struct timespec t;\n"
    "    clock_gettime(CLOCK_MONOTONIC, &t);\n"
    "    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;\n"
    "}\n"
    "static int tk_cmp(const void *x, const void *y)\n"
    "{\n"
    "    double a = *(const double *)x, b = *(const double *)y;\n"
    "    return (a > b) - (a < b);\n"
    "}\n"
    "void tkc_tune_free(void)\n"
    "{\n"
    "    for (int i = 0; i < TK_NP; i++)\n"
    "        free(tk_t[i]), tk_t[i] = NULL, tk_b[i] = 0;\n"
    "}\n"
    "const void *tkc_tune_output(int i, size_t *bytes) { *bytes = tk_b[i]; return tk_t[i]; }\n"
    "const char *tkc_tune_error(void) { return tk_last_error(); }\n"
    "/* Allocate and fill every tensor (the same data in every variant). */\n"
    "int tkc_tune_setup(const int64_t *dims, const double *scalars)\n"
    "{\n"
    "    tkc_tune_free();\n"
    "    for (int i = 0; i < TK_ND; i++)\n"
    "        tk_d[i] = dims[i];\n"
    "    for (int i = 0; i < TK_NP; i++)\n"
    "        tk_s[i] = scalars[i];\n"
    "    for (int i = 0; i < TK_NP; i++) {\n"
    "        if (!tk_es[i])\n"
    "            continue;\n"
    "        size_t n = tk_numel(i);\n"
    "        tk_b[i] = n * tk_es[i];\n"
    "        if (!(tk_t[i] = malloc(tk_b[i] ? tk_b[i] : 1)))\n"
    "            return TK_ERR_NOMEM;\n"
    "        tk_fill(i, tk_t[i], n);\n"
    "    }\n"
    "    return 0;\n"
    "}\n"
    "int tkc_tune_run(int reps, double *median_ns)\n"
    "{\n"
    "    if (reps <= 0)\n"
    "        return tk_call();\n"
    "    double *t = malloc(sizeof(double) * (size_t)reps);\n"
    "    if (!t)\n"
    "        return TK_ERR_NOMEM;\n"
    "    for (int r = 0; r < reps; r++) {\n"
    "        double t0 = tk_now();\n"
    "        int s = tk_call();\n"
    "        t[r] = tk_now() - t0;\n"
    "        if (s) {\n"
    "            free(t);\n"
    "            return s;\n"
    "        }\n"
    "    }\n"
    "    qsort(t, (size_t)reps, sizeof *t, tk_cmp);\n"
    "    *median_ns = reps % 2 ? t[reps / 2] : (t[reps / 2 - 1] + t[reps / 2]) / 2;\n"
    "    free(t);\n"
    "    return 0;\n"
    "}\n";

/* In a child: write the header and the harness, exec the compiler. */
static int c_build(const TuneVariant *v, const Target *t, const TargetOptions *to)
{
    Arena *a = arena_new();
    char *hc = arena_printf(a, "%s%s", tune_harness(a, v, v->tir->name, ""), c_harness_run);
    char *argv[] = { (char *)tune_cc(), C_FLAGS, "-o", arena_printf(a, "%s/h.so", v->dir),
                     arena_printf(a, "%s/h.c", v->dir), "-lm", NULL };
    return tune_build(v, t, to, hc, argv, NULL);
}

typedef int (*SetupFn)(const int64_t *, const double *);
typedef int (*RunFn)(int, double *);
typedef const void *(*OutputFn)(int, size_t *);
typedef const char *(*ErrorFn)(void);
typedef void (*FreeFn)(void);

static bool c_measure(Arena *a, const TuneVariant *v, const TuneShape *s, double best_ns,
                      TuneMeasure *m)
{
    const KernelInfo *k = v->tir->info;
    /* Never unloaded: the OpenMP runtime it brought in keeps threads alive. */
    void *h = dlopen(arena_printf(a, "%s/h.so", v->dir), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!h) {
        m->error = arena_strdup(a, dlerror());
        return false;
    }
    SetupFn setup;
    RunFn run;
    OutputFn output;
    ErrorFn error;
    FreeFn release;
    *(void **)&setup = dlsym(h, "tkc_tune_setup");
    *(void **)&run = dlsym(h, "tkc_tune_run");
    *(void **)&output = dlsym(h, "tkc_tune_output");
    *(void **)&error = dlsym(h, "tkc_tune_error");
    *(void **)&release = dlsym(h, "tkc_tune_free");
    if (!setup || !run || !output || !error || !release) {
        m->error = "the harness lacks its functions";
        dlclose(h);
        return false;
    }
    m->status = setup(s->dims, s->scalars);
    if (m->status == 0)
        m->status = run(0, NULL);
    if (m->status == 0) {
        m->outputs = calloc((size_t)k->nparams + 1, sizeof(void *));
        m->bytes = arena_alloc(a, sizeof(size_t) * (size_t)(k->nparams + 1));
        for (int i = 0; m->outputs && i < k->nparams; i++) {
            if (!k->params[i].is_tensor || !k->params[i].stored)
                continue;
            const void *p = output(i, &m->bytes[i]);
            if ((m->outputs[i] = malloc(m->bytes[i] ? m->bytes[i] : 1)))
                memcpy(m->outputs[i], p, m->bytes[i]);
        }
        double first = 0;
        m->status = run(1, &first);
        int reps = tune_reps(first, best_ns);
        m->median_ns = first;
        if (m->status == 0 && reps > 0)
            m->status = run(reps, &m->median_ns);
    } else if (m->status != 0) {
        m->error = arena_strdup(a, error());
    }
    release();
    dlclose(h);
    return true;
}

static const TuneBackend backend_c = { .target = "c", .device = c_device, .build = c_build,
                                       .measure = c_measure };
