/*
 * targets/cuda/mma.c — dot on tensor cores: mma.sync m16n8k16.
 *
 * A DOT a[M,K] x b[K,N] (+ acc[M,N]) with both operands f16 or both bf16
 * and an f32 result runs on mma.sync (f32 accumulation) when M and N are
 * multiples of 16 (times the warp grid) and K of 16:
 *
 *   - The operands are written as 16-bit values into a staging region of
 *     shared memory that lies after emit.c's buffers: A as [M][K + 8], B as
 *     [K][N + 8].  The 16 bytes of padding per row put the eight rows that
 *     one ldmatrix phase reads in eight different bank groups.  emit.c says
 *     where each element comes from (the operand's own registers, a reload,
 *     its shared buffer), so any operand works; a group of a tile's own
 *     registers lying in one row goes in one 16-byte store.
 *   - The W = T/32 warps tile [M, N] as WM x WN (the squarest split); a
 *     warp's TM x TN piece is MI x NI fragments of 16 x 8.  Per 16-wide step
 *     of K a warp loads A with ldmatrix.x4 (one 16 x 16 block per mi) and B,
 *     row-major [K, N], with ldmatrix.x4.trans (two 16 x 8 blocks per load).
 *   - Thread l of warp w holds element c (0..3) of fragment (mi, ni) in slot
 *     (mi * NI + ni) * 4 + c: row (w % WM) * TM + mi * 16 + l / 4 + 8 * (c / 2),
 *     column (w / WM) * TN + ni * 8 + 2 * (l % 4) + c % 2 (PTX's layout of the
 *     m16n8 accumulator).
 *
 * The accumulator: a var updated in place (VAR_GET -> DOT -> VAR_SET, each
 * the next one's only use, nothing else touching the var in between) lives
 * in that fragment layout in registers across loop iterations, so a K loop
 * only stages operands and issues MMAs.  The var's other writes (the zeros
 * before the loop) fill the fragments element by element; its other reads
 * (the epilogue after the loop) convert to emit.c's block layout through
 * the staging region once.  Any other DOT reads its acc operand at fragment
 * index and converts its result the same way.  The emulator used by the
 * GPU tests without a GPU (tests/gpu/emu/mma.h) implements the four device
 * helpers of the prelude below, so it runs this path too.
 */
#include <stdlib.h>
#include <string.h>

#include "cuda.h"

#define PAD 8          /* elements of padding per staged 16-bit row: 16 bytes */
#define OPAD 8         /* floats of padding per row of the f32 conversion area */

const char cuda_mma_prelude[] =
    "#ifndef TK_EMU_MMA\n"
    "/* tensor cores (targets/cuda/mma.c) */\n"
    "TK_D uint32_t tk_smem_u32(const void *p)\n"
    "{ uint32_t a; asm(\"{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }\" : \"=r\"(a) : \"l\"((uint64_t)p)); return a; }\n"
    "TK_D void tk_ldsm4(uint32_t &a, uint32_t &b, uint32_t &c, uint32_t &d, uint32_t p)\n"
    "{ asm volatile(\"ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\"\n"
    "               : \"=r\"(a), \"=r\"(b), \"=r\"(c), \"=r\"(d) : \"r\"(p) : \"memory\"); }\n"
    "TK_D void tk_ldsm4t(uint32_t &a, uint32_t &b, uint32_t &c, uint32_t &d, uint32_t p)\n"
    "{ asm volatile(\"ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\"\n"
    "               : \"=r\"(a), \"=r\"(b), \"=r\"(c), \"=r\"(d) : \"r\"(p) : \"memory\"); }\n"
    "TK_D uint32_t tk_pack_bf16x2(float lo, float hi)\n"
    "{ uint32_t r; asm(\"cvt.rn.bf16x2.f32 %0, %1, %2;\" : \"=r\"(r) : \"f\"(hi), \"f\"(lo)); return r; }\n"
    "TK_D uint32_t tk_pack_f16x2(float lo, float hi)\n"
    "{ uint32_t r; asm(\"cvt.rn.f16x2.f32 %0, %1, %2;\" : \"=r\"(r) : \"f\"(hi), \"f\"(lo)); return r; }\n"
    "#define TK_DEF_MMA(N) \\\n"
    "    TK_D void tk_mma_##N(float &d0, float &d1, float &d2, float &d3, uint32_t a0, uint32_t a1, \\\n"
    "                         uint32_t a2, uint32_t a3, uint32_t b0, uint32_t b1) \\\n"
    "    { asm(\"mma.sync.aligned.m16n8k16.row.col.f32.\" #N \".\" #N \".f32 \" \\\n"
    "          \"{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\" \\\n"
    "          : \"+f\"(d0), \"+f\"(d1), \"+f\"(d2), \"+f\"(d3) \\\n"
    "          : \"r\"(a0), \"r\"(a1), \"r\"(a2), \"r\"(a3), \"r\"(b0), \"r\"(b1)); }\n"
    "TK_DEF_MMA(bf16)\n"
    "TK_DEF_MMA(f16)\n"
    "#endif\n";

