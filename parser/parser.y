/*
 * parser/parser.y — the grammar of tk, as a pure Bison LALR(1) parser.
 *
 * The parser builds the AST of lang/lang.h directly in its actions; every
 * node is allocated from the compilation's arena, lists grow as Vec()s and
 * are copied into the node's (pointer, count) pair when a rule completes.
 * Locations are byte ranges {lo, hi} (TkLoc); YYLLOC_DEFAULT joins the
 * first and last symbol of a rule, and sp() turns one into a Span.
 *
 * Expressions use precedence declarations for the binary operators and
 * separate nonterminals for the tighter levels: unary prefix (- ! ~), then
 * the postfix cast `x as f16` (tighter than unary minus, as in Rust), then
 * `unchecked` applied to a postfix expression, then calls and indexing.
 * A kernel's const-parameter default is a unary expression, so the `>`
 * that closes `<BM: int = 128>` is never read as an operator.
 *
 * Error handling: syntax errors are reported by yyreport_syntax_error in
 * GCC style ("expected ';' after expression, found 'let'"), with LAC so
 * the expected set is exact.  Recovery happens at two levels: a statement
 * skips to ';' or over a braced block, and an item skips to the next
 * `kernel`, `fn`, `import` or `@`.  The lexer (parser/lexer.re) bounds the
 * nesting of brackets so the parser stack and the AST stay shallow.
 */

%code requires {
#include "lang/lang.h"

/* A location: byte offsets [lo, hi) into the source text. */
typedef struct TkLoc { int lo, hi; } TkLoc;

typedef Vec(Expr *) ExprVec;
typedef Vec(Stmt *) StmtVec;
typedef Vec(Arg) ArgVec;
typedef Vec(Param) ParamVec;
typedef Vec(Attr) AttrVec;

/* A kernel's clauses as they accumulate: grid(...) and require E. */
typedef struct Clauses {
    ExprVec grid, requires;
    TkLoc grid_loc;
    bool has_grid;
} Clauses;

/* An if / else-if chain, built left-recursively: head is the statement,
 * tail the innermost ST_IF (the one a further `else` attaches to). */
typedef struct IfChain { Stmt *head, *tail; int n; } IfChain;

#define TK_MAX_NEST  256      /* brackets and braces */
#define TK_MAX_CHAIN 4096     /* tokens at one bracket level of a statement */

/* The state shared by lexer and parser. */
typedef struct PState {
    Src *src;
    Diag *d;
    Arena *a;
    const unsigned char *base, *cur, *tok, *lim;   /* re2c cursor */
    int depth;                       /* open ( [ { */
    int chain;                       /* see lexer.re: bounded_token */
    int saved[TK_MAX_NEST + 1];
    int quiet_lo, quiet_hi;          /* no syntax error at tokens in here */
    bool quiet_next;                 /* extend quiet_hi to the next token */
    bool lexerr;                     /* a lexical error since the last token */
    bool fatal;                      /* input abandoned: stay quiet */
    Vec(Item *) items;
} PState;

#define YYLLOC_DEFAULT(Cur, Rhs, N)                 \
    do {                                            \
        if (N) {                                    \
            (Cur).lo = YYRHSLOC(Rhs, 1).lo;         \
            (Cur).hi = YYRHSLOC(Rhs, N).hi;         \
        } else {                                    \
            (Cur).lo = (Cur).hi = YYRHSLOC(Rhs, 0).hi; \
        }                                           \
    } while (0)
}

%code provides {
int yylex(YYSTYPE *lval, TkLoc *loc, PState *ps);
void tk_lex_init(PState *ps, Src *src, Diag *d, Arena *a);
}

%code {
#include <string.h>

static void yyerror(TkLoc *loc, PState *ps, const char *msg);
static Span sp(PState *ps, TkLoc l);
static Expr *mk_expr(PState *ps, ExprKind k, TkLoc l);
static Expr *mk_unary(PState *ps, UnOp op, Expr *x, TkLoc l);
static Expr *mk_binary(PState *ps, BinOp op, Expr *l, Expr *r, TkLoc loc);
static Expr *mk_call(PState *ps, Expr *fn, ArgVec args, TkLoc l);
static Expr *mk_index(PState *ps, Expr *base, ExprVec idx, TkLoc l);
static Expr *mk_list(PState *ps, ExprVec elts, TkLoc l);
static Stmt *mk_stmt(PState *ps, StmtKind k, TkLoc l);
static Stmt *mk_let(PState *ps, StmtKind k, char *name, TkLoc nl, TypeExpr *ty, Expr *init, TkLoc l);
static Stmt *mk_assign(PState *ps, Expr *target, int op, Expr *value, TkLoc l);
static Stmt *mk_for(PState *ps, StmtKind k, char *var, TkLoc vl, ExprVec r, Block *body, TkLoc l);
static Stmt *mk_if(PState *ps, Expr *cond, Block *then, TkLoc l);
static Stmt *finish_if(PState *ps, IfChain c, Block *else_, TkLoc l);
static Block *mk_block(PState *ps, StmtVec s, TkLoc l);
static Block *wrap_stmt(PState *ps, Stmt *s);
static TypeExpr *mk_type(PState *ps, TypeExprKind k, DType dt, TkLoc l);
static TypeExpr *mk_shaped(PState *ps, bool strided, DType dt, ExprVec dims, TkLoc l);
static Param mk_param(PState *ps, char *name, TkLoc nl, TypeExpr *ty, Expr *deflt);
static Attr mk_attr(PState *ps, char *name, ArgVec args, TkLoc l);
static Clauses add_grid(PState *ps, Clauses c, ExprVec g, TkLoc l);
static void add_item(PState *ps, ItemKind k, void *decl);
static void add_import(PState *ps, char *path, TkLoc l);
static ExprVec expr1(PState *ps, Expr *e);
static ExprVec exprs_add(PState *ps, ExprVec v, Expr *e);
}

