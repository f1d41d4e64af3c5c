/*
 * lang/main.c — the tkc driver: a thin main that wires the stages.
 *
 *   parse (+ imports) -> sema -> per kernel: lower, optimize -> target
 *
 * Exit status: 0 ok, 1 errors in the source, 2 usage errors.  The output
 * file is written to a temporary name and renamed into place, so a failed
 * compilation never leaves a half-written header or clobbers a good one.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lang.h"
#include "../parser/parse.h"
#include "../sema/sema.h"
#include "../lower/tir.h"
#include "../targets/target.h"
#include "timing.h"
#include "tune.h"

typedef struct Options {
    const char *input, *output, *emit, *targets, *kernels, *dump, *arch, *depfile, *codegen;
    bool md;
    Vec(Define) defs;
    Vec(const char *) incdirs;
    TuneOptions tune;
    const char *banner;    /* banner_options */
    bool llvm;             /* PTX through LLVM: --target=nvptx, --codegen=llvm, --emit=llvm */
} Options;

static const char usage[] =
    "usage: tkc FILE.tk [options]            (tkc --help, tkc --version)\n"
    "  --target=c            c (OpenMP C), cuda (PTX + launcher), nvptx (cuda, PTX from LLVM)\n"
    "  --arch=sm_90a         cuda: sm_80 | sm_86 | sm_89 | sm_90 | sm_90a (default sm_90a)\n"
    "  --codegen=nvrtc       cuda's PTX from nvrtc (CUDA C) or llvm (as --target=nvptx)\n"
    "  -o FILE               write the header to FILE (default: stdout)\n"
    "  -D NAME=VALUE         a const, a run-time dim, or a launch option (warps, stages,\n"
    "                        specialize, persistent, blocks, fast_exp2, cluster, llvm)\n"
    "  --kernel=NAME[,NAME]  emit these kernels (default: every kernel of FILE)\n"
    "  -g                    a debug build: compile the kernels' print statements\n"
    "  --emit=KIND           tokens | ast | tir | c | pir | cuda | ptx | llvm (default: the header)\n"
    "  -dPASSES              print the tile IR after passes (lower,fold,cse,dce,masks | all)\n"
    "  -I DIR, -MD, -MF FILE  search DIR for imports; also write a make depfile (OUT.d, or FILE)\n"
    "  --time                print where the time went, stage by stage, to stderr\n"
    TUNE_USAGE
    "environment: TKC_LOGS=masks prints which bound checks were dropped or kept,\n"
    "             TKC_LOGS=perf_hints how to drop the ones kept, TKC_LOGS=autotune the\n"
    "             tuning tables, =nvrtc,nvptx GPU compile times; TKC_CACHE_DIR, CC\n"
    "examples:\n"
    "  tkc softmax.tk -o softmax.h                    then: cc -fopenmp app.c -lm\n"
    "  tkc nn.tk --kernel=layernorm -D BLOCK=2048 --target=c,cuda -o ln.h -MD\n"
    "  tkc matmul.tk --max-autotune --tune M=4096,N=4096,K=4096 -o mm.h\n";

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "tkc: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n%s", usage);
    return 2;
}

/* The options as the header's banner records them: all but the input,
 * -o FILE, -I DIR, -d, --time and, without --max-autotune, the tuning options (none
 * of which change what is written), each made safe inside a C comment. */
