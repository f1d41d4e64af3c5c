/*
 * parser/lexer.re — the tk lexer, a re2c DFA over the NUL-terminated source.
 *
 * The text ends in a NUL sentinel, so no rule may match past a NUL: every
 * "any character" class below excludes \x00, and the NUL rule tells the end
 * of the text from a stray NUL inside it.  Keywords are rules of their own
 * (longest match lets `letter` stay an identifier); the eleven dtype names
 * all yield one DTYPE token carrying its DType.  Block comments are skipped
 * by a plain loop, which can see where the text ends.
 *
 * Lexical errors are reported here and the lexer carries on with a
 * harmless token, marking it and the next one so the parser does not report
 * a second error for the same mistake.  The lexer also bounds nesting: more
 * than TK_MAX_NEST open brackets, or a statement that piles more than
 * TK_MAX_CHAIN tokens onto one bracket level, abandons the parse (the
 * parser's stack and every later recursive pass over the AST stay small).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "parser/parse.h"
#include "parser.tab.h"

void tk_lex_init(PState *ps, Src *src, Diag *d, Arena *a)
{
    memset(ps, 0, sizeof *ps);
    ps->src = src;
    ps->d = d;
    ps->a = a;
    ps->base = (const unsigned char *)src->text;
    ps->cur = ps->base;
    ps->lim = ps->base + src->len;
    ps->quiet_lo = ps->quiet_hi = -1;
}

static void lex_error(PState *ps, int lo, int hi, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void lex_error(PState *ps, int lo, int hi, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(ps->d, "error", (Span){ps->src, lo, hi}, fmt, ap);
    va_end(ap);
    ps->lexerr = true;
}

static int off(PState *ps, const unsigned char *p) { return (int)(p - ps->base); }

/* Give up on the rest of the input: report once, then only END. */
static int abandon(PState *ps, const char *msg, int limit)
{
    lex_error(ps, off(ps, ps->tok), off(ps, ps->cur), msg, limit);
    ps->fatal = true;
    ps->cur = ps->lim;
    return TK_END;
}

static int level_base(PState *ps) { return ps->depth ? ps->saved[ps->depth - 1] + 1 : 0; }

/* Bound the nesting.  `chain` counts the tokens since the last ';' or ','
 * at this bracket level, plus the count of the enclosing level where its
 * bracket opened; any AST node is at most that deep. */
static int bounded_token(PState *ps, int t)
{
    switch (t) {
    case '(': case '[': case '{':
        if (ps->depth == TK_MAX_NEST)
            return abandon(ps, "brackets nested too deeply (more than %d levels)", TK_MAX_NEST);
        ps->saved[ps->depth++] = ps->chain;
        ps->chain = level_base(ps);
        return t;
    case ')': case ']':
        if (ps->depth > 0)
            ps->chain = ps->saved[--ps->depth] + 1;
        return t;
    case '}':
        if (ps->depth > 0)
            ps->depth--;
        ps->chain = level_base(ps);
        return t;
    case ';': case ',':
        ps->chain = level_base(ps);
        return t;
    }
    if (++ps->chain > TK_MAX_CHAIN)
        return abandon(ps, "statement too long or too deeply nested (more than %d tokens)", TK_MAX_CHAIN);
    return t;
}

/* Decimal or hex digits to an int64; an overflow is an error. */
static int64_t int_value(PState *ps, const unsigned char *s, const unsigned char *e, int radix)
{
    uint64_t v = 0;
    for (const unsigned char *p = s; p < e; p++) {
        int d = *p <= '9' ? *p - '0' : (*p | 0x20) - 'a' + 10;
        if (v > ((uint64_t)INT64_MAX - (uint64_t)d) / (uint64_t)radix) {
            lex_error(ps, off(ps, ps->tok), off(ps, ps->cur),
                      "integer literal '%.*s' is too large for i64",
                      (int)(ps->cur - ps->tok), (const char *)ps->tok);
            return 0;
        }
        v = v * (uint64_t)radix + (uint64_t)d;
    }
    return (int64_t)v;
}

