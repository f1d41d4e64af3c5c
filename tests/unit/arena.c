/* Unit test: arenas, growable arrays, string builders, the dtype table. */
#include <stdlib.h>

#include "lang/lang.h"
#include "tests/unit/unit.h"

static size_t allocated;
static void *counting_alloc(size_t n)
{
    allocated += n;
    return calloc(1, n);
}

int main(void)
{
    tk_alloc_hook = counting_alloc;      /* every byte goes through the hook */
    Arena *a = arena_new();

    /* zeroed, 16-byte aligned, distinct */
    char *p = arena_alloc(a, 3), *q = arena_alloc(a, 1);
    CHECK(((uintptr_t)p & 15) == 0 && ((uintptr_t)q & 15) == 0);
    CHECK(p != q && p[0] == 0 && p[2] == 0);
    char *big = arena_alloc(a, 5u << 20);           /* bigger than a chunk */
    CHECK(big && big[0] == 0 && big[(5u << 20) - 1] == 0);
    big[(5u << 20) - 1] = 1;
    CHECK(allocated >= (5u << 20));

    CHECK_STR(arena_strdup(a, "abc"), "abc");
    CHECK_STR(arena_strndup(a, "abcdef", 2), "ab");
    CHECK_STR(arena_printf(a, "%s=%d", "BM", 128), "BM=128");

    Vec(int) v = {0};
    for (int i = 0; i < 1000; i++)
        vec_push(a, v, i * 3);
    CHECK_INT(v.n, 1000);
    int ok = 1;
    for (int i = 0; i < 1000; i++)
        ok &= v.v[i] == i * 3;
    CHECK(ok);

    Buf b = {.a = a};
    buf_puts(&b, "x");
    for (int i = 0; i < 300; i++)
        buf_printf(&b, "%d,", i % 10);
    buf_putc(&b, '!');
    CHECK_INT(b.n, 1 + 600 + 1);
    CHECK(b.s[b.n] == 0 && b.s[0] == 'x' && b.s[b.n - 1] == '!');
    CHECK(strncmp(b.s + 1, "0,1,2,", 6) == 0);

    Buf l = {.a = a};                   /* generated code's lines: 4 spaces a level */
    buf_linef(&l, 0, "{");
    buf_linef(&l, 2, "x%d = %s;", 3, "y");
    buf_linef(&l, 0, "%s", "");
    CHECK_STR(l.s, "{\n        x3 = y;\n\n");

    DType dt;
    CHECK(dtype_from_name("bf16", &dt) && dt == DT_BF16);
    CHECK(dtype_from_name("u8", &dt) && dt == DT_U8);
    CHECK(!dtype_from_name("f8", &dt));
    CHECK(!dtype_from_name("int", &dt));
    CHECK_STR(dtype_info[DT_F16].c_storage, "tk_f16");
    CHECK(dtype_is_float(DT_BF16) && !dtype_is_float(DT_U32));
    CHECK(dtype_is_int(DT_I8) && !dtype_is_int(DT_BOOL) && !dtype_is_int(DT_F32));
    CHECK_INT(dtype_info[DT_I64].bits, 64);
    CHECK_STR(binop_str[B_SHL], "<<");
    CHECK_STR(binop_str[B_LAND], "&&");
    CHECK_STR(unop_str[U_BITNOT], "~");

    arena_free(a);
    return unit_done("arena");
}