%define api.pure full
%define api.location.type {TkLoc}
%define api.token.prefix {TK_}
%define parse.error custom
%define parse.lac full
%locations
%param {PState *ps}

%union {
    int64_t ival;
    double fval;
    DType dt;
    char *str;
    int op;
    Expr *expr;
    Stmt *stmt;
    Block *block;
    TypeExpr *ty;
    Arg arg;
    Param param;
    Attr attr;
    ExprVec exprs;
    StmtVec stmts;
    ArgVec args;
    ParamVec params;
    AttrVec attrs;
    Clauses clauses;
    IfChain chain;
    KernelDecl *kernel;
    FnDecl *fn;
}

%token END 0 "end of file"
%token <str> IDENT "identifier"
%token <ival> INT "integer"
%token <fval> FLOAT "number"
%token <str> STRING "string"
%token <dt> DTYPE "type name"
%token KERNEL "'kernel'" FN "'fn'" LET "'let'" VAR "'var'" FOR "'for'"
       IN "'in'" RANGE "'range'" STATIC_FOR "'static_for'" IF "'if'"
       ELSE "'else'" WHILE "'while'" RETURN "'return'" IMPORT "'import'"
       GRID "'grid'" REQUIRE "'require'" UNCHECKED "'unchecked'" AS "'as'"
       TRUE "'true'" FALSE "'false'" NONE "'None'" INTKW "'int'"
       STRIDED "'strided'" STATIC_ASSERT "'static_assert'" BREAK "'break'"
       CONTINUE "'continue'" PRINT "'print'"
%token ARROW "'->'" PLUSEQ "'+='" MINUSEQ "'-='" STAREQ "'*='"
       SLASHEQ "'/='" EQ "'=='" NE "'!='" LE "'<='" GE "'>='"
       ANDAND "'&&'" OROR "'||'" SHL "'<<'" SHR "'>>'"

%left OROR
%left ANDAND
%left '|'
%left '^'
%left '&'
%left EQ NE
%left '<' LE '>' GE
%left SHL SHR
%left '+' '-'
%left '*' '/' '%'

%type <expr> expr unary cast postfix primary idx
%type <exprs> expr_list idx_list dims
%type <arg> arg
%type <args> args arg_list
%type <attr> attr
%type <attrs> attrs
%type <param> constp param fparam
%type <params> constps constp_list params param_list fparams fparam_list
%type <ty> type type_ann ret
%type <clauses> clauses
%type <block> block
%type <stmts> stmts
%type <stmt> stmt if_stmt
%type <chain> if_chain
%type <exprs> range_args
%type <op> assign_op
%type <kernel> kernel
%type <fn> fn

%%

/* file := item* */
file
    : items
    ;

items
    : %empty
    | items item
    | items error
    ;

/* item := 'import' STRING ';' | kernel | fn */
item
    : IMPORT STRING ';'         { add_import(ps, $2, @2); }
    | kernel                    { add_item(ps, IT_KERNEL, $1); }
    | fn                        { add_item(ps, IT_FN, $1); }
    ;

/* kernel := attr* 'kernel' IDENT constps? '(' params? ')' clause* block */
kernel
    : attrs KERNEL IDENT constps '(' params ')' clauses block
        {
            KernelDecl *k = arena_alloc(ps->a, sizeof *k);
            k->name = $3;
            k->span = sp(ps, @3);
            k->attrs = $1.v, k->nattrs = $1.n;
            k->consts = $4.v, k->nconsts = $4.n;
            k->params = $6.v, k->nparams = $6.n;
            k->grid = $8.grid.v, k->ngrid = $8.grid.n;
            if ($8.has_grid)
                k->grid_span = sp(ps, $8.grid_loc);
            k->requires = $8.requires.v, k->nrequires = $8.requires.n;
            k->body = $9;
            $$ = k;
        }
    ;

