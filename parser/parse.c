/*
 * parser/parse.c — the front end's entry points.  tk_parse runs the Bison
 * parser (parser/parser.y) over one file and wraps what it built in an Ast;
 * tk_dump_tokens runs the lexer (parser/lexer.re) alone for --emit=tokens.
 */
#include <string.h>

#include "parser/parse.h"
#include "parser.tab.h"

Ast *tk_parse(Src *src, Diag *d)
{
    PState *ps = arena_alloc(src->arena, sizeof *ps);
    tk_lex_init(ps, src, d, src->arena);
    yyparse(ps);
    Ast *ast = arena_alloc(src->arena, sizeof *ast);
    ast->src = src;
    ast->items = ps->items.v;
    ast->nitems = ps->items.n;
    return ast;
}

/* Line and column of byte offset `to`, walking on from the last answer
 * (tokens come in order, so the whole dump is linear). */
typedef struct LineCol { int off, line, col; } LineCol;

static void advance(LineCol *lc, const char *text, int to)
{
    for (; lc->off < to; lc->off++) {
        if (text[lc->off] == '\n')
            lc->line++, lc->col = 1;
        else
            lc->col++;
    }
}

/* Tokens that print a kind and their text; the rest print their text only. */
static const char *kind_name(int t)
{
    switch (t) {
    case TK_IDENT:  return "IDENT";
    case TK_INT:    return "INT";
    case TK_FLOAT:  return "FLOAT";
    case TK_STRING: return "STRING";
    case TK_DTYPE:  return "DTYPE";
    default:        return NULL;
    }
}

/* One token a line: "3:5 IDENT 'row'", "3:9 '='", ..., "7:1 EOF". */
void tk_dump_tokens(Src *src, Diag *d, FILE *out)
{
    PState *ps = arena_alloc(src->arena, sizeof *ps);
    tk_lex_init(ps, src, d, src->arena);
    LineCol lc = {0, 1, 1};
    for (;;) {
        YYSTYPE val;
        TkLoc loc;
        int t = yylex(&val, &loc, ps);
        advance(&lc, src->text, loc.lo);
        if (t == TK_END) {
            fprintf(out, "%d:%d EOF\n", lc.line, lc.col);
            return;
        }
        const char *kind = kind_name(t);
        fprintf(out, "%d:%d ", lc.line, lc.col);
        if (kind)
            fprintf(out, "%s ", kind);
        fprintf(out, "'%.*s'\n", loc.hi - loc.lo, src->text + loc.lo);
    }
}
