/*
 * tests/unit/nvptx_pir.c — the nvptx target (targets/nvptx) on hand-built
 * per-thread IR: every PIR construct LLVM must build, verify and print as
 * PTX (shuffles of every type, barriers, shared and vector accesses, masked
 * loads, unrolled and rolled loops, while/break/continue, inline PTX for
 * ldmatrix/mma/pack, every conversion and math function).  ptxas checks the
 * PTX for sm_90a and sm_80 when it is around.
 *
 * Kernel tk_math computes y[f * n + i] = fn_f(x[i]) for every PE_MATH
 * function and fmod, in f32 and f64 (see math_fns; tests/gpu/nvptx_math.tk
 * is the same kernel in tkc's language, which the GPU check runs).  ptxas
 * works in DIR (argument; default /tmp).  Without LLVM (none.c) the test
 * passes after saying so.
 */
#include <stdlib.h>
#include <unistd.h>

#include "unit.h"
#include "targets/nvptx/nvptx.h"

/* The functions tk_math evaluates, in row order (tests/gpu/nvptx_math.c
 * has the same list). */
static const PirMath math_fns[] = { PM_EXP, PM_EXP2, PM_LOG, PM_LOG2, PM_SQRT, PM_RSQRT, PM_SIN, PM_COS,
                                    PM_TANH, PM_ERF, PM_SIGMOID, PM_FABS, PM_FLOOR, PM_CEIL, PM_POW,
                                    PM_FMA };
#define NFN ((int)(sizeof math_fns / sizeof *math_fns) + 1)   /* + fmod */

static PirExpr *I64(PirFunc *f, int64_t v) { return pir_int(f, PT_I64, v); }

/* i = ctaid * threads + tid as I64 */
static PirExpr *global_id(PirFunc *f)
{
    PirExpr *c = pir_conv(f, PT_I64, pir_special(f, PSR_CTAID)), *t = pir_conv(f, PT_I64, pir_special(f, PSR_TID));
    return pir_bin(f, PB_ADD, pir_bin(f, PB_MUL, c, I64(f, f->threads)), t);
}

/* tk_math(x: f32*, y: f32*, xd: f64*, yd: f64*, n) */
static PirFunc *math_kernel(Arena *a)
{
    PirFunc *f = pir_func(a, "tk_math");
    f->threads = 128;
    int px = pir_add_param(f, PP_TENSOR, PT_F32, PIR_CONST | PIR_NOALIAS, "x", 0, 0);
    int py = pir_add_param(f, PP_TENSOR, PT_F32, PIR_NOALIAS, "y", 1, 0);
    int pxd = pir_add_param(f, PP_TENSOR, PT_F64, PIR_CONST | PIR_NOALIAS, "xd", 2, 0);
    int pyd = pir_add_param(f, PP_TENSOR, PT_F64, PIR_NOALIAS, "yd", 3, 0);
    int pn = pir_add_param(f, PP_DIM, PT_I64, 0, "n", 0, 0);
    PirLocal *i = pir_local(f, "i", PT_I64, 0);
    pir_decl(f, f->body, i, global_id(f));
    PirExpr *n = pir_param(f, pn);
    PirStmt *in = pir_if(f, f->body, pir_bin(f, PB_LT, pir_ref(f, i), n));
    for (int d = 0; d < 2; d++) {
        PirTy t = d ? PT_F64 : PT_F32;
        PirExpr *x = pir_load(f, pir_gmem(t, pir_param(f, d ? pxd : px), pir_ref(f, i)), NULL, NULL);
        PirLocal *v = pir_local(f, "v", t, 0);
        pir_decl(f, in->body, v, x);
        PirExpr *vx = pir_ref(f, v);
        PirExpr *p = pir_bin(f, PB_ADD, pir_math(f, PM_FABS, vx, NULL, NULL), pir_float(f, t, 0.25));
        for (int k = 0; k < NFN; k++) {
            PirExpr *r;
            if (k == NFN - 1) {
                r = pir_bin(f, PB_REM, vx, pir_float(f, t, 1.5));
            } else {
                PirMath fn = math_fns[k];
                bool pos = fn == PM_LOG || fn == PM_LOG2 || fn == PM_SQRT || fn == PM_RSQRT;
                r = fn == PM_POW ? pir_math(f, fn, p, vx, NULL)
                  : fn == PM_FMA ? pir_math(f, fn, vx, p, pir_float(f, t, 1.5))
                  : pir_math(f, fn, pos ? p : vx, NULL, NULL);
            }
            PirExpr *o = pir_bin(f, PB_ADD, pir_bin(f, PB_MUL, I64(f, k), n), pir_ref(f, i));
            pir_store(f, in->body, pir_gmem(t, pir_param(f, d ? pyd : py), o), r);
        }
    }
    return f;
}