attrs
    : %empty                    { $$ = (AttrVec){0}; }
    | attrs attr                { $$ = $1; vec_push(ps->a, $$, $2); }
    ;

/* attr := '@' IDENT ('(' args? ')')? */
attr
    : '@' IDENT                 { $$ = mk_attr(ps, $2, (ArgVec){0}, @$); }
    | '@' IDENT '(' args ')'    { $$ = mk_attr(ps, $2, $4, @$); }
    ;

/* constps := '<' constp (',' constp)* ','? '>' */
constps
    : %empty                        { $$ = (ParamVec){0}; }
    | '<' constp_list '>'           { $$ = $2; }
    | '<' constp_list ',' '>'       { $$ = $2; }
    ;

constp_list
    : constp                        { $$ = (ParamVec){0}; vec_push(ps->a, $$, $1); }
    | constp_list ',' constp        { $$ = $1; vec_push(ps->a, $$, $3); }
    ;

/* constp := IDENT ':' type ('=' unary)? */
constp
    : IDENT ':' type                { $$ = mk_param(ps, $1, @1, $3, NULL); }
    | IDENT ':' type '=' unary      { $$ = mk_param(ps, $1, @1, $3, $5); }
    ;

/* params := param (',' param)* ','? */
params
    : %empty                        { $$ = (ParamVec){0}; }
    | param_list
    | param_list ','
    ;

param_list
    : param                         { $$ = (ParamVec){0}; vec_push(ps->a, $$, $1); }
    | param_list ',' param          { $$ = $1; vec_push(ps->a, $$, $3); }
    ;

/* param := IDENT ':' type */
param
    : IDENT ':' type                { $$ = mk_param(ps, $1, @1, $3, NULL); }
    ;

/* clause := 'grid' '(' E (',' E)* ')' | 'require' E */
clauses
    : %empty                        { $$ = (Clauses){0}; }
    | clauses GRID '(' expr_list ')'
        { $$ = add_grid(ps, $1, $4, (TkLoc){@2.lo, @5.hi}); }
    | clauses REQUIRE expr          { $$ = $1; vec_push(ps->a, $$.requires, $3); }
    ;

/* fn := 'fn' IDENT '(' fparams? ')' ('->' type)? block */
fn
    : FN IDENT '(' fparams ')' ret block
        {
            FnDecl *f = arena_alloc(ps->a, sizeof *f);
            f->name = $2;
            f->span = sp(ps, @2);
            f->params = $4.v, f->nparams = $4.n;
            f->ret = $6;
            f->body = $7;
            $$ = f;
        }
    ;

fparams
    : %empty                        { $$ = (ParamVec){0}; }
    | fparam_list
    | fparam_list ','
    ;

fparam_list
    : fparam                        { $$ = (ParamVec){0}; vec_push(ps->a, $$, $1); }
    | fparam_list ',' fparam        { $$ = $1; vec_push(ps->a, $$, $3); }
    ;

/* fparam := IDENT (':' type)? */
fparam
    : IDENT                         { $$ = mk_param(ps, $1, @1, NULL, NULL); }
    | IDENT ':' type                { $$ = mk_param(ps, $1, @1, $3, NULL); }
    ;

ret
    : %empty                        { $$ = NULL; }
    | ARROW type                    { $$ = $2; }
    ;

/* type := 'int' | DTYPE | 'strided'? DTYPE '[' dim (',' dim)* ']' */
type
    : INTKW                         { $$ = mk_type(ps, TE_INT, DT_I32, @$); }
    | DTYPE                         { $$ = mk_type(ps, TE_DTYPE, $1, @$); }
    | DTYPE '[' dims ']'            { $$ = mk_shaped(ps, false, $1, $3, @$); }
    | STRIDED DTYPE '[' dims ']'    { $$ = mk_shaped(ps, true, $2, $4, @$); }
    ;

/* dim := primary (sema checks it is an IDENT or an INT) */
dims
    : primary                       { $$ = expr1(ps, $1); }
    | dims ',' primary              { $$ = exprs_add(ps, $1, $3); }
    ;

type_ann
    : %empty                        { $$ = NULL; }
    | ':' type                      { $$ = $2; }
    ;

/* block := '{' stmt* '}' */
block
    : '{' stmts '}'                 { $$ = mk_block(ps, $2, @$); }
    | '{' stmts error '}'           { $$ = mk_block(ps, $2, @$); }
    ;

stmts
    : %empty                        { $$ = (StmtVec){0}; }
    | stmts stmt                    { $$ = $1; if ($2) vec_push(ps->a, $$, $2); }
    ;

