/*
 * lang/sym.c — symbolic integers for tile shapes.
 *
 * A Sym is a polynomial with int64 coefficients over atoms: c + sum(k_i * m_i)
 * where each monomial m_i is a sorted multiset of atoms and an atom is a
 * const parameter or an operation (/, %, cdiv, min, max) that does not
 * distribute.  Polynomials are kept canonical (terms sorted, like terms
 * combined, zero terms dropped) and interned, so two shapes are equal
 * exactly when their Sym pointers are.  Constant operands fold; exact
 * division of a polynomial by a constant folds too ((2*BM)/2 is BM).
 * Arithmetic wraps (unsigned) so no input can trigger undefined behaviour.
 */
#include <string.h>

#include "lang.h"

typedef enum {
    AT_PARAM, AT_DIV, AT_MOD, AT_CDIV, AT_MIN, AT_MAX,
    AT_LT, AT_LE, AT_EQ, AT_NE, AT_LAND, AT_LOR, AT_AND, AT_OR, AT_XOR, AT_SHL, AT_SHR,
} AtomKind;

typedef struct Atom {
    AtomKind kind;
    int id;                 /* creation order: the canonical order */
    int param;              /* AT_PARAM */
    const char *name;       /* AT_PARAM */
    const Sym *a, *b;       /* operations */
} Atom;

typedef struct Term {
    int64_t k;
    const Atom **atoms;     /* sorted by id, repeats allowed */
    int n;
} Term;

struct Sym {
    int64_t c;
    Term *terms;
    int nterms;
};

struct SymTab {
    Arena *arena;
    Vec(Atom *) atoms;
    Vec(Sym *) syms;
    Sym **tab;              /* syms hashed, open addressing; tabcap slots, a power of 2 */
    int tabcap;
};

SymTab *sym_tab_new(Arena *a)
{
    SymTab *t = arena_alloc(a, sizeof *t);
    t->arena = a;
    return t;
}

static int64_t wadd(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static int64_t wmul(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }

static int mono_cmp(const Term *x, const Term *y)
{
    for (int i = 0; i < x->n && i < y->n; i++)
        if (x->atoms[i]->id != y->atoms[i]->id)
            return x->atoms[i]->id < y->atoms[i]->id ? -1 : 1;
    return x->n - y->n;
}

static bool sym_same(const Sym *x, const Sym *y)
{
    if (x->c != y->c || x->nterms != y->nterms)
        return false;
    for (int i = 0; i < x->nterms; i++)
        if (x->terms[i].k != y->terms[i].k || mono_cmp(&x->terms[i], &y->terms[i]))
            return false;
    return true;
}

/* Where a canonical sym is or goes in t's hash table (a source of 10^5
 * distinct constants interns in linear time). */
static Sym **sym_slot(SymTab *t, const Sym *key)
{
    uint64_t h = (uint64_t)key->c * 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < key->nterms; i++) {
        h = (h ^ (uint64_t)key->terms[i].k) * 0x100000001B3ull;
        for (int j = 0; j < key->terms[i].n; j++)
            h = (h ^ (uint64_t)key->terms[i].atoms[j]->id) * 0x100000001B3ull;
    }
    unsigned m = (unsigned)t->tabcap - 1;
    for (unsigned i = (unsigned)(h ^ h >> 32) & m;; i = (i + 1) & m)
        if (!t->tab[i] || sym_same(t->tab[i], key))
            return &t->tab[i];
}

/* Canonicalize terms (sort, combine, drop zeros) and intern. */
static Sym *intern(SymTab *t, int64_t c, Term *terms, int n)
{
    for (int i = 1; i < n; i++)            /* insertion sort: n is small */
        for (int j = i; j > 0 && mono_cmp(&terms[j - 1], &terms[j]) > 0; j--) {
            Term tmp = terms[j];
            terms[j] = terms[j - 1];
            terms[j - 1] = tmp;
        }
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (m > 0 && mono_cmp(&terms[m - 1], &terms[i]) == 0)
            terms[m - 1].k = wadd(terms[m - 1].k, terms[i].k);
        else
            terms[m++] = terms[i];
        if (terms[m - 1].k == 0)
            m--;
    }
    Sym key = {c, terms, m};
    Sym **slot = t->tabcap ? sym_slot(t, &key) : NULL;
    if (slot && *slot)
        return *slot;
    Sym *s = arena_alloc(t->arena, sizeof *s);
    *s = key;
    s->terms = arena_alloc(t->arena, sizeof(Term) * (size_t)(m ? m : 1));
    if (m)
        memcpy(s->terms, terms, sizeof(Term) * (size_t)m);
    vec_push(t->arena, t->syms, s);
    if (slot && 2 * t->syms.n <= t->tabcap) {
        *slot = s;
        return s;
    }
    t->tabcap = t->tabcap ? 2 * t->tabcap : 64;
    t->tab = arena_alloc(t->arena, sizeof *t->tab * (size_t)t->tabcap);
    for (int i = 0; i < t->syms.n; i++)
        *sym_slot(t, t->syms.v[i]) = t->syms.v[i];
    return s;
}