typedef struct Grid {
    int64_t M, N;
    int WM, WN;            /* warps along M and N */
    int64_t TM, TN;        /* a warp's piece */
    int MI, NI;            /* its 16 x 8 fragments */
} Grid;

#define S(...) arena_printf(m->a, __VA_ARGS__)

static Instr *I(const CudaMma *m, int v) { return m->k->instrs.v[v]; }
static const TTy *ty(const CudaMma *m, int v) { return &m->k->instrs.v[v]->ty; }

static void put(CudaMma *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(CudaMma *m, const char *fmt, ...)
{
    Buf b = { .a = m->a };
    va_list ap;
    va_start(ap, fmt);
    buf_printf(&b, "%*s", 4 * m->depth, "");
    buf_vprintf(&b, fmt, ap);
    va_end(ap);
    m->put(m->ge, b.s);
}

/* The squarest warp grid over [M, N] with 16 x 16 per warp at least. */
static bool grid_of(const CudaMma *m, int64_t M, int64_t N, Grid *g)
{
    int W = m->T / 32;
    int64_t best = -1;
    if (M <= 0 || N <= 0 || M % 16 || N % 16)
        return false;
    for (int wm = 1; wm <= W; wm++) {
        int wn = W / wm;
        if (W % wm || M % (16 * wm) || N % (16 * wn))
            continue;
        int64_t cost = M / wm / 16 + N / wn / 16;      /* ldmatrix per 16 of K */
        if (best < 0 || cost < best) {
            best = cost;
            *g = (Grid){ .M = M, .N = N, .WM = wm, .WN = wn, .TM = M / wm, .TN = N / wn,
                         .MI = (int)(M / wm / 16), .NI = (int)(N / wn / 8) };
        }
    }
    return best >= 0 && g->MI * g->NI <= 64;
}

/* emit.c's block layout of a tile of n elements: group width and count. */
static int vwidth(const CudaMma *m, int64_t n) { return cuda_vwidth(m->V, n); }
static int64_t groups(const CudaMma *m, int64_t n) { return cuda_groups(m->T, m->V, n); }

static bool half_dt(DType dt) { return dt == DT_F16 || dt == DT_BF16; }

static bool dot_fits(const CudaMma *m, const Instr *in, Grid *g)
{
    const TTy *t = &in->ty, *ta = ty(m, in->args[0]), *tb = ty(m, in->args[1]);
    if (t->rank != 2 || ta->rank != 2 || tb->rank != 2 || t->dt != DT_F32 || !half_dt(ta->dt)
        || ta->dt != tb->dt || ta->dim[1] % 16 || ta->dim[1] <= 0)
        return false;
    if (in->args[2] > 0 && ty(m, in->args[2])->dt != DT_F32)
        return false;
    return grid_of(m, t->dim[0], t->dim[1], g);
}

/* Between the VAR_GET g and the VAR_SET s of one block, nothing else
 * touches var x and no control flow hides such an access. */
static bool quiet_between(const CudaMma *m, const Instr *g, const Instr *s, int x)
{
    const TBlock *b = g->parent;
    int i = 0;
    while (i < b->ins.n && b->ins.v[i] != g->id)
        i++;
    for (i++; i < b->ins.n && b->ins.v[i] != s->id; i++) {
        const Instr *in = I(m, b->ins.v[i]);
        if (in->blocks[0] || in->blocks[1] || ((in->op == OP_VAR_GET || in->op == OP_VAR_SET) && in->index == x))
            return false;
    }
    return i < b->ins.n;
}

void cuda_mma_plan(CudaMma *m)
{
    TirKernel *k = m->k;
    int n = k->instrs.n;
    m->on = arena_alloc(m->a, (size_t)n + 1);
    m->fused = arena_alloc(m->a, (size_t)n + 1);
    m->frag_var = arena_alloc(m->a, (size_t)k->vars.n + 1);
    const char *env = getenv("TKC_MMA");
    if (env && !strcmp(env, "0"))
        return;
    int *uses = tir_use_counts(k);
    for (int v = 1; v < n; v++) {
        const Instr *in = I(m, v);
        Grid g;
        if (in->op != OP_DOT || !m->live[v] || !dot_fits(m, in, &g))
            continue;
        m->on[v] = true;
        int gv = in->args[2];
        const Instr *gi = gv > 0 ? I(m, gv) : NULL;
        if (!gi || gi->op != OP_VAR_GET || uses[gv] != 1 || uses[v] != 1 || gi->parent != in->parent)
            continue;
        int x = gi->index;
        const TBlock *b = in->parent;
        const Instr *s = NULL;
        for (int i = 0; i < b->ins.n && !s; i++) {
            const Instr *c = I(m, b->ins.v[i]);
            if (c->op == OP_VAR_SET && c->args[0] == v && c->index == x)
                s = c;
        }
        const TTy *vt = &k->vars.v[x].ty;
        int64_t cnt = vt->dim[0] * vt->dim[1];
        if (!s || !tty_eq(vt, &in->ty) || !quiet_between(m, gi, s, x)
            || cnt % m->T || cnt / m->T != groups(m, cnt) * vwidth(m, cnt))
            continue;
        m->fused[gv] = m->fused[v] = m->fused[s->id] = true;
        m->frag_var[x] = true;
    }
}

bool cuda_mma_var(const CudaMma *m, const Instr *in)
{
    return m->frag_var && (in->op == OP_VAR_GET || in->op == OP_VAR_SET) && in->index >= 0
           && in->index < m->k->vars.n && m->frag_var[in->index];
}

static void need(CudaMma *m, int64_t bytes)
{
    bytes = (bytes + 127) / 128 * 128;
    if (bytes > m->need)
        m->need = bytes;
}

/* Open/close the unrolled loops over a thread's fragment slots of grid g:
 * tk_k (slot), tk_i0, tk_i1 (row, column). */
static void open_frag(CudaMma *m, const Grid *g)
{
    put(m, "{");
    m->depth++;
    put(m, "const int tk_w = tk_tid >> 5, tk_l = tk_tid & 31;");
    put(m, "const int tk_r0 = tk_w %% %d * %lld + (tk_l >> 2), tk_c0 = tk_w / %d * %lld + 2 * (tk_l & 3);",
        g->WM, (long long)g->TM, g->WM, (long long)g->TN);
    put(m, "#pragma unroll");
    put(m, "for (int tk_mi = 0; tk_mi < %d; tk_mi++) {", g->MI);
    m->depth++;
    put(m, "#pragma unroll");
    put(m, "for (int tk_ni = 0; tk_ni < %d; tk_ni++) {", g->NI);
    m->depth++;
    put(m, "#pragma unroll");
    put(m, "for (int tk_c = 0; tk_c < 4; tk_c++) {");
    m->depth++;
    put(m, "const int tk_k = (tk_mi * %d + tk_ni) * 4 + tk_c;", g->NI);
    put(m, "const int tk_i0 = tk_r0 + tk_mi * 16 + (tk_c >> 1) * 8, tk_i1 = tk_c0 + tk_ni * 8 + (tk_c & 1);");
}

static void close_n(CudaMma *m, int n)
{
    while (n-- > 0) {
        m->depth--;
        put(m, "}");
    }
}

/* Loops over a thread's slots of emit.c's block layout of [R, C]: per
 * group tk_q (first flat index tk_g), per element tk_j, tk_k, tk_i0, tk_i1.
 * Returns the number of braces to close. */
static int open_block(CudaMma *m, int64_t R, int64_t C, bool elems)
{
    int64_t n = R * C;
    int V = vwidth(m, n), d = 1;
    put(m, "#pragma unroll");
    put(m, "for (int tk_q = 0; tk_q < %lld; tk_q++) {", (long long)groups(m, n));
    m->depth++;
    put(m, "const int tk_g = (tk_q * %d + tk_tid) * %d;", m->T, V);
    if (n % ((int64_t)m->T * V)) {
        put(m, "if (tk_g < %lld) {", (long long)n);
        m->depth++;
        d++;
    }
    if (!elems)
        return d;
    put(m, "#pragma unroll");
    put(m, "for (int tk_j = 0; tk_j < %d; tk_j++) {", V);
    m->depth++;
    put(m, "const int tk_k = tk_q * %d + tk_j, tk_i0 = (tk_g + tk_j) / %lld, tk_i1 = (tk_g + tk_j) %% %lld;",
        V, (long long)C, (long long)C);
    return d + 1;
}

/* Write tile v ([R, C], f16/bf16) into shared memory at byte offset off,
 * rows of C + PAD 16-bit elements. */
static void stage(CudaMma *m, int v, int64_t off)
{
    const TTy *t = ty(m, v);
    int64_t R = t->dim[0], C = t->dim[1], n = R * C, SR = C + PAD;
    int V = vwidth(m, n);
    const char *pk = t->dt == DT_BF16 ? "tk_pack_bf16x2" : "tk_pack_f16x2";
    if (V >= 2 && C % V == 0) {
        /* a group lies in one row: its V values go in one store */
        int d = open_block(m, R, C, false);
        put(m, "const int tk_i0 = tk_g / %lld, tk_g1 = tk_g %% %lld;", (long long)C, (long long)C);
        put(m, "float tk_x[%d];", V);
        put(m, "#pragma unroll");
        put(m, "for (int tk_j = 0; tk_j < %d; tk_j++) {", V);
        m->depth++;
        put(m, "const int tk_k = tk_q * %d + tk_j, tk_i1 = tk_g1 + tk_j;", V);
        put(m, "tk_x[tk_j] = %s;", m->at(m->ge, v, "tk_i0", "tk_i1", true));
        close_n(m, 1);
        char *dst = S("(tk_smem + %lld + (tk_i0 * %lld + tk_g1) * 2)", (long long)off, (long long)SR);
        if (V == 8)
            put(m, "*(uint4 *)%s = make_uint4(%s(tk_x[0], tk_x[1]), %s(tk_x[2], tk_x[3]), %s(tk_x[4], tk_x[5]), %s(tk_x[6], tk_x[7]));",
                dst, pk, pk, pk, pk);
        else if (V == 4)
            put(m, "*(uint2 *)%s = make_uint2(%s(tk_x[0], tk_x[1]), %s(tk_x[2], tk_x[3]));", dst, pk, pk);
        else
            put(m, "*(uint32_t *)%s = %s(tk_x[0], tk_x[1]);", dst, pk);
        close_n(m, d);
        return;
    }
    int d = open_block(m, R, C, true);
    put(m, "((uint16_t *)(tk_smem + %lld))[tk_i0 * %lld + tk_i1] = (uint16_t)%s(%s, 0.0f);", (long long)off,
        (long long)SR, pk, m->at(m->ge, v, "tk_i0", "tk_i1", true));
    close_n(m, d);
}

/* The fragments in array src (grid g) to emit.c's block layout in a new
 * float v<dst>[...], through the staging region: in slabs of rows whose
 * f32 copy takes at most `cap` bytes (so a conversion needs no more shared
 * memory than the operands' staging, or 32 KB). */
static void to_block(CudaMma *m, const char *src, int dst, const Grid *g, int64_t cap)
{
    int64_t n = g->M * g->N, SO = g->N + OPAD, rows = g->M;
    if (cap < 32768)
        cap = 32768;
    while (rows > 1 && (rows * SO * 4 > cap || g->M % rows))
        rows--;
    need(m, rows * SO * 4);
    const char *in = rows < g->M ? S("tk_i0 >= tk_s && tk_i0 < tk_s + %lld", (long long)rows) : NULL;
    put(m, "float v%d[%lld];", dst, (long long)(groups(m, n) * vwidth(m, n)));
    put(m, "for (int tk_s = 0; tk_s < %lld; tk_s += %lld) {", (long long)g->M, (long long)rows);
    m->depth++;
    put(m, "__syncthreads();");
    open_frag(m, g);
    put(m, "%s((float *)(tk_smem + %lld))[(tk_i0 - tk_s) * %lld + tk_i1] = %s[tk_k];", in ? S("if (%s) ", in) : "",
        (long long)m->off, (long long)SO, src);
    close_n(m, 4);
    put(m, "__syncthreads();");
    int d = open_block(m, g->M, g->N, true);
    put(m, "%sv%d[tk_k] = ((const float *)(tk_smem + %lld))[(tk_i0 - tk_s) * %lld + tk_i1];", in ? S("if (%s) ", in) : "",
        dst, (long long)m->off, (long long)SO);
    close_n(m, d + 1);
}

/* Fill fragment array dst (grid g) with tile v read at each slot's index. */
static void from_tile(CudaMma *m, const char *dst, int v, const Grid *g)
{
    open_frag(m, g);
    put(m, "%s[tk_k] = %s;", dst, v > 0 ? m->at(m->ge, v, "tk_i0", "tk_i1", false) : "0.0f");
    close_n(m, 4);
}

bool cuda_mma_dot(CudaMma *m, const Instr *in)
{
    Grid g;
    if (!m->on || !m->on[in->id] || !dot_fits(m, in, &g))
        return false;
    int a = in->args[0], b = in->args[1], c = in->args[2];
    int64_t M = g.M, N = g.N, K = ty(m, a)->dim[1], SA = K + PAD, SB = N + PAD;
    int64_t offa = m->off, offb = m->off + M * SA * 2;
    need(m, M * SA * 2 + K * SB * 2);
    const char *acc;
    if (m->fused[in->id]) {
        acc = S("var%d", I(m, c)->index);
    } else {
        acc = S("tk_d%d", in->id);
        put(m, "float %s[%d];", acc, g.MI * g.NI * 4);
        from_tile(m, acc, c, &g);
    }
    put(m, "__syncthreads();");
    stage(m, a, offa);
    stage(m, b, offb);
    put(m, "__syncthreads();");
    put(m, "{");
    m->depth++;
    put(m, "const int tk_w = tk_tid >> 5, tk_l = tk_tid & 31;");
    put(m, "const uint32_t tk_sa = tk_smem_u32(tk_smem + %lld) + ((tk_w %% %d * %lld + (tk_l & 15)) * %lld + (tk_l >> 4) * 8) * 2;",
        (long long)offa, g.WM, (long long)g.TM, (long long)SA);
    put(m, "const uint32_t tk_sb = tk_smem_u32(tk_smem + %lld) + ((tk_l & 15) * %lld + tk_w / %d * %lld + (tk_l >> 4) * 8) * 2;",
        (long long)offb, (long long)SB, g.WM, (long long)g.TN);
    put(m, "#pragma unroll");
    put(m, "for (int tk_kk = 0; tk_kk < %lld; tk_kk += 16) {", (long long)K);
    m->depth++;
    put(m, "uint32_t tk_fa[%d][4], tk_fb[%d][2];", g.MI, g.NI);
    put(m, "#pragma unroll");
    put(m, "for (int tk_mi = 0; tk_mi < %d; tk_mi++)", g.MI);
    put(m, "    tk_ldsm4(tk_fa[tk_mi][0], tk_fa[tk_mi][1], tk_fa[tk_mi][2], tk_fa[tk_mi][3], tk_sa + (tk_mi * %lld + tk_kk) * 2);",
        (long long)(16 * SA));
    put(m, "#pragma unroll");
    put(m, "for (int tk_nj = 0; tk_nj < %d; tk_nj++)", g.NI / 2);
    put(m, "    tk_ldsm4t(tk_fb[2 * tk_nj][0], tk_fb[2 * tk_nj][1], tk_fb[2 * tk_nj + 1][0], tk_fb[2 * tk_nj + 1][1], tk_sb + (tk_kk * %lld + tk_nj * 16) * 2);",
        (long long)SB);
    put(m, "#pragma unroll");
    put(m, "for (int tk_mi = 0; tk_mi < %d; tk_mi++)", g.MI);
    put(m, "    #pragma unroll");
    put(m, "    for (int tk_ni = 0; tk_ni < %d; tk_ni++) {", g.NI);
    put(m, "        float *tk_d = %s + (tk_mi * %d + tk_ni) * 4;", acc, g.NI);
    put(m, "        tk_mma_%s(tk_d[0], tk_d[1], tk_d[2], tk_d[3], tk_fa[tk_mi][0], tk_fa[tk_mi][1], tk_fa[tk_mi][2], tk_fa[tk_mi][3], tk_fb[tk_ni][0], tk_fb[tk_ni][1]);",
        ty(m, a)->dt == DT_BF16 ? "bf16" : "f16");
    put(m, "    }");
    close_n(m, 2);
    if (!m->fused[in->id])
        to_block(m, acc, in->id, &g, M * SA * 2 + K * SB * 2);
    return true;
}

void cuda_mma_var_op(CudaMma *m, const Instr *in)
{
    Grid g;
    const TTy *vt = &m->k->vars.v[in->index].ty;
    if (m->fused[in->id] || !grid_of(m, vt->dim[0], vt->dim[1], &g))
        return;
    if (in->op == OP_VAR_SET)
        from_tile(m, S("var%d", in->index), in->args[0], &g);
    else
        to_block(m, S("var%d", in->index), in->id, &g, 0);
}