static const char *banner_options(Arena *a, int argc, char **argv)
{
    bool tuning = false;
    for (int i = 1; i < argc; i++)
        tuning |= !strcmp(argv[i], "--max-autotune");
    Buf b = {.a = a};
    buf_puts(&b, "");
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        bool tune = !strncmp(s, "--tune", 6) || !strcmp(s, "--no-cache");
        if (!strcmp(s, "-o") || !strcmp(s, "-I") ||
            (!tuning && (!strcmp(s, "--tune") || !strcmp(s, "--tune-table")))) {
            i++;
            continue;
        }
        if (s[0] != '-' || !s[1] || !strncmp(s, "-o", 2) || !strncmp(s, "-I", 2) || !strcmp(s, "--time") ||
            !strncmp(s, "-d", 2) || (tune && !tuning))
            continue;
        if (b.n)
            buf_putc(&b, ' ');
        for (const char *p = s; *p; p++)
            buf_putc(&b, (*p == '/' && p[1] == '*') || (*p == '*' && p[1] == '/') || *p == '\n' ? '_' : *p);
        if ((!strcmp(s, "-D") || !strcmp(s, "--tune") || !strcmp(s, "--tune-table")) && i + 1 < argc)
            buf_printf(&b, " %s", argv[++i]);
    }
    return b.s;
}

static int parse_options(Arena *a, int argc, char **argv, Options *o)
{
    int r;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
            fputs(usage, stdout);
            exit(0);
        } else if (!strcmp(s, "--version")) {
            printf("tkc %s\n", TKC_VERSION);
            exit(0);
        } else if (!strcmp(s, "--time")) {
            tk_time_enable();
        } else if (!strcmp(s, "-g")) {
            tir_set_debug(true);
        } else if (!strcmp(s, "-MD")) {
            o->md = true;
        } else if (!strcmp(s, "-MF")) {
            if (i + 1 >= argc)
                return usage_error("%s needs an argument", s);
            o->depfile = argv[++i];
        } else if (!strcmp(s, "-o") || !strcmp(s, "-D") || !strcmp(s, "-I")) {
            if (i + 1 >= argc)
                return usage_error("%s needs an argument", s);
            const char *v = argv[++i];
            if (s[1] == 'o') {
                o->output = v;
            } else if (s[1] == 'I') {
                vec_push(a, o->incdirs, v);
            } else {
                const char *eq = strchr(v, '=');
                if (!eq || eq == v || !eq[1])
                    return usage_error("-D wants NAME=VALUE, got '%s'", v);
                Define d = {arena_strndup(a, v, (size_t)(eq - v)), eq + 1, false};
                vec_push(a, o->defs, d);
            }
        } else if (!strncmp(s, "-D", 2) || !strncmp(s, "-I", 2) || !strncmp(s, "-o", 2)) {
            char *argv2[] = {argv[0], arena_strndup(a, s, 2), (char *)s + 2};
            r = parse_options(a, 3, argv2, o);
            if (r)
                return r;
        } else if (!strncmp(s, "--target=", 9)) {
            o->targets = s + 9;
        } else if (!strncmp(s, "--emit=", 7)) {
            o->emit = s + 7;
            if (strcmp(o->emit, "tokens") && strcmp(o->emit, "ast") && strcmp(o->emit, "tir") &&
                strcmp(o->emit, "c") && strcmp(o->emit, "pir") && strcmp(o->emit, "cuda") &&
                strcmp(o->emit, "ptx") && strcmp(o->emit, "llvm"))
                return usage_error("unknown --emit kind '%s' (tokens, ast, tir, c, pir, cuda, ptx, llvm)", o->emit);
        } else if (!strncmp(s, "--codegen=", 10)) {
            o->codegen = s + 10;
            if (strcmp(o->codegen, "nvrtc") && strcmp(o->codegen, "llvm"))
                return usage_error("unknown --codegen '%s' (nvrtc, llvm)", o->codegen);
        } else if (!strncmp(s, "--arch=", 7)) {
            o->arch = s + 7;
            if (strcmp(o->arch, "sm_80") && strcmp(o->arch, "sm_86") && strcmp(o->arch, "sm_89") &&
                strcmp(o->arch, "sm_90") && strcmp(o->arch, "sm_90a"))
                return usage_error("unknown --arch '%s' (sm_80, sm_86, sm_89, sm_90, sm_90a)", o->arch);
        } else if (!strncmp(s, "--kernel=", 9)) {
            o->kernels = s + 9;
        } else if (!strncmp(s, "-d", 2) && s[2]) {
            o->dump = s + 2;
        } else if ((r = tune_option(a, &o->tune, argc, argv, &i)) >= 0) {
            if (r)
                return r;
        } else if (s[0] == '-' && s[1]) {
            return usage_error("unknown option '%s'", s);
        } else if (o->input) {
            return usage_error("more than one input file ('%s')", s);
        } else {
            o->input = s;
        }
    }
    if (!o->input)
        return usage_error("%s", "no input file");
    if ((o->md || o->depfile) && (!o->output || !strcmp(o->output, "-") || o->emit))
        return usage_error("%s needs -o FILE (the header the depfile names)", o->depfile ? "-MF" : "-MD");
    return 0;
}