stmt
    /* 'let' IDENT (':' type)? '=' E ';' */
    : LET IDENT type_ann '=' expr ';'  { $$ = mk_let(ps, ST_LET, $2, @2, $3, $5, @$); }
    /* 'var' IDENT (':' type)? '=' E ';' */
    | VAR IDENT type_ann '=' expr ';'  { $$ = mk_let(ps, ST_VAR, $2, @2, $3, $5, @$); }
    /* E ';' */
    | expr ';'                      { $$ = mk_stmt(ps, ST_EXPR, @$); $$->u.expr = $1; }
    /* E ('=' | '+=' | '-=' | '*=' | '/=') E ';' */
    | expr assign_op expr ';'       { $$ = mk_assign(ps, $1, $2, $3, @$); }
    /* 'for' IDENT 'in' 'range' '(' E (',' E (',' E)?)? ')' block */
    | FOR IDENT IN RANGE '(' range_args ')' block
        { $$ = mk_for(ps, ST_FOR, $2, @2, $6, $8, @$); }
    /* 'static_for' IDENT 'in' 'range' '(' ... ')' block */
    | STATIC_FOR IDENT IN RANGE '(' range_args ')' block
        { $$ = mk_for(ps, ST_STATIC_FOR, $2, @2, $6, $8, @$); }
    | if_stmt
    /* 'while' E block */
    | WHILE expr block
        {
            $$ = mk_stmt(ps, ST_WHILE, @$);
            $$->u.while_.cond = $2;
            $$->u.while_.body = $3;
        }
    /* 'return' E? ';' */
    | RETURN ';'                    { $$ = mk_stmt(ps, ST_RETURN, @$); }
    | RETURN expr ';'               { $$ = mk_stmt(ps, ST_RETURN, @$); $$->u.expr = $2; }
    /* 'static_assert' '(' E (',' STRING)? ')' ';' */
    | STATIC_ASSERT '(' expr ')' ';'
        { $$ = mk_stmt(ps, ST_STATIC_ASSERT, @$); $$->u.sassert.cond = $3; }
    | STATIC_ASSERT '(' expr ',' STRING ')' ';'
        {
            $$ = mk_stmt(ps, ST_STATIC_ASSERT, @$);
            $$->u.sassert.cond = $3;
            $$->u.sassert.msg = $5;
        }
    /* 'print' '(' STRING (',' E)? ')' ';' */
    | PRINT '(' STRING ')' ';'
        { $$ = mk_stmt(ps, ST_PRINT, @$); $$->u.print.label = $3; }
    | PRINT '(' STRING ',' expr ')' ';'
        {
            $$ = mk_stmt(ps, ST_PRINT, @$);
            $$->u.print.label = $3;
            $$->u.print.value = $5;
        }
    | BREAK ';'                     { $$ = mk_stmt(ps, ST_BREAK, @$); }
    | CONTINUE ';'                  { $$ = mk_stmt(ps, ST_CONTINUE, @$); }
    | block                         { $$ = mk_stmt(ps, ST_BLOCK, @$); $$->u.block = $1; }
    | skipped                       { $$ = NULL; }
    ;

/* Error recovery: skip to ';', or over a whole braced block (with the
 * else-branches that may follow it) so a broken `for`/`if` header does not
 * let its body's '}' close the enclosing block. */
skipped
    : error ';'
    | error block
    | skipped ELSE block
    | skipped ELSE IF expr block
    ;

assign_op
    : '='                           { $$ = -1; }
    | PLUSEQ                        { $$ = B_ADD; }
    | MINUSEQ                       { $$ = B_SUB; }
    | STAREQ                        { $$ = B_MUL; }
    | SLASHEQ                       { $$ = B_DIV; }
    ;

range_args
    : expr                          { $$ = expr1(ps, $1); }
    | expr ',' expr                 { $$ = exprs_add(ps, expr1(ps, $1), $3); }
    | expr ',' expr ',' expr        { $$ = exprs_add(ps, exprs_add(ps, expr1(ps, $1), $3), $5); }
    ;

/* if-stmt := 'if' E block ('else' (block | if-stmt))? */
if_stmt
    : if_chain                      { $$ = finish_if(ps, $1, NULL, @$); }
    | if_chain ELSE block           { $$ = finish_if(ps, $1, $3, @$); }
    ;

if_chain
    : IF expr block
        { Stmt *s = mk_if(ps, $2, $3, @$); $$ = (IfChain){s, s, 1}; }
    | if_chain ELSE IF expr block
        {
            $$ = $1;
            if (++$$.n == TK_MAX_NEST + 1)
                diag_error(ps->d, sp(ps, @3), "too many 'else if' branches (more than %d)", TK_MAX_NEST);
            if ($$.n <= TK_MAX_NEST) {
                Stmt *s = mk_if(ps, $4, $5, (TkLoc){@3.lo, @5.hi});
                $$.tail->u.if_.else_ = wrap_stmt(ps, s);
                $$.tail = s;
            }
        }
    ;