/* Everything else, once: misc(p: i32*, q: f32*, h: u16*, n) */
static PirFunc *misc_kernel(Arena *a)
{
    static const PirTy tys[] = { PT_BOOL, PT_I8, PT_I16, PT_I32, PT_I64, PT_U8, PT_U16, PT_U32, PT_U64,
                                 PT_F32, PT_F64 };
    PirFunc *f = pir_func(a, "misc");
    f->threads = 64;
    f->smem = 4096;
    int pp = pir_add_param(f, PP_TENSOR, PT_I32, 0, "p", 0, 0);
    int pq = pir_add_param(f, PP_TENSOR, PT_F32, 0, "q", 1, 0);
    int ph = pir_add_param(f, PP_TENSOR, PT_U16, PIR_CONST, "h", 2, 0);
    int pn = pir_add_param(f, PP_DIM, PT_I64, 0, "n", 0, 0);
    int pg = pir_add_param(f, PP_GRID, PT_I64, 0, "tk_np", -1, 0);
    PirBlock *b = f->body;
    PirExpr *tid = pir_special(f, PSR_TID);
    /* the grid-stride loop over programs */
    PirLocal *prog = pir_local(f, "tk_p", PT_I64, 0);
    PirStmt *gl = pir_for(f, b, prog, pir_conv(f, PT_I64, pir_special(f, PSR_CTAID)), pir_param(f, pg),
                          pir_conv(f, PT_I64, pir_special(f, PSR_NCTAID)), false);
    b = gl->body;
    PirLocal *acc = pir_local(f, "acc", PT_F32, 8);
    PirLocal *k = pir_local(f, "k", PT_I32, 0);
    PirStmt *u = pir_for(f, b, k, pir_int(f, PT_I32, 0), pir_int(f, PT_I32, 8), pir_int(f, PT_I32, 1), true);
    PirExpr *off = pir_bin(f, PB_ADD, pir_bin(f, PB_MUL, pir_ref(f, prog), I64(f, 8)), pir_conv(f, PT_I64, pir_ref(f, k)));
    PirExpr *m = pir_bin(f, PB_LT, off, pir_param(f, pn));
    pir_assign(f, u->body, acc, pir_ref(f, k), pir_load(f, pir_gmem(PT_F32, pir_param(f, pq), off), m, pir_float(f, PT_F32, 0)));
    /* shuffles of every type; conversions between all of them */
    for (size_t i = 0; i < sizeof tys / sizeof *tys; i++) {
        PirExpr *v = pir_conv(f, tys[i], pir_elem(f, acc, pir_int(f, PT_I32, 1)));
        v = pir_shfl_xor(f, v, 16);
        for (size_t j = 0; j < sizeof tys / sizeof *tys; j++) {
            PirExpr *w = pir_conv(f, PT_I32, pir_conv(f, tys[j], v));
            pir_store(f, b, pir_gmem(PT_I32, pir_param(f, pp), I64(f, (int64_t)(i * 16 + j))), w);
        }
        if (pir_ty_int(tys[i])) {
            PirExpr *z = pir_conv(f, tys[i], pir_conv(f, PT_I32, tid));
            PirExpr *r = pir_bin(f, PB_XOR, pir_bin(f, PB_DIV, v, z), pir_bin(f, PB_REM, v, z));
            r = pir_bin(f, PB_ADD, r, pir_bin(f, PB_SHR, v, z));
            r = pir_bin(f, PB_MAX, pir_bin(f, PB_MIN, r, z), pir_un(f, PU_NEG, z));
            pir_store(f, b, pir_gmem(PT_I32, pir_param(f, pp), I64(f, (int64_t)(200 + i))), pir_conv(f, PT_I32, r));
        }
    }
    /* f16 and bf16 round trips; shared memory; a barrier; vector accesses */
    PirExpr *hv = pir_load(f, pir_gmem(PT_U16, pir_param(f, ph), I64(f, 0)), NULL, NULL);
    PirExpr *h32 = pir_conv(f, PT_F32, pir_bitcast(f, PT_F16, hv));
    PirExpr *b16 = pir_conv(f, PT_BF16, h32);
    pir_store(f, b, pir_smem(PT_BF16, 0, pir_conv(f, PT_I32, tid)), b16);
    pir_store(f, b, pir_smem(PT_F16, 128, pir_conv(f, PT_I32, tid)), pir_conv(f, PT_F16, pir_conv(f, PT_F32, b16)));
    pir_barrier(f, b);
    PirLocal *w = pir_local(f, "w", PT_U32, 4);
    PirStmt *lv = pir_stmt(f, b, PS_LOADV);
    lv->local = w, lv->nw = 4, lv->dst0 = 0;
    lv->mem = pir_smem(PT_U32, 0, pir_bin(f, PB_MUL, pir_conv(f, PT_I32, tid), pir_int(f, PT_I32, 4)));
    PirLocal *hh = pir_local(f, "hh", PT_F16, 8);
    PirStmt *lh = pir_stmt(f, b, PS_LOADV);
    lh->local = hh, lh->nw = 4, lh->dst0 = 0;
    lh->mem = pir_smem(PT_U32, 256, pir_int(f, PT_I32, 0));
    PirStmt *st = pir_stmt(f, b, PS_STORE);
    st->nw = 4;
    st->mem = pir_gmem(PT_U32, pir_param(f, pp), I64(f, 64));
    for (int i = 0; i < 4; i++)
        st->w[i] = pir_elem(f, w, pir_int(f, PT_I32, i));
    st->w[3] = pir_conv(f, PT_U32, pir_conv(f, PT_F32, pir_elem(f, hh, pir_int(f, PT_I32, 5))));
    /* inline PTX: ldmatrix, mma, pack */
    PirLocal *r = pir_local(f, "r", PT_U32, 6);
    PirStmt *ld = pir_asm_stmt(f, b, PA_LDSM4);
    for (int i = 0; i < 4; i++)
        ld->out[i] = pir_elem(f, r, pir_int(f, PT_I32, i));
    ld->in[0] = pir_saddr(f, pir_bin(f, PB_MUL, pir_conv(f, PT_I32, tid), pir_int(f, PT_I32, 16)));
    PirStmt *pk = pir_asm_stmt(f, b, PA_PACK_BF16X2);
    pk->out[0] = pir_elem(f, r, pir_int(f, PT_I32, 4));
    pk->in[0] = pir_elem(f, acc, pir_int(f, PT_I32, 0)), pk->in[1] = pir_elem(f, acc, pir_int(f, PT_I32, 1));
    pir_assign(f, b, r, pir_int(f, PT_I32, 5), pir_elem(f, r, pir_int(f, PT_I32, 4)));
    PirStmt *mma = pir_asm_stmt(f, b, PA_MMA_BF16);
    for (int i = 0; i < 4; i++)
        mma->out[i] = pir_elem(f, acc, pir_int(f, PT_I32, i + 4));
    for (int i = 0; i < 6; i++)
        mma->in[i] = pir_elem(f, r, pir_int(f, PT_I32, i));
    PirLocal *sum = pir_local(f, "sum", PT_F32, 0);
    pir_decl(f, b, sum, pir_float(f, PT_F32, 0));
    PirLocal *j = pir_local(f, "j", PT_I32, 0);
    PirStmt *u2 = pir_for(f, b, j, pir_int(f, PT_I32, 0), pir_int(f, PT_I32, 8), pir_int(f, PT_I32, 1), true);
    pir_assign(f, u2->body, sum, NULL, pir_bin(f, PB_ADD, pir_ref(f, sum), pir_elem(f, acc, pir_ref(f, j))));
    /* while with continue and break; a rolled loop marked unroll (has a break) */
    PirLocal *c = pir_local(f, "c", PT_I32, 0);
    pir_decl(f, b, c, pir_int(f, PT_I32, 0));
    PirStmt *wl = pir_stmt(f, b, PS_WHILE);
    wl->body = pir_block(f);
    pir_assign(f, wl->body, c, NULL, pir_bin(f, PB_ADD, pir_ref(f, c), pir_int(f, PT_I32, 1)));
    PirStmt *ifc = pir_if(f, wl->body, pir_bin(f, PB_LT, pir_ref(f, c), pir_int(f, PT_I32, 3)));
    pir_stmt(f, ifc->body, PS_CONTINUE);
    PirStmt *ifb = pir_if(f, wl->body, pir_bin(f, PB_GT, pir_ref(f, c), pir_conv(f, PT_I32, tid)));
    pir_stmt(f, ifb->body, PS_BREAK);
    ifb->els = pir_block(f);
    pir_assign(f, ifb->els, sum, NULL, pir_bin(f, PB_MUL, pir_ref(f, sum), pir_float(f, PT_F32, 0.5)));
    PirLocal *e = pir_local(f, "e", PT_I32, 0);
    PirStmt *u3 = pir_for(f, b, e, pir_int(f, PT_I32, 0), pir_int(f, PT_I32, 4), pir_int(f, PT_I32, 1), true);
    PirStmt *ife = pir_if(f, u3->body, pir_bin(f, PB_EQ, pir_ref(f, e), pir_ref(f, c)));
    pir_stmt(f, ife->body, PS_BREAK);
    pir_assign(f, u3->body, sum, NULL, pir_bin(f, PB_SUB, pir_ref(f, sum), pir_float(f, PT_F32, 1)));
    pir_store(f, b, pir_gmem(PT_F32, pir_param(f, pq), pir_conv(f, PT_I64, tid)),
              pir_select(f, pir_bin(f, PB_NE, pir_ref(f, sum), pir_ref(f, sum)), pir_float(f, PT_F32, 1), pir_ref(f, sum)));
    return f;
}

