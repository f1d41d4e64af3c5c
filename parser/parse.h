/*
 * parser/parse.h — the front end's interface: source text to AST.
 * The lexer is re2c (parser/lexer.re), the grammar GNU Bison (parser/parser.y,
 * a pure parser with locations); both generate into build/.
 */
#ifndef TKC_PARSE_H
#define TKC_PARSE_H

#include "../lang/lang.h"

/* Parse one file.  Syntax errors are reported to d (the parser recovers at
 * statement and item boundaries to report several); returns the AST of what
 * parsed (never NULL unless out of memory). Callers check d->nerrors. */
Ast *tk_parse(Src *src, Diag *d);

/* --emit=tokens: one token a line, "line:col KIND text". */
void tk_dump_tokens(Src *src, Diag *d, FILE *out);

#endif