/* Binary operators, lowest to highest: || && | ^ & == != < <= > >= << >> + - * / % */
expr
    : expr OROR expr                { $$ = mk_binary(ps, B_LOR, $1, $3, @$); }
    | expr ANDAND expr              { $$ = mk_binary(ps, B_LAND, $1, $3, @$); }
    | expr '|' expr                 { $$ = mk_binary(ps, B_OR, $1, $3, @$); }
    | expr '^' expr                 { $$ = mk_binary(ps, B_XOR, $1, $3, @$); }
    | expr '&' expr                 { $$ = mk_binary(ps, B_AND, $1, $3, @$); }
    | expr EQ expr                  { $$ = mk_binary(ps, B_EQ, $1, $3, @$); }
    | expr NE expr                  { $$ = mk_binary(ps, B_NE, $1, $3, @$); }
    | expr '<' expr                 { $$ = mk_binary(ps, B_LT, $1, $3, @$); }
    | expr LE expr                  { $$ = mk_binary(ps, B_LE, $1, $3, @$); }
    | expr '>' expr                 { $$ = mk_binary(ps, B_GT, $1, $3, @$); }
    | expr GE expr                  { $$ = mk_binary(ps, B_GE, $1, $3, @$); }
    | expr SHL expr                 { $$ = mk_binary(ps, B_SHL, $1, $3, @$); }
    | expr SHR expr                 { $$ = mk_binary(ps, B_SHR, $1, $3, @$); }
    | expr '+' expr                 { $$ = mk_binary(ps, B_ADD, $1, $3, @$); }
    | expr '-' expr                 { $$ = mk_binary(ps, B_SUB, $1, $3, @$); }
    | expr '*' expr                 { $$ = mk_binary(ps, B_MUL, $1, $3, @$); }
    | expr '/' expr                 { $$ = mk_binary(ps, B_DIV, $1, $3, @$); }
    | expr '%' expr                 { $$ = mk_binary(ps, B_MOD, $1, $3, @$); }
    | unary
    ;

/* unary := ('-' | '!' | '~') unary | cast */
unary
    : '-' unary                     { $$ = mk_unary(ps, U_NEG, $2, @$); }
    | '!' unary                     { $$ = mk_unary(ps, U_NOT, $2, @$); }
    | '~' unary                     { $$ = mk_unary(ps, U_BITNOT, $2, @$); }
    | cast
    ;

/* cast := cast 'as' (DTYPE | IDENT) | 'unchecked' postfix | postfix */
cast
    : postfix
    | UNCHECKED postfix
        { $$ = mk_expr(ps, EX_UNCHECKED, @$); $$->u.unchecked.x = $2; }
    | cast AS DTYPE
        {
            $$ = mk_expr(ps, EX_CAST, @$);
            $$->u.cast.x = $1;
            $$->u.cast.to = $3;
            $$->u.cast.to_span = sp(ps, @3);
        }
    | cast AS IDENT
        {
            $$ = mk_expr(ps, EX_CAST, @$);
            $$->u.cast.x = $1;
            $$->u.cast.to_name = $3;
            $$->u.cast.to_span = sp(ps, @3);
        }
    ;

/* postfix := postfix '(' args? ')' | postfix '[' idx (',' idx)* ','? ']' | primary */
postfix
    : primary
    | postfix '(' args ')'          { $$ = mk_call(ps, $1, $3, @$); }
    | postfix '[' idx_list ']'      { $$ = mk_index(ps, $1, $3, @$); }
    | postfix '[' idx_list ',' ']'  { $$ = mk_index(ps, $1, $3, @$); }
    ;

/* primary := INT | FLOAT | 'true' | 'false' | IDENT | DTYPE | '(' E ')'
 *          | '[' (E (',' E)* ','?)? ']' */
primary
    : INT                           { $$ = mk_expr(ps, EX_INT, @$); $$->u.ival = $1; }
    | FLOAT                         { $$ = mk_expr(ps, EX_FLOAT, @$); $$->u.fval = $1; }
    | TRUE                          { $$ = mk_expr(ps, EX_BOOL, @$); $$->u.bval = true; }
    | FALSE                         { $$ = mk_expr(ps, EX_BOOL, @$); $$->u.bval = false; }
    | IDENT                         { $$ = mk_expr(ps, EX_NAME, @$); $$->u.name.id = $1; }
    | DTYPE                         { $$ = mk_expr(ps, EX_DTYPE, @$); $$->u.dtype = $1; }
    | '(' expr ')'                  { $$ = $2; $$->span = sp(ps, @$); }
    | '[' ']'                       { $$ = mk_list(ps, (ExprVec){0}, @$); }
    | '[' expr_list ']'             { $$ = mk_list(ps, $2, @$); }
    | '[' expr_list ',' ']'         { $$ = mk_list(ps, $2, @$); }
    ;

