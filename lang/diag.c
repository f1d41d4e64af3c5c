/*
 * lang/diag.c — GCC-style diagnostics: "file:line:col: error: msg", then the
 * source line and a caret under the span.  Tabs in the source line are
 * copied into the caret line so the caret lands under the right column in
 * any editor or terminal.
 */
#include <string.h>

#include "lang.h"

void diag_init(Diag *d, FILE *out)
{
    memset(d, 0, sizeof *d);
    d->out = out ? out : stderr;
    d->max_errors = 50;
}

Span span_join(Span a, Span b)
{
    if (!a.src)
        return b;
    if (!b.src)
        return a;
    Span s = a;
    if (b.lo < s.lo)
        s.lo = b.lo;
    if (b.hi > s.hi)
        s.hi = b.hi;
    return s;
}

void span_linecol(Span s, int *line, int *col)
{
    if (s.src && s.src->lines) {    /* binary search: messages about big files stay cheap */
        int lo = s.lo < 0 ? 0 : (size_t)s.lo > s.src->len ? (int)s.src->len : s.lo;
        int a = 0, b = s.src->nlines - 1;
        while (a < b) {
            int m = (a + b + 1) / 2;
            if (s.src->lines[m] <= lo)
                a = m;
            else
                b = m - 1;
        }
        *line = a + 1;
        *col = lo - s.src->lines[a] + 1;
        return;
    }
    int l = 1, c = 1;
    for (int i = 0; s.src && i < s.lo && (size_t)i < s.src->len; i++) {
        if (s.src->text[i] == '\n')
            l++, c = 1;
        else
            c++;
    }
    *line = l;
    *col = c;
}

static void show_line(FILE *out, Span s)
{
    const char *t = s.src->text;
    int lo = s.lo < 0 ? 0 : s.lo;
    if ((size_t)lo > s.src->len)
        lo = (int)s.src->len;
    int bol = lo;
    while (bol > 0 && t[bol - 1] != '\n')
        bol--;
    int eol = lo;
    while ((size_t)eol < s.src->len && t[eol] != '\n')
        eol++;
    fprintf(out, "  %.*s\n  ", eol - bol, t + bol);
    for (int i = bol; i < lo; i++)
        fputc(t[i] == '\t' ? '\t' : ' ', out);
    int hi = s.hi > eol ? eol : s.hi;
    fputc('^', out);
    for (int i = lo + 1; i < hi; i++)
        fputc('~', out);
    fputc('\n', out);
}

void diag_vreport(Diag *d, const char *kind, Span at, const char *fmt, va_list ap)
{
    bool is_error = strcmp(kind, "error") == 0;
    if (is_error)
        d->nerrors++;
    else if (strcmp(kind, "warning") == 0)
        d->nwarnings++;
    if (d->nerrors > d->max_errors)
        return;
    if (at.src) {
        int line, col;
        span_linecol(at, &line, &col);
        fprintf(d->out, "%s:%d:%d: %s: ", at.src->path, line, col, kind);
    } else {
        fprintf(d->out, "tkc: %s: ", kind);
    }
    vfprintf(d->out, fmt, ap);
    fputc('\n', d->out);
    if (at.src)
        show_line(d->out, at);
    if (is_error && d->nerrors == d->max_errors)
        fprintf(d->out, "tkc: too many errors; stopping here\n");
}

#define REPORT(kind)                       \
    va_list ap;                            \
    va_start(ap, fmt);                     \
    diag_vreport(d, kind, at, fmt, ap);    \
    va_end(ap)

void diag_error(Diag *d, Span at, const char *fmt, ...) { REPORT("error"); }
void diag_warning(Diag *d, Span at, const char *fmt, ...) { REPORT("warning"); }
void diag_note(Diag *d, Span at, const char *fmt, ...) { REPORT("note"); }
