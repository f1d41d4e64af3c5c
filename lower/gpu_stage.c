/*
 * lower/gpu_stage.c — operand chunks of a pipelined K loop whose global
 * address is not 16-byte aligned, staged through registers.
 *
 * The cp.async copy of a stage (gpu_mma.c, copy_tile) moves 16-byte chunks
 * of an operand tile: rows of the tile, 16 bytes at a time.  cp.async (and
 * TMA) need the chunk's global address to be a multiple of 16.  A tensor
 * whose rows are not (a row pitch of 4095 bf16 elements: 8190 bytes) has
 * most of its chunks unaligned, and those went element by element: eight
 * masked 2-byte loads, each converted to f32 and back, per chunk.
 *
 * Here a chunk that is wholly inside the tensor but unaligned is read with
 * the widest loads its address allows, never outside its own 16 bytes: a
 * 16-bit element type (bf16, f16) at an address of 4k bytes takes four 4-byte
 * loads; at 4k + 2, a 2-byte load, three 4-byte loads and a 2-byte load,
 * shifted into the four words the stage's 16-byte store wants.  Both forms
 * are one branch-free sequence (the loads that the other form needs are
 * predicated off), so the threads of a warp reading rows of both parities do
 * not diverge.  A 32-bit element type (f32) is always 4-aligned: four 4-byte
 * loads.  The chunks at the tensor's edges keep the element-by-element copy.
 */
#include "gpu.h"

#define F (gpu_func(e))

static PirExpr *u32c(GL *e, int64_t v) { return pir_int(F, PT_U32, v); }

/* The U32 word at element `at` (I64) of ptr's tensor, when mask holds (else 0). */
static PirExpr *word_at(GL *e, PirExpr *base, PirLocal *o, int64_t at, PirExpr *extra, PirExpr *mask)
{
    PirExpr *i = pir_bin(F, PB_ADD, pir_ref(F, o), pir_int(F, PT_I64, at));
    if (extra)
        i = pir_bin(F, PB_ADD, i, extra);
    return pir_load(F, pir_gmem(PT_U32, pir_ptradd(F, base, i), pir_int(F, PT_I64, 0)), mask, NULL);
}

/* The U16 element at element `at` of ptr's tensor as a U32, when mask holds. */
static PirExpr *half_at(GL *e, PirExpr *base, PirLocal *o, int64_t at, PirExpr *mask)
{
    PirExpr *i = pir_bin(F, PB_ADD, pir_ref(F, o), pir_int(F, PT_I64, at));
    PirExpr *x = pir_load(F, pir_gmem(PT_U16, pir_ptradd(F, base, i), pir_int(F, PT_I64, 0)), mask, NULL);
    return pir_conv(F, PT_U32, x);
}

bool gpu_stage_words(GL *e, PirExpr *ptr, int es, PirExpr *w[4])
{
    if (!tkc_knob("TKC_UNALIGNED", 1) || ptr->kind != PE_PTRADD || (es != 2 && es != 4))
        return false;
    PirExpr *base = ptr->a;
    PirLocal *o = gpu_let(e, "uo", pir_conv(F, PT_I64, ptr->b));
    if (es == 4) {
        for (int i = 0; i < 4; i++)
            w[i] = pir_ref(F, gpu_let(e, "uw", word_at(e, base, o, i, NULL, NULL)));
        return true;
    }
    /* 16-bit elements: odd when the chunk starts at 4k + 2 bytes */
    PirExpr *addr = pir_ptrint(F, pir_ptradd(F, base, pir_ref(F, o)));
    PirLocal *odd = gpu_let(e, "uodd", pir_bin(F, PB_NE, pir_bin(F, PB_AND, addr, pir_int(F, PT_U64, 2)),
                                               pir_int(F, PT_U64, 0)));
    PirExpr *sh = pir_conv(F, PT_I64, pir_ref(F, odd));      /* 1 element ahead when odd */
    PirLocal *v[3];
    for (int i = 0; i < 3; i++)      /* even: elements 2i, 2i+1; odd: 2i+1, 2i+2 */
        v[i] = gpu_let(e, "uv", word_at(e, base, o, 2 * i, sh, NULL));
    PirExpr *even = pir_un(F, PU_NOT, pir_ref(F, odd));
    PirLocal *t = gpu_let(e, "ut", word_at(e, base, o, 6, NULL, even));       /* even: elements 6, 7 */
    PirLocal *lo = gpu_let(e, "ulo", half_at(e, base, o, 0, pir_ref(F, odd)));  /* odd: element 0 */
    PirLocal *hi = gpu_let(e, "uhi", half_at(e, base, o, 7, pir_ref(F, odd)));  /* odd: element 7 */
    PirExpr *p16 = u32c(e, 16);
    for (int i = 0; i < 4; i++) {
        PirExpr *a = i == 0 ? pir_ref(F, lo) : pir_bin(F, PB_SHR, pir_ref(F, v[i - 1]), p16);
        PirExpr *b = pir_bin(F, PB_SHL, pir_ref(F, i == 3 ? hi : v[i]), p16);
        PirExpr *oddw = pir_bin(F, PB_OR, a, b);
        w[i] = pir_ref(F, gpu_let(e, "uw", pir_select(F, pir_ref(F, odd), oddw, pir_ref(F, i == 3 ? t : v[i]))));
    }
    return true;
}