expr_list
    : expr                          { $$ = expr1(ps, $1); }
    | expr_list ',' expr            { $$ = exprs_add(ps, $1, $3); }
    ;

/* idx := E | ':' | 'None' */
idx
    : expr
    | ':'                           { $$ = mk_expr(ps, EX_SLICE, @$); }
    | NONE                          { $$ = mk_expr(ps, EX_NONE, @$); }
    ;

idx_list
    : idx                           { $$ = expr1(ps, $1); }
    | idx_list ',' idx              { $$ = exprs_add(ps, $1, $3); }
    ;

/* args := arg (',' arg)* ','? */
args
    : %empty                        { $$ = (ArgVec){0}; }
    | arg_list
    | arg_list ','
    ;

arg_list
    : arg                           { $$ = (ArgVec){0}; vec_push(ps->a, $$, $1); }
    | arg_list ',' arg              { $$ = $1; vec_push(ps->a, $$, $3); }
    ;

/* arg := E | IDENT '=' E */
arg
    : expr                          { $$ = (Arg){.value = $1}; }
    | IDENT '=' expr                { $$ = (Arg){.kw = $1, .kw_span = sp(ps, @1), .value = $3}; }
    ;

%%

static Span sp(PState *ps, TkLoc l) { return (Span){ps->src, l.lo, l.hi}; }

static Expr *mk_expr(PState *ps, ExprKind k, TkLoc l)
{
    Expr *e = arena_alloc(ps->a, sizeof *e);
    e->kind = k;
    e->span = sp(ps, l);
    return e;
}

static Expr *mk_unary(PState *ps, UnOp op, Expr *x, TkLoc l)
{
    Expr *e = mk_expr(ps, EX_UNARY, l);
    e->u.unary.op = op;
    e->u.unary.x = x;
    return e;
}

static Expr *mk_binary(PState *ps, BinOp op, Expr *l, Expr *r, TkLoc loc)
{
    Expr *e = mk_expr(ps, EX_BINARY, loc);
    e->u.binary.op = op;
    e->u.binary.l = l;
    e->u.binary.r = r;
    return e;
}

static Expr *mk_call(PState *ps, Expr *fn, ArgVec args, TkLoc l)
{
    Expr *e = mk_expr(ps, EX_CALL, l);
    e->u.call.fn = fn;
    e->u.call.args = args.v;
    e->u.call.nargs = args.n;
    e->u.call.builtin = -1;
    return e;
}

static Expr *mk_index(PState *ps, Expr *base, ExprVec idx, TkLoc l)
{
    Expr *e = mk_expr(ps, EX_INDEX, l);
    e->u.index.base = base;
    e->u.index.idx = idx.v;
    e->u.index.nidx = idx.n;
    return e;
}

static Expr *mk_list(PState *ps, ExprVec elts, TkLoc l)
{
    Expr *e = mk_expr(ps, EX_LIST, l);
    e->u.list.elts = elts.v;
    e->u.list.n = elts.n;
    return e;
}

static ExprVec expr1(PState *ps, Expr *e)
{
    ExprVec v = {0};
    vec_push(ps->a, v, e);
    return v;
}

static ExprVec exprs_add(PState *ps, ExprVec v, Expr *e)
{
    vec_push(ps->a, v, e);
    return v;
}

static Stmt *mk_stmt(PState *ps, StmtKind k, TkLoc l)
{
    Stmt *s = arena_alloc(ps->a, sizeof *s);
    s->kind = k;
    s->span = sp(ps, l);
    return s;
}

static Stmt *mk_let(PState *ps, StmtKind k, char *name, TkLoc nl, TypeExpr *ty, Expr *init, TkLoc l)
{
    Stmt *s = mk_stmt(ps, k, l);
    s->u.let.name = name;
    s->u.let.name_span = sp(ps, nl);
    s->u.let.ty = ty;
    s->u.let.init = init;
    return s;
}

static Stmt *mk_assign(PState *ps, Expr *target, int op, Expr *value, TkLoc l)
{
    Stmt *s = mk_stmt(ps, ST_ASSIGN, l);
    s->u.assign.target = target;
    s->u.assign.op = op;
    s->u.assign.value = value;
    return s;
}

/* range(end) | range(start, end) | range(start, end, step) */
static Stmt *mk_for(PState *ps, StmtKind k, char *var, TkLoc vl, ExprVec r, Block *body, TkLoc l)
{
    Stmt *s = mk_stmt(ps, k, l);
    s->u.for_.var = var;
    s->u.for_.var_span = sp(ps, vl);
    if (r.n == 1) {
        s->u.for_.end = r.v[0];
    } else {
        s->u.for_.start = r.v[0];
        s->u.for_.end = r.v[1];
        s->u.for_.step = r.n == 3 ? r.v[2] : NULL;
    }
    s->u.for_.body = body;
    return s;
}