/* Where `import "stdlib/x.tk"` looks after the importing file's folder:
 * -I dirs, the source tree or install prefix tkc runs from. */
static void add_default_dirs(Arena *a, Options *o)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return;
    exe[n] = 0;
    char *dir = dirname(exe);
    vec_push(a, o->incdirs, arena_printf(a, "%s/..", dir));
    vec_push(a, o->incdirs, arena_printf(a, "%s/../share/tkc", dir));
}

static bool selected(const Options *o, const KernelInfo *k)
{
    if (!o->kernels)
        return k->in_main;
    size_t n = strlen(k->name);
    for (const char *p = o->kernels; (p = strstr(p, k->name)); p += n)
        if ((p == o->kernels || p[-1] == ',') && (p[n] == 0 || p[n] == ','))
            return true;
    return false;
}

static bool check_kernel_names(const Options *o, const SemaResult *s)
{
    if (!o->kernels)
        return true;
    bool ok = true;
    const char *p = o->kernels;
    while (*p) {
        size_t n = strcspn(p, ",");
        bool found = false;
        for (int i = 0; i < s->nkernels; i++)
            found |= strlen(s->kernels[i]->name) == n && !strncmp(s->kernels[i]->name, p, n);
        if (!found) {
            fprintf(stderr, "tkc: error: no kernel named '%.*s'\n", (int)n, p);
            ok = false;
        }
        p += n + (p[n] == ',');
    }
    return ok;
}

static TirKernel *instantiate(Arena *a, const KernelInfo *k, const Options *o, Diag *d)
{
    int64_t *cv = arena_alloc(a, sizeof(int64_t) * (size_t)(k->nconsts + 1));
    double *fv = arena_alloc(a, sizeof(double) * (size_t)(k->nconsts + 1));
    for (int i = 0; i < k->nconsts; i++) {
        cv[i] = k->consts[i].ival;
        fv[i] = k->consts[i].fval;
    }
    TirKernel *t = tir_lower(k, cv, fv, a, d);
    if (t)
        tir_optimize(t, o->dump, stderr);
    return t;
}

static char *guard_name(Arena *a, const Options *o)
{
    const char *base = o->input;   /* not -o: stdout and -o give the same bytes */
    const char *slash = strrchr(base, '/');
    Buf b = {.a = a};
    buf_puts(&b, "TKC_");
    for (const char *p = slash ? slash + 1 : base; *p; p++)
        buf_putc(&b, (*p >= 'a' && *p <= 'z') ? (char)(*p - 32)
                     : ((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')) ? *p : '_');
    return b.s;
}

static int write_output(Arena *a, const Options *o, const Target **ts, int nt, TirKernel **ks, int nk,
                        const TargetDispatch *ds, int nds, Diag *d)
{
    TargetOptions to = {.source = o->input, .guard = guard_name(a, o), .arch = o->arch,
                        .dispatch = ds, .ndispatch = nds, .options = o->banner,
                        .cache = tune_code_cache(&o->tune), .llvm = o->llvm,
                        .nvrtc = o->codegen && !strcmp(o->codegen, "nvrtc")};
    if (!o->output || !strcmp(o->output, "-"))
        return target_emit_header(stdout, ts, nt, ks, nk, &to, d) ? 0 : 1;
    char *tmp = arena_printf(a, "%s.tmp%ld", o->output, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "tkc: error: cannot write '%s': %s\n", tmp, strerror(errno));
        return 1;
    }
    bool ok = target_emit_header(f, ts, nt, ks, nk, &to, d);
    ok &= fclose(f) == 0;
    if (ok && strcmp(o->output, "/dev/null") && rename(tmp, o->output) != 0) {
        fprintf(stderr, "tkc: error: cannot write '%s': %s\n", o->output, strerror(errno));
        ok = false;
    }
    remove(tmp);
    return ok ? 0 : 1;
}

/* -MD / -MF: a make rule `OUT: FILE.tk IMPORTS...`, and an empty rule per
 * file so that make does not fail once an import is deleted. */
static void put_path(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == ' ' || *s == '#' || *s == '\\')
            fputc('\\', f);
        if (*s == '$')
            fputc('$', f);
        fputc(*s, f);
    }
}