Sym *sym_int(SymTab *t, int64_t v) { return intern(t, v, NULL, 0); }

static Sym *from_atom(SymTab *t, const Atom *at)
{
    const Atom **as = arena_alloc(t->arena, sizeof *as);
    as[0] = at;
    Term term = {1, as, 1};
    return intern(t, 0, &term, 1);
}

static Atom *find_atom(SymTab *t, Atom key)
{
    for (int i = 0; i < t->atoms.n; i++) {
        Atom *at = t->atoms.v[i];
        if (at->kind == key.kind && at->param == key.param && at->a == key.a && at->b == key.b)
            return at;
    }
    Atom *at = arena_alloc(t->arena, sizeof *at);
    *at = key;
    at->id = t->atoms.n;
    vec_push(t->arena, t->atoms, at);
    return at;
}

Sym *sym_param(SymTab *t, int index, const char *name)
{
    return from_atom(t, find_atom(t, (Atom){.kind = AT_PARAM, .param = index, .name = name}));
}

bool sym_is_int(const Sym *s, int64_t *v)
{
    if (s->nterms)
        return false;
    if (v)
        *v = s->c;
    return true;
}

Sym *sym_add(SymTab *t, Sym *a, Sym *b)
{
    int n = a->nterms + b->nterms;
    Term *terms = arena_alloc(t->arena, sizeof(Term) * (size_t)(n ? n : 1));
    if (a->nterms)
        memcpy(terms, a->terms, sizeof(Term) * (size_t)a->nterms);
    if (b->nterms)
        memcpy(terms + a->nterms, b->terms, sizeof(Term) * (size_t)b->nterms);
    return intern(t, wadd(a->c, b->c), terms, n);
}

static Sym *scale(SymTab *t, Sym *a, int64_t k)
{
    Term *terms = arena_alloc(t->arena, sizeof(Term) * (size_t)(a->nterms ? a->nterms : 1));
    for (int i = 0; i < a->nterms; i++) {
        terms[i] = a->terms[i];
        terms[i].k = wmul(terms[i].k, k);
    }
    return intern(t, wmul(a->c, k), terms, a->nterms);
}

Sym *sym_sub(SymTab *t, Sym *a, Sym *b) { return sym_add(t, a, scale(t, b, -1)); }

static Term mono_mul(SymTab *t, const Term *x, const Term *y)
{
    Term r = {wmul(x->k, y->k), arena_alloc(t->arena, sizeof(Atom *) * (size_t)(x->n + y->n + 1)), 0};
    int i = 0, j = 0;
    while (i < x->n || j < y->n) {
        if (j >= y->n || (i < x->n && x->atoms[i]->id <= y->atoms[j]->id))
            r.atoms[r.n++] = x->atoms[i++];
        else
            r.atoms[r.n++] = y->atoms[j++];
    }
    return r;
}

Sym *sym_mul(SymTab *t, Sym *a, Sym *b)
{
    /* (ca + A)(cb + B) = ca*cb + ca*B + cb*A + A*B */
    int n = a->nterms + b->nterms + a->nterms * b->nterms;
    Term *terms = arena_alloc(t->arena, sizeof(Term) * (size_t)(n ? n : 1));
    int m = 0;
    for (int i = 0; i < a->nterms; i++) {
        terms[m] = a->terms[i];
        terms[m++].k = wmul(a->terms[i].k, b->c);
    }
    for (int j = 0; j < b->nterms; j++) {
        terms[m] = b->terms[j];
        terms[m++].k = wmul(b->terms[j].k, a->c);
    }
    for (int i = 0; i < a->nterms; i++)
        for (int j = 0; j < b->nterms; j++)
            terms[m++] = mono_mul(t, &a->terms[i], &b->terms[j]);
    return intern(t, wmul(a->c, b->c), terms, m);
}