static Stmt *mk_if(PState *ps, Expr *cond, Block *then, TkLoc l)
{
    Stmt *s = mk_stmt(ps, ST_IF, l);
    s->u.if_.cond = cond;
    s->u.if_.then = then;
    return s;
}

/* Attach the final else, then stretch every link of the chain (and the
 * block wrapping it) to the end of the whole statement. */
static Stmt *finish_if(PState *ps, IfChain c, Block *else_, TkLoc l)
{
    c.tail->u.if_.else_ = else_;
    for (Stmt *s = c.head; s; ) {
        s->span.hi = l.hi;
        Block *b = s->u.if_.else_;
        if (!b || b == else_)
            break;
        b->span.hi = l.hi;
        s = b->stmts[0];
    }
    return c.head;
}

static Block *mk_block(PState *ps, StmtVec s, TkLoc l)
{
    Block *b = arena_alloc(ps->a, sizeof *b);
    b->stmts = s.v;
    b->n = s.n;
    b->span = sp(ps, l);
    return b;
}

/* An else-if: a Block holding the one ST_IF statement. */
static Block *wrap_stmt(PState *ps, Stmt *s)
{
    Block *b = arena_alloc(ps->a, sizeof *b);
    b->stmts = arena_alloc(ps->a, sizeof *b->stmts);
    b->stmts[0] = s;
    b->n = 1;
    b->span = s->span;
    return b;
}

static TypeExpr *mk_type(PState *ps, TypeExprKind k, DType dt, TkLoc l)
{
    TypeExpr *t = arena_alloc(ps->a, sizeof *t);
    t->kind = k;
    t->dt = dt;
    t->span = sp(ps, l);
    return t;
}

static TypeExpr *mk_shaped(PState *ps, bool strided, DType dt, ExprVec dims, TkLoc l)
{
    TypeExpr *t = mk_type(ps, TE_SHAPED, dt, l);
    t->strided = strided;
    t->dims = dims.v;
    t->ndims = dims.n;
    return t;
}

static Param mk_param(PState *ps, char *name, TkLoc nl, TypeExpr *ty, Expr *deflt)
{
    return (Param){.name = name, .span = sp(ps, nl), .ty = ty, .deflt = deflt};
}

static Attr mk_attr(PState *ps, char *name, ArgVec args, TkLoc l)
{
    return (Attr){.name = name, .span = sp(ps, l), .args = args.v, .nargs = args.n};
}

/* At most one grid clause: a second is reported and ignored. */
static Clauses add_grid(PState *ps, Clauses c, ExprVec g, TkLoc l)
{
    if (c.has_grid) {
        diag_error(ps->d, sp(ps, l), "duplicate grid clause");
        diag_note(ps->d, sp(ps, c.grid_loc), "first grid clause is here");
        return c;
    }
    c.grid = g;
    c.grid_loc = l;
    c.has_grid = true;
    return c;
}

static void add_item(PState *ps, ItemKind k, void *decl)
{
    Item *it = arena_alloc(ps->a, sizeof *it);
    it->kind = k;
    if (k == IT_KERNEL)
        it->u.kernel = decl;
    else
        it->u.fn = decl;
    vec_push(ps->a, ps->items, it);
}

static void add_import(PState *ps, char *path, TkLoc l)
{
    Item *it = arena_alloc(ps->a, sizeof *it);
    it->kind = IT_IMPORT;
    it->u.import.path = path;
    it->u.import.span = sp(ps, l);
    vec_push(ps->a, ps->items, it);
}

/* ------------------------------------------------------- error reports */

/* Token spellings come from the aliases above, minus Bison's quotes:
 * "'let'", "identifier", "end of file". */
static const char *tok_name(yysymbol_kind_t k)
{
    static char buf[64];
    const char *s = yysymbol_name(k);
    size_t n = strlen(s);
    if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
        if (n - 2 >= sizeof buf)
            n = sizeof buf + 1;
        memcpy(buf, s + 1, n - 2);
        buf[n - 2] = 0;
        return buf;
    }
    return s;
}

static bool in_set(const char *name, const char *const *set)
{
    for (; *set; set++)
        if (strcmp(name, *set) == 0)
            return true;
    return false;
}

/* Tokens that can begin an expression, a statement, an item; tokens that can
 * continue a complete expression (operators, call, index, cast, assign). */
static const char *const expr_start[] = {
    "integer", "number", "identifier", "type name", "'true'", "'false'",
    "'('", "'['", "'-'", "'!'", "'~'", "'unchecked'", NULL,
};
static const char *const stmt_start[] = {
    "'let'", "'var'", "'for'", "'static_for'", "'if'", "'while'", "'return'",
    "'static_assert'", "'print'", "'break'", "'continue'", "'{'", NULL,
};
static const char *const item_start[] = {
    "'import'", "'kernel'", "'fn'", "'@'", "end of file", NULL,
};
static const char *const expr_cont[] = {
    "'||'", "'&&'", "'|'", "'^'", "'&'", "'=='", "'!='", "'<'", "'<='", "'>'",
    "'>='", "'<<'", "'>>'", "'+'", "'-'", "'*'", "'/'", "'%'", "'as'", "'('",
    "'['", "'='", "'+='", "'-='", "'*='", "'/='", NULL,
};

