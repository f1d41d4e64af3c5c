/* Unit test: diagnostics (lang/diag.c) — GCC-style header, the source line,
 * a tab-aware caret with ~ under the rest of the span, notes and warnings,
 * the error limit, spans at the ends of the text. */
#include <stdlib.h>
#include <unistd.h>

#include "lang/lang.h"
#include "tests/unit/unit.h"

static Arena *A;
static FILE *out;

static Src *mksrc(const char *path, const char *text)
{
    Src *s = arena_alloc(A, sizeof *s);
    s->path = path;
    s->text = text;
    s->len = strlen(text);
    s->arena = A;
    return s;
}

static Span at(const Src *s, const char *needle, int len)
{
    const char *p = strstr(s->text, needle);
    int lo = p ? (int)(p - s->text) : 0;
    return (Span){s, lo, lo + len};
}

/* Everything written to the diagnostic stream since the last call. */
static const char *taken(void)
{
    static char buf[4096];
    fflush(out);
    long n = ftell(out);
    rewind(out);
    size_t got = fread(buf, 1, n < (long)sizeof buf - 1 ? (size_t)n : sizeof buf - 1, out);
    buf[got] = 0;
    rewind(out);
    if (ftruncate(fileno(out), 0) != 0)
        buf[0] = 0;
    return buf;
}

static void format(void)
{
    Diag d;
    diag_init(&d, out);
    Src *s = mksrc("k.tk", "kernel k() grid(1)\n{\n    let x = foo + 1;\n}\n");
    diag_error(&d, at(s, "foo", 3), "undefined name '%s'", "foo");
    CHECK_STR(taken(), "k.tk:3:13: error: undefined name 'foo'\n"
                       "      let x = foo + 1;\n"
                       "              ^~~\n");
    CHECK_INT(d.nerrors, 1);

    diag_note(&d, at(s, "let", 3), "declared here");
    CHECK_STR(taken(), "k.tk:3:5: note: declared here\n"
                       "      let x = foo + 1;\n"
                       "      ^~~\n");
    diag_warning(&d, at(s, "kernel", 6), "unused");
    CHECK_STR(taken(), "k.tk:1:1: warning: unused\n"
                       "  kernel k() grid(1)\n"
                       "  ^~~~~~\n");
    CHECK_INT(d.nerrors, 1);
    CHECK_INT(d.nwarnings, 1);

    /* An empty span still gets a caret; no location prints "tkc:". */
    diag_error(&d, at(s, "+", 0), "here");
    CHECK_STR(taken(), "k.tk:3:17: error: here\n"
                       "      let x = foo + 1;\n"
                       "                  ^\n");
    diag_error(&d, (Span){0}, "no input files");
    CHECK_STR(taken(), "tkc: error: no input files\n");
    CHECK_INT(d.nerrors, 3);
}

static void tabs(void)
{
    Diag d;
    diag_init(&d, out);
    /* Columns count bytes; the caret line copies the tabs. */
    Src *s = mksrc("t.tk", "fn f() {\n\tlet\ty = bad;\n}\n");
    diag_error(&d, at(s, "bad", 3), "x");
    CHECK_STR(taken(), "t.tk:2:10: error: x\n"
                       "  \tlet\ty = bad;\n"
                       "  \t   \t    ^~~\n");
}

static void spans(void)
{
    Diag d;
    diag_init(&d, out);
    /* A span running past its line stops the ~ at the end of the line. */
    Src *s = mksrc("m.tk", "ab\ncd\n");
    diag_error(&d, (Span){s, 0, 5}, "multi");
    CHECK_STR(taken(), "m.tk:1:1: error: multi\n  ab\n  ^~\n");
    /* At the very end of a text without a final newline. */
    Src *e = mksrc("e.tk", "let x");
    diag_error(&d, (Span){e, 5, 5}, "eof");
    CHECK_STR(taken(), "e.tk:1:6: error: eof\n  let x\n       ^\n");
    /* An empty file. */
    Src *z = mksrc("z.tk", "");
    diag_error(&d, (Span){z, 0, 0}, "empty");
    CHECK_STR(taken(), "z.tk:1:1: error: empty\n  \n  ^\n");

    int line, col;
    span_linecol((Span){s, 4, 5}, &line, &col);
    CHECK(line == 2 && col == 2);
    Span j = span_join((Span){s, 3, 4}, (Span){s, 0, 1});
    CHECK(j.lo == 0 && j.hi == 4);
    j = span_join((Span){0}, (Span){s, 1, 2});
    CHECK(j.src == s && j.lo == 1 && j.hi == 2);
}

static void limit(void)
{
    Diag d;
    diag_init(&d, out);
    d.max_errors = 3;
    Src *s = mksrc("l.tk", "x\n");
    for (int i = 0; i < 10; i++)
        diag_error(&d, (Span){s, 0, 1}, "e%d", i);
    const char *t = taken();
    CHECK(strstr(t, "e2") != NULL);
    CHECK(strstr(t, "e3") == NULL);             /* stops reporting... */
    CHECK(strstr(t, "too many errors") != NULL);
    CHECK_INT(d.nerrors, 10);                   /* ...but keeps counting */
}

int main(void)
{
    A = arena_new();
    out = tmpfile();
    if (!out)
        return 1;
    format();
    tabs();
    spans();
    limit();
    fclose(out);
    arena_free(A);
    return unit_done("diag");
}