static double float_value(PState *ps)
{
    char buf[128];
    size_t n = (size_t)(ps->cur - ps->tok);
    if (n >= sizeof buf) {
        lex_error(ps, off(ps, ps->tok), off(ps, ps->cur), "floating literal is too long");
        return 0;
    }
    memcpy(buf, ps->tok, n);
    buf[n] = 0;
    errno = 0;
    double v = strtod(buf, NULL);
    if (errno == ERANGE && (v > 1 || v < -1)) {
        lex_error(ps, off(ps, ps->tok), off(ps, ps->cur),
                  "floating literal '%s' is out of range", buf);
        v = 0;
    }
    return v;
}

/* The body of a "..." literal with \" \\ \n \t replaced. */
static char *unescape(PState *ps, const unsigned char *s, const unsigned char *e)
{
    char *out = arena_alloc(ps->a, (size_t)(e - s) + 1), *o = out;
    for (const unsigned char *p = s; p < e; p++) {
        if (*p != '\\' || p + 1 >= e) {
            *o++ = (char)*p;
            continue;
        }
        p++;
        switch (*p) {
        case 'n': *o++ = '\n'; break;
        case 't': *o++ = '\t'; break;
        case '"': case '\\': *o++ = (char)*p; break;
        default:
            lex_error(ps, off(ps, p - 1), off(ps, p + 1),
                      "unknown escape sequence '\\%c' in string", *p);
            *o++ = (char)*p;
        }
    }
    return out;
}

/* Skip a block comment whose opening was just read. */
static void block_comment(PState *ps)
{
    for (;;) {
        if (ps->cur >= ps->lim) {
            lex_error(ps, off(ps, ps->tok), off(ps, ps->tok) + 2, "unterminated block comment");
            return;
        }
        if (ps->cur[0] == '*' && ps->cur[1] == '/') {
            ps->cur += 2;
            return;
        }
        ps->cur++;
    }
}

/* A character no token begins with; a UTF-8 sequence counts as one. */
static void bad_char(PState *ps)
{
    unsigned char c = *ps->tok;
    if (c >= 0xC0)
        while (ps->cur < ps->lim && (*ps->cur & 0xC0) == 0x80)
            ps->cur++;
    int lo = off(ps, ps->tok), hi = off(ps, ps->cur);
    if (c >= 0x20 && c < 0x7F)
        lex_error(ps, lo, hi, "unexpected character '%c'", c);
    else if (c >= 0xC0 && hi - lo > 1)
        lex_error(ps, lo, hi, "unexpected character '%.*s'", hi - lo, (const char *)ps->tok);
    else
        lex_error(ps, lo, hi, "unexpected character '\\x%02x'", c);
}

static int dtype(YYSTYPE *lval, DType dt)
{
    lval->dt = dt;
    return TK_DTYPE;
}