static const char *const postfix_cont[] = { "'as'", "'('", "'['", NULL };

typedef struct Expect {
    const char *v[YYNTOKENS + 4];
    int n;
    bool after_expr, after_binop, want_expr, want_stmt, want_item, has_kernel, has_fn;
} Expect;

static void expect_add(Arena *a, Expect *e, const char *name)
{
    for (int i = 0; i < e->n; i++)
        if (strcmp(e->v[i], name) == 0)
            return;
    e->v[e->n++] = arena_strdup(a, name);
}

/* Fold the expected tokens into what a reader thinks in: "expression",
 * "statement", "'kernel', 'fn' or 'import'"; after a complete operand
 * (where 'as' may follow) drop the operators that could continue it, all
 * of them where binary operators may follow, else the postfix ones. */
static void expect_fold(PState *ps, Expect *e, const yysymbol_kind_t *k, int n)
{
    for (int i = 0; i < n; i++) {
        const char *t = tok_name(k[i]);
        e->after_expr |= strcmp(t, "'as'") == 0;
        e->after_binop |= strcmp(t, "'+'") == 0;
        e->want_expr |= strcmp(t, "integer") == 0;
        e->want_stmt |= strcmp(t, "'let'") == 0;
        e->has_kernel |= strcmp(t, "'kernel'") == 0;
        e->has_fn |= strcmp(t, "'fn'") == 0;
    }
    e->want_item = e->has_kernel && e->has_fn;
    for (int i = 0; i < n; i++) {
        const char *t = tok_name(k[i]);
        if (e->after_binop && in_set(t, expr_cont))
            continue;
        if (e->after_expr && in_set(t, postfix_cont))
            continue;
        if (e->want_stmt && (in_set(t, stmt_start) || in_set(t, expr_start)))
            expect_add(ps->a, e, "statement");
        else if (e->want_expr && in_set(t, expr_start))
            expect_add(ps->a, e, "expression");
        else if (e->want_item && in_set(t, item_start))
            expect_add(ps->a, e, "'kernel', 'fn' or 'import'");
        else
            expect_add(ps->a, e, t);
    }
}

/* How the offending token reads: "identifier 'x'", "number '1.5'", "'let'". */
static const char *found_text(PState *ps, yysymbol_kind_t k, TkLoc l)
{
    const char *name = tok_name(k);
    const char *text = (const char *)ps->base + l.lo;
    int len = l.hi - l.lo > 40 ? 40 : l.hi - l.lo;
    if (strcmp(name, "identifier") == 0 || strcmp(name, "integer") == 0 ||
        strcmp(name, "number") == 0)
        return arena_printf(ps->a, "%s '%.*s'", name, len, text);
    if (strcmp(name, "type name") == 0)
        return arena_printf(ps->a, "'%.*s'", len, text);
    return arena_strdup(ps->a, name);
}

static int yyreport_syntax_error(const yypcontext_t *ctx, PState *ps)
{
    TkLoc l = *yypcontext_location(ctx);
    if (ps->fatal || (l.lo >= ps->quiet_lo && l.lo <= ps->quiet_hi))
        return 0;
    yysymbol_kind_t k[YYNTOKENS];
    int n = yypcontext_expected_tokens(ctx, k, YYNTOKENS);
    Expect e = {0};
    expect_fold(ps, &e, k, n < 0 ? 0 : n);
    const char *found = found_text(ps, yypcontext_token(ctx), l);
    if (e.n == 0 || e.n > 6) {
        diag_error(ps->d, sp(ps, l), "unexpected %s", found);
        return 0;
    }
    Buf b = {.a = ps->a};
    buf_puts(&b, "expected ");
    for (int i = 0; i < e.n; i++) {
        if (i > 0)
            buf_puts(&b, i == e.n - 1 ? " or " : ", ");
        buf_puts(&b, e.v[i]);
    }
    diag_error(ps->d, sp(ps, l), "%s%s, found %s", b.s,
               e.after_expr ? " after expression" : "", found);
    return 0;
}

/* Only Bison's own failures arrive here ("memory exhausted"). */
static void yyerror(TkLoc *loc, PState *ps, const char *msg)
{
    if (ps->fatal)
        return;
    ps->fatal = true;
    if (strcmp(msg, "memory exhausted") == 0)
        msg = "program too deeply nested";
    diag_error(ps->d, sp(ps, *loc), "%s", msg);
}