static int write_depfile(Arena *a, const Options *o, const Program *p)
{
    const char *path = o->depfile;
    if (!path) {
        const char *slash = strrchr(o->output, '/'), *dot = strrchr(o->output, '.');
        size_t n = dot && (!slash || dot > slash) ? (size_t)(dot - o->output) : strlen(o->output);
        path = arena_printf(a, "%.*s.d", (int)n, o->output);
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "tkc: error: cannot write '%s': %s\n", path, strerror(errno));
        return 1;
    }
    put_path(f, o->output);
    fputc(':', f);
    for (int i = 0; i < p->nfiles; i++)
        fputs(" \\\n  ", f), put_path(f, p->files[i]->src->path);
    fputc('\n', f);
    for (int i = 0; i < p->nfiles; i++)
        fputc('\n', f), put_path(f, p->files[i]->src->path), fputs(":\n", f);
    if (fclose(f) != 0) {
        fprintf(stderr, "tkc: error: cannot write '%s': %s\n", path, strerror(errno));
        return 1;
    }
    return 0;
}

/* The targets named by --target, and whether PTX comes from LLVM (o->llvm):
 * nvptx is the cuda target's header with LLVM's PTX, so the two cannot meet
 * in one header (both define NAME_cuda). */
static int resolve_targets(Arena *a, Options *o, const Target ***out, int *n)
{
    const char *list = o->targets ? o->targets : "c";
    Vec(const Target *) ts = {0};
    bool cuda = false, nvptx = false;
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        char *name = arena_strndup(a, p, len);
        const Target *t = target_find(name);
        if (!t)
            return usage_error("unknown target '%s' (this build knows: c, cuda, nvptx)", name);
        cuda |= t == &target_cuda;
        nvptx |= t == &target_nvptx;
        vec_push(a, ts, t);
        p += len + (p[len] == ',');
    }
    if (cuda && nvptx)
        return usage_error("%s", "--target=cuda,nvptx: both make NAME_cuda; pick one (or --codegen=llvm)");
    if (nvptx && o->codegen && !strcmp(o->codegen, "nvrtc"))
        return usage_error("%s", "--target=nvptx takes its PTX from LLVM, not --codegen=nvrtc");
    o->llvm = nvptx || (o->codegen && !strcmp(o->codegen, "llvm")) || (o->emit && !strcmp(o->emit, "llvm"));
    if (o->llvm && nvptx_unavailable()) {
        fprintf(stderr, "tkc: error: %s\n", nvptx_unavailable());
        return 1;
    }
    *out = ts.v;
    *n = ts.n;
    return 0;
}