static const char *ptxas(void)
{
    static const char *const where[] = { "/usr/local/cuda/bin/ptxas", NULL };
    const char *h = getenv("CUDA_HOME");
    static char buf[512];
    if (h && *h) {
        snprintf(buf, sizeof buf, "%s/bin/ptxas", h);
        if (access(buf, X_OK) == 0)
            return buf;
    }
    return access(where[0], X_OK) == 0 ? where[0] : NULL;
}

static void check_ptxas(const char *ptx, const char *arch, const char *dir)
{
    const char *as = ptxas();
    if (!as)
        return;
    char path[600], cmd[1400];
    snprintf(path, sizeof path, "%s/unit_%s.ptx", dir, arch);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fputs(ptx, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s -arch=%s -o /dev/null %s", as, arch, path);
    int rc = system(cmd);
    if (rc != 0)
        printf("ptxas -arch=%s rejects %s\n", arch, path);
    CHECK(rc == 0);
}

int main(int argc, char **argv)
{
    if (nvptx_unavailable()) {
        printf("skipped: %s\n", nvptx_unavailable());
        return 0;
    }
    const char *dir = argc > 1 ? argv[1] : "/tmp";
    static const char *const arches[] = { "sm_90a", "sm_80" };
    for (int ai = 0; ai < 2; ai++) {
        Arena *a = arena_new();
        Diag d;
        diag_init(&d, stdout);
        PirFunc *fs[2] = { math_kernel(a), misc_kernel(a) };
        CudaKernel ck[2];
        CudaBinary bin = { 0 };
        bool ok = nvptx_compile_pir(a, fs, 2, ck, arches[ai], NULL, &bin, &d);
        CHECK(ok);
        if (!ok)
            return unit_done("nvptx_pir");
        CHECK(strstr(bin.ptx, ".entry tk_math") != NULL);
        CHECK(strstr(bin.ptx, ".entry misc") != NULL);
        CHECK(strstr(bin.ptx, ".maxntid 64, 1, 1") != NULL);
        CHECK(strstr(bin.ptx, "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32") != NULL);
        CHECK(strstr(bin.ptx, "ldmatrix.sync.aligned.m8n8.x4.shared.b16") != NULL);
        CHECK(strstr(bin.ptx, "shfl.sync.bfly.b32") != NULL);
        CHECK(strstr(bin.ptx, "bar.sync") != NULL);
        CHECK(strstr(bin.ptx, "ld.shared.v4") != NULL);
        CHECK(strstr(bin.ptx, "st.global.v4") != NULL);
        CHECK(strstr(bin.ptx, "ld.global.nc") != NULL);
        CHECK_INT(ck[1].smem, 4096);
        CHECK_INT(ck[1].threads, 64);
        check_ptxas(bin.ptx, arches[ai], dir);
        /* --emit=llvm's text */
        char *ir = NULL;
        PirFunc *f1[1] = { math_kernel(a) };
        CHECK(nvptx_compile_pir(a, f1, 1, ck, arches[ai], &ir, &bin, &d));
        CHECK(ir && strstr(ir, "ptx_kernel void @tk_math") != NULL);
        arena_free(a);
    }
    return unit_done("nvptx_pir");
}
