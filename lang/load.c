/*
 * lang/load.c — read a source file and its imports.  Each file is parsed
 * once (keyed by its resolved path); an import that cannot be found is an
 * error at the import's string.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "lang.h"
#include "../parser/parse.h"

Src *src_read(Arena *a, const char *path, Diag *d, Span from)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        diag_error(d, from, "cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    Buf b = {.a = a};
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        for (size_t i = 0; i < n; i++)
            buf_putc(&b, chunk[i]);
    }
    bool bad = ferror(f);
    fclose(f);
    if (bad) {
        diag_error(d, from, "cannot read '%s'", path);
        return NULL;
    }
    Src *s = arena_alloc(a, sizeof *s);
    s->path = arena_strdup(a, path);
    s->text = b.s ? b.s : "";
    s->len = b.n;
    s->arena = a;
    if (strlen(s->text) != s->len) {
        diag_error(d, from, "'%s' contains a NUL byte; tkc reads text files", path);
        return NULL;
    }
    if (s->len > INT_MAX / 2) {      /* Span offsets are ints */
        diag_error(d, from, "'%s' is too large (%zu bytes)", path, s->len);
        return NULL;
    }
    Vec(int) lines = {0};
    vec_push(a, lines, 0);
    for (size_t i = 0; i < s->len; i++)
        if (s->text[i] == '\n')
            vec_push(a, lines, (int)i + 1);
    s->lines = lines.v;
    s->nlines = lines.n;
    return s;
}

static char *dir_of(Arena *a, const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? arena_strndup(a, path, (size_t)(slash - path)) : arena_strdup(a, ".");
}

static bool exists(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f)
        fclose(f);
    return f != NULL;
}

static char *resolve(Arena *a, const char *from_file, const char *imp, const char **search, int nsearch)
{
    if (imp[0] == '/')
        return exists(imp) ? arena_strdup(a, imp) : NULL;
    char *p = arena_printf(a, "%s/%s", dir_of(a, from_file), imp);
    if (exists(p))
        return p;
    for (int i = 0; i < nsearch; i++) {
        p = arena_printf(a, "%s/%s", search[i], imp);
        if (exists(p))
            return p;
    }
    return NULL;
}

typedef struct Loader {
    Arena *a;
    Diag *d;
    const char **search; int nsearch;
    Vec(Ast *) files;
    Vec(char *) keys;
} Loader;

static void load_file(Loader *L, const char *path, Span from)
{
    char real[PATH_MAX];
    const char *key = realpath(path, real) ? real : path;
    for (int i = 0; i < L->keys.n; i++)
        if (strcmp(L->keys.v[i], key) == 0)
            return;
    vec_push(L->a, L->keys, arena_strdup(L->a, key));
    Src *s = src_read(L->a, path, L->d, from);
    if (!s)
        return;
    Ast *ast = tk_parse(s, L->d);
    if (!ast)
        return;
    vec_push(L->a, L->files, ast);
    for (int i = 0; i < ast->nitems; i++) {
        Item *it = ast->items[i];
        if (it->kind != IT_IMPORT)
            continue;
        char *p = resolve(L->a, path, it->u.import.path, L->search, L->nsearch);
        if (!p)
            diag_error(L->d, it->u.import.span, "cannot find import \"%s\"", it->u.import.path);
        else
            load_file(L, p, it->u.import.span);
    }
}

Program *program_load(Arena *a, const char *path, const char **search, int nsearch, Diag *d)
{
    Loader L = {.a = a, .d = d, .search = search, .nsearch = nsearch};
    load_file(&L, path, (Span){0});
    if (L.files.n == 0)
        return NULL;
    Program *p = arena_alloc(a, sizeof *p);
    p->arena = a;
    p->files = L.files.v;
    p->nfiles = L.files.n;
    return p;
}