static bool divisible(const Sym *a, int64_t k)
{
    if (k == 0 || k == -1 || a->c % k)   /* -1: INT64_MIN % -1 traps */
        return false;
    for (int i = 0; i < a->nterms; i++)
        if (a->terms[i].k % k)
            return false;
    return true;
}

static bool fold(AtomKind op, int64_t x, int64_t y, int64_t *r)
{
    if ((op == AT_DIV || op == AT_MOD || op == AT_CDIV) && (y == 0 || (x == INT64_MIN && y == -1)))
        return false;
    switch (op) {
    case AT_DIV: *r = x / y; return true;
    case AT_MOD: *r = x % y; return true;
    case AT_CDIV: *r = x / y + (x % y != 0 && ((x < 0) == (y < 0))); return true;
    case AT_MIN: *r = x < y ? x : y; return true;
    case AT_MAX: *r = x > y ? x : y; return true;
    case AT_LT: *r = x < y; return true;
    case AT_LE: *r = x <= y; return true;
    case AT_EQ: *r = x == y; return true;
    case AT_NE: *r = x != y; return true;
    case AT_LAND: *r = x && y; return true;
    case AT_LOR: *r = x || y; return true;
    case AT_AND: *r = x & y; return true;
    case AT_OR: *r = x | y; return true;
    case AT_XOR: *r = x ^ y; return true;
    case AT_SHL: *r = y < 0 || y > 62 ? 0 : (int64_t)((uint64_t)x << y); return true;
    case AT_SHR: *r = y < 0 || y > 63 ? 0 : x >> y; return true;
    default: return false;
    }
}

static Sym *binop(SymTab *t, AtomKind op, Sym *a, Sym *b)
{
    int64_t x, y, r;
    bool ca = sym_is_int(a, &x), cb = sym_is_int(b, &y);
    if (ca && cb && fold(op, x, y, &r))
        return sym_int(t, r);
    if ((op == AT_MIN || op == AT_MAX) && a == b)
        return a;
    if (cb && y == 1 && (op == AT_DIV || op == AT_CDIV))
        return a;
    if (cb && y == 1 && op == AT_MOD)
        return sym_int(t, 0);
    if (cb && (op == AT_DIV || op == AT_CDIV) && divisible(a, y) && y != -1) {
        Term *terms = arena_alloc(t->arena, sizeof(Term) * (size_t)(a->nterms ? a->nterms : 1));
        for (int i = 0; i < a->nterms; i++) {
            terms[i] = a->terms[i];
            terms[i].k /= y;
        }
        return intern(t, a->c / y, terms, a->nterms);
    }
    if (cb && op == AT_MOD && divisible(a, y))
        return sym_int(t, 0);
    if ((op == AT_MIN || op == AT_MAX) && (uintptr_t)a > (uintptr_t)b) {
        Sym *tmp = a;   /* commutative: a stable order by address is enough within one table */
        a = b;
        b = tmp;
    }
    return from_atom(t, find_atom(t, (Atom){.kind = op, .param = -1, .a = a, .b = b}));
}

Sym *sym_div(SymTab *t, Sym *a, Sym *b) { return binop(t, AT_DIV, a, b); }

Sym *sym_binop(SymTab *t, int op, Sym *a, Sym *b)
{
    switch (op) {
    case B_ADD: return sym_add(t, a, b);
    case B_SUB: return sym_sub(t, a, b);
    case B_MUL: return sym_mul(t, a, b);
    case B_DIV: return binop(t, AT_DIV, a, b);
    case B_MOD: return binop(t, AT_MOD, a, b);
    case B_GT: return binop(t, AT_LT, b, a);
    case B_GE: return binop(t, AT_LE, b, a);
    case B_LT: case B_LE: case B_EQ: case B_NE:
        if (a == b)   /* equal polynomials: decided for every value */
            return sym_int(t, op == B_LE || op == B_EQ);
        return binop(t, op == B_LT ? AT_LT : op == B_LE ? AT_LE : op == B_EQ ? AT_EQ : AT_NE, a, b);
    case B_LAND: return binop(t, AT_LAND, a, b);
    case B_LOR: return binop(t, AT_LOR, a, b);
    case B_AND: return binop(t, AT_AND, a, b);
    case B_OR: return binop(t, AT_OR, a, b);
    case B_XOR: return binop(t, AT_XOR, a, b);
    case B_SHL: return binop(t, AT_SHL, a, b);
    case B_SHR: return binop(t, AT_SHR, a, b);
    default: return NULL;
    }
}
Sym *sym_mod(SymTab *t, Sym *a, Sym *b) { return binop(t, AT_MOD, a, b); }
Sym *sym_cdiv(SymTab *t, Sym *a, Sym *b) { return binop(t, AT_CDIV, a, b); }
Sym *sym_min(SymTab *t, Sym *a, Sym *b) { return binop(t, AT_MIN, a, b); }
Sym *sym_max(SymTab *t, Sym *a, Sym *b) { return binop(t, AT_MAX, a, b); }