static int compile(Arena *a, Options *o)
{
    Diag d;
    diag_init(&d, stderr);
    const Target **ts = NULL;
    int nt = 0;
    int r = resolve_targets(a, o, &ts, &nt);
    if (r)
        return r;
    /* --emit=KIND -o FILE: the shown stage goes to FILE */
    if (o->emit && o->output && strcmp(o->output, "-") && !freopen(o->output, "w", stdout)) {
        fprintf(stderr, "tkc: error: cannot write '%s': %s\n", o->output, strerror(errno));
        return 1;
    }
    if (o->emit && !strcmp(o->emit, "tokens")) {
        Src *s = src_read(a, o->input, &d, (Span){0});
        if (s)
            tk_dump_tokens(s, &d, stdout);
        return d.nerrors ? 1 : 0;
    }
    add_default_dirs(a, o);
    TkTimer tm = tk_timer();
    Program *p = program_load(a, o->input, o->incdirs.v, o->incdirs.n, &d);
    if (!p || d.nerrors)
        return 1;
    if (o->emit && !strcmp(o->emit, "ast")) {
        ast_print(stdout, p->files[0]);
        return 0;
    }
    SemaResult *s = sema_check(p, o->defs.v, o->defs.n, sema_arch_of(o->arch), &d);
    tk_timer_end(&tm, "front end (parse, check)");
    if (d.nerrors || !check_kernel_names(o, s))
        return 1;
    Vec(TirKernel *) ks = {0};
    Vec(TargetDispatch) ds = {0};
    o->tune.program = p;
    o->tune.defs = o->defs.v, o->tune.ndefs = o->defs.n;
    o->tune.dump = o->dump;
    o->tune.arch = o->arch;
    o->tune.llvm = o->llvm;
    o->tune.nvrtc = o->codegen && !strcmp(o->codegen, "nvrtc");
    for (int i = 0; i < s->nkernels; i++) {
        if (!selected(o, s->kernels[i]))
            continue;
        if (o->tune.on && s->kernels[i]->ntune) {
            TuneResult tr = {0};
            TkTimer tt = tk_timer();
            r = tune_kernel(a, s->kernels[i], ts[0], &o->tune, &tr, &d);
            tk_timer_end(&tt, "autotune (all of it)");
            if (r)
                return r;
            for (int j = 0; j < tr.nkernels; j++)
                vec_push(a, ks, tr.kernels[j]);
            if (tr.dispatch)
                vec_push(a, ds, *tr.dispatch);
            continue;
        }
        TkTimer tl = tk_timer();
        TirKernel *t = instantiate(a, s->kernels[i], o, &d);
        tk_timer_end(&tl, "tile IR (lower, passes)");
        if (t)
            vec_push(a, ks, t);
    }
    if (d.nerrors)
        return 1;
    if (o->emit && !strcmp(o->emit, "tir")) {
        for (int i = 0; i < ks.n; i++)
            tir_print(stdout, ks.v[i]);
        return 0;
    }
    if (o->emit && !strcmp(o->emit, "pir"))
        return cuda_emit_pir(stdout, ks.v, ks.n, o->arch, &d) ? 0 : 1;
    if (o->emit && (!strcmp(o->emit, "cuda") || !strcmp(o->emit, "ptx") || !strcmp(o->emit, "llvm"))) {
        TargetOptions to = {.source = o->input, .guard = guard_name(a, o), .arch = o->arch,
                            .cache = tune_code_cache(&o->tune), .llvm = o->llvm};
        return cuda_emit_text(stdout, o->emit, ks.v, ks.n, &to, &d) ? 0 : 1;
    }
    r = write_output(a, o, ts, nt, ks.v, ks.n, ds.v, ds.n, &d);
    if (!r && (o->md || o->depfile))
        r = write_depfile(a, o, p);
    return r;
}

int main(int argc, char **argv)
{
    Arena *a = arena_new();
    Options o = {0};
    tk_time_on();                        /* TKC_TIME=1: the clock starts here */
    int r = parse_options(a, argc, argv, &o);
    o.banner = banner_options(a, argc, argv);
    if (!r)
        r = compile(a, &o);
    if (r != 2)
        tk_time_report(stderr);
    arena_free(a);
    return r;
}