/* token := the longest match of the rules below, skipping blanks and comments */
static int scan(YYSTYPE *lval, PState *ps)
{
    const unsigned char *mark;
    (void)mark;
    for (;;) {
        ps->tok = ps->cur;
        /*!re2c
        re2c:define:YYCTYPE = "unsigned char";
        re2c:define:YYCURSOR = "ps->cur";
        re2c:define:YYMARKER = "mark";
        re2c:yyfill:enable = 0;

        dec = [0-9]+;
        hex = "0" [xX] [0-9a-fA-F]+;
        exp = [eE] [+-]? [0-9]+;
        flt = [0-9]+ "." [0-9]* exp? | "." [0-9]+ exp? | [0-9]+ exp;
        badnum = ([0-9]+ ("." [0-9]*)? | "." [0-9]+) ([eE] [+-]?)? [A-Za-z0-9_]*;
        schar = [^"\\\n\x00] | "\\" [^\n\x00];

        "\x00" {
            if (ps->tok >= ps->lim) {
                ps->cur = ps->lim;
                return TK_END;
            }
            bad_char(ps);
            continue;
        }
        [ \t\r\n\f\v]+        { continue; }
        "//" [^\n\x00]*       { continue; }
        "/*"                  { block_comment(ps); continue; }

        "kernel"        { return TK_KERNEL; }
        "fn"            { return TK_FN; }
        "let"           { return TK_LET; }
        "var"           { return TK_VAR; }
        "for"           { return TK_FOR; }
        "in"            { return TK_IN; }
        "range"         { return TK_RANGE; }
        "static_for"    { return TK_STATIC_FOR; }
        "if"            { return TK_IF; }
        "else"          { return TK_ELSE; }
        "while"         { return TK_WHILE; }
        "return"        { return TK_RETURN; }
        "import"        { return TK_IMPORT; }
        "grid"          { return TK_GRID; }
        "require"       { return TK_REQUIRE; }
        "unchecked"     { return TK_UNCHECKED; }
        "as"            { return TK_AS; }
        "true"          { return TK_TRUE; }
        "false"         { return TK_FALSE; }
        "None"          { return TK_NONE; }
        "int"           { return TK_INTKW; }
        "strided"       { return TK_STRIDED; }
        "static_assert" { return TK_STATIC_ASSERT; }
        "print"         { return TK_PRINT; }
        "break"         { return TK_BREAK; }
        "continue"      { return TK_CONTINUE; }

        "bool"  { return dtype(lval, DT_BOOL); }
        "i8"    { return dtype(lval, DT_I8); }
        "i16"   { return dtype(lval, DT_I16); }
        "i32"   { return dtype(lval, DT_I32); }
        "i64"   { return dtype(lval, DT_I64); }
        "u8"    { return dtype(lval, DT_U8); }
        "u32"   { return dtype(lval, DT_U32); }
        "f16"   { return dtype(lval, DT_F16); }
        "bf16"  { return dtype(lval, DT_BF16); }
        "f32"   { return dtype(lval, DT_F32); }
        "f64"   { return dtype(lval, DT_F64); }

        [A-Za-z_][A-Za-z0-9_]* {
            lval->str = arena_strndup(ps->a, (const char *)ps->tok, (size_t)(ps->cur - ps->tok));
            return TK_IDENT;
        }
        dec {
            lval->ival = int_value(ps, ps->tok, ps->cur, 10);
            return TK_INT;
        }
        hex {
            lval->ival = int_value(ps, ps->tok + 2, ps->cur, 16);
            return TK_INT;
        }
        flt {
            lval->fval = float_value(ps);
            return TK_FLOAT;
        }
        badnum {
            lex_error(ps, off(ps, ps->tok), off(ps, ps->cur), "malformed number '%.*s'",
                      (int)(ps->cur - ps->tok), (const char *)ps->tok);
            lval->ival = 0;
            return TK_INT;
        }
        "\"" schar* "\"" {
            lval->str = unescape(ps, ps->tok + 1, ps->cur - 1);
            return TK_STRING;
        }
        "\"" schar* {
            lex_error(ps, off(ps, ps->tok), off(ps, ps->tok) + 1, "unterminated string");
            lval->str = unescape(ps, ps->tok + 1, ps->cur);
            return TK_STRING;
        }

        "->"  { return TK_ARROW; }
        "+="  { return TK_PLUSEQ; }
        "-="  { return TK_MINUSEQ; }
        "*="  { return TK_STAREQ; }
        "/="  { return TK_SLASHEQ; }
        "=="  { return TK_EQ; }
        "!="  { return TK_NE; }
        "<="  { return TK_LE; }
        ">="  { return TK_GE; }
        "&&"  { return TK_ANDAND; }
        "||"  { return TK_OROR; }
        "<<"  { return TK_SHL; }
        ">>"  { return TK_SHR; }
        [()[\]{}<>,;:.=+\-*/%!&|^~@] { return *ps->tok; }

        * { bad_char(ps); continue; }
        */
    }
}

/* yylex: the next token, its location, and the nesting bounds. */
int yylex(YYSTYPE *lval, TkLoc *loc, PState *ps)
{
    if (ps->fatal) {
        loc->lo = loc->hi = off(ps, ps->lim);
        return TK_END;
    }
    int t = scan(lval, ps);
    loc->lo = off(ps, ps->tok);
    loc->hi = off(ps, ps->cur);
    if (ps->lexerr) {               /* quiet this token and the next */
        ps->quiet_lo = ps->quiet_hi = loc->lo;
        ps->quiet_next = true;
        ps->lexerr = false;
    } else if (ps->quiet_next) {
        ps->quiet_hi = loc->lo;
        ps->quiet_next = false;
    }
    return t == TK_END ? t : bounded_token(ps, t);
}
