/*
 * lang/arena.c — bump allocation.  A compilation allocates everything from
 * one arena and frees it all at once; nothing is freed piecemeal.  Every
 * byte comes from tk_alloc so tests can swap in a failing allocator.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang.h"

static void *default_alloc(size_t n) { return calloc(1, n); }
void *(*tk_alloc_hook)(size_t n) = default_alloc;

void *tk_alloc(size_t n)
{
    void *p = tk_alloc_hook(n ? n : 1);
    if (!p) {
        fprintf(stderr, "tkc: out of memory (%zu bytes)\n", n);
        abort();
    }
    return p;
}

typedef struct Chunk { struct Chunk *next; size_t used, size; } Chunk;
struct Arena { Chunk *head; };

#define CHUNK_MIN (1u << 20)
#define ALIGN 16u

Arena *arena_new(void) { return tk_alloc(sizeof(Arena)); }

void arena_free(Arena *a)
{
    if (!a)
        return;
    for (Chunk *c = a->head, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    free(a);
}

static size_t chunk_header(void) { return (sizeof(Chunk) + ALIGN - 1) & ~(size_t)(ALIGN - 1); }

void *arena_alloc(Arena *a, size_t n)
{
    n = (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
    Chunk *c = a->head;
    if (!c || c->size - c->used < n) {
        size_t size = n > CHUNK_MIN ? n : CHUNK_MIN;
        c = tk_alloc(chunk_header() + size);
        c->size = size;
        c->next = a->head;
        a->head = c;
    }
    void *p = (char *)c + chunk_header() + c->used;
    c->used += n;
    memset(p, 0, n);
    return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n)
{
    char *p = arena_alloc(a, n + 1);
    memcpy(p, s, n);
    return p;
}

char *arena_strdup(Arena *a, const char *s) { return arena_strndup(a, s, strlen(s)); }

char *arena_vprintf(Arena *a, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        n = 0;
    char *p = arena_alloc(a, (size_t)n + 1);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    return p;
}

char *arena_printf(Arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *p = arena_vprintf(a, fmt, ap);
    va_end(ap);
    return p;
}

char *arena_cquote(Arena *a, const char *s)
{
    size_t n = strlen(s);
    char *r = arena_alloc(a, 4 * n + 3), *q = r;
    *q++ = '"';
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            *q++ = '\\', *q++ = (char)c;
        else if (c < 0x20 || c == 0x7f)
            q += sprintf(q, "\\%03o", c);
        else
            *q++ = (char)c;
    }
    *q++ = '"';
    *q = 0;
    return r;
}

void vec_grow_(Arena *a, void **v, int *cap, size_t elem)
{
    int ncap = *cap ? *cap * 2 : 8;
    void *nv = arena_alloc(a, (size_t)ncap * elem);
    if (*v)
        memcpy(nv, *v, (size_t)*cap * elem);
    *v = nv;
    *cap = ncap;
}

static void buf_reserve(Buf *b, size_t extra)
{
    if (b->n + extra + 1 <= b->cap)
        return;
    size_t ncap = b->cap ? b->cap * 2 : 256;
    while (ncap < b->n + extra + 1)
        ncap *= 2;
    char *s = arena_alloc(b->a, ncap);
    if (b->s)
        memcpy(s, b->s, b->n);
    b->s = s;
    b->cap = ncap;
}

void buf_vprintf(Buf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        n = 0;
    buf_reserve(b, (size_t)n);
    vsnprintf(b->s + b->n, (size_t)n + 1, fmt, ap);
    b->n += (size_t)n;
}

void buf_printf(Buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(b, fmt, ap);
    va_end(ap);
}

void buf_puts(Buf *b, const char *s)
{
    size_t n = strlen(s);
    buf_reserve(b, n);
    memcpy(b->s + b->n, s, n + 1);
    b->n += n;
}

void buf_putc(Buf *b, char c)
{
    buf_reserve(b, 1);
    b->s[b->n++] = c;
    b->s[b->n] = 0;
}

void buf_vlinef(Buf *b, int indent, const char *fmt, va_list ap)
{
    buf_printf(b, "%*s", 4 * indent, "");
    buf_vprintf(b, fmt, ap);
    buf_putc(b, '\n');
}

void buf_linef(Buf *b, int indent, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    buf_vlinef(b, indent, fmt, ap);
    va_end(ap);
}