static bool eval_atom(const Atom *at, const int64_t *params, int nparams, int64_t *out)
{
    if (at->kind == AT_PARAM) {
        if (at->param < 0 || at->param >= nparams)
            return false;
        *out = params[at->param];
        return true;
    }
    int64_t x, y;
    return sym_eval(at->a, params, nparams, &x) && sym_eval(at->b, params, nparams, &y) &&
           fold(at->kind, x, y, out);
}

bool sym_eval(const Sym *s, const int64_t *params, int nparams, int64_t *out)
{
    int64_t acc = s->c;
    for (int i = 0; i < s->nterms; i++) {
        int64_t m = s->terms[i].k;
        for (int j = 0; j < s->terms[i].n; j++) {
            int64_t v;
            if (!eval_atom(s->terms[i].atoms[j], params, nparams, &v) || __builtin_mul_overflow(m, v, &m))
                return false;
        }
        if (__builtin_add_overflow(acc, m, &acc))
            return false;
    }
    *out = acc;
    return true;
}

static void print_sym(Buf *b, const Sym *s, bool paren);

static void print_atom(Buf *b, const Atom *at)
{
    static const char *const fn[] = {"", "/", "%", "cdiv", "min", "max", "<", "<=", "==", "!=",
                                     "&&", "||", "&", "|", "^", "<<", ">>"};
    switch (at->kind) {
    case AT_PARAM:
        buf_puts(b, at->name);
        return;
    case AT_CDIV: case AT_MIN: case AT_MAX:
        break;
    default:
        print_sym(b, at->a, true);
        buf_printf(b, " %s ", fn[at->kind]);
        print_sym(b, at->b, true);
        return;
    }
    {
        buf_printf(b, "%s(", fn[at->kind]);
        print_sym(b, at->a, false);
        buf_puts(b, ", ");
        print_sym(b, at->b, false);
        buf_putc(b, ')');
    }
}

static void print_sym(Buf *b, const Sym *s, bool paren)
{
    bool complex = s->nterms > 1 || (s->nterms == 1 && (s->c != 0 || s->terms[0].k != 1 ||
                                                         s->terms[0].n > 1));
    if (paren && complex)
        buf_putc(b, '(');
    for (int i = 0; i < s->nterms; i++) {
        const Term *tm = &s->terms[i];
        int64_t k = tm->k;
        if (i > 0) {
            buf_puts(b, k < 0 ? " - " : " + ");
            k = k < 0 ? -k : k;
        } else if (k == -1) {
            buf_putc(b, '-');
        }
        if (k != 1 && k != -1)
            buf_printf(b, "%lld * ", (long long)k);
        for (int j = 0; j < tm->n; j++) {
            if (j)
                buf_puts(b, " * ");
            AtomKind ak = tm->atoms[j]->kind;
            bool op = ak != AT_PARAM && ak != AT_CDIV && ak != AT_MIN && ak != AT_MAX;
            if (op && (tm->n > 1 || k != 1))
                buf_putc(b, '(');
            print_atom(b, tm->atoms[j]);
            if (op && (tm->n > 1 || k != 1))
                buf_putc(b, ')');
        }
    }
    if (s->nterms == 0)
        buf_printf(b, "%lld", (long long)s->c);
    else if (s->c)
        buf_printf(b, " %s %lld", s->c < 0 ? "-" : "+", (long long)(s->c < 0 ? -(uint64_t)s->c : (uint64_t)s->c));
    if (paren && complex)
        buf_putc(b, ')');
}

char *sym_str(Arena *a, const Sym *s)
{
    Buf b = {.a = a};
    print_sym(&b, s, false);
    return b.s;
}
