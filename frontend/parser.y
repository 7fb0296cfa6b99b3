/* parser.y — the statement skeleton of C, and the waituntil statement.
 *
 * The grammar sees significant tokens already classified by the token
 * filter (frontend.cpp), which resolves with lookahead what LALR(1) cannot:
 *   SE_LPAREN    `(` followed by `{`: a GNU statement expression
 *   WU_LPAREN    `(` followed by `(`s and then waituntil/when/else: a group
 *   FUNC_LBRACE  a `{` at file scope that starts a function body
 *   BLOCK_LBRACE a `{` whose insides have a `;` or a keyword that only
 *                begins a statement outside brackets: a block (or a struct
 *                body, which parses as one) even inside soup, as in
 *                `FOREACH (x) { ... }` behind a macro
 *   BLOCK_RBRACE its `}` when a keyword that starts a statement (or a
 *                MACRO_CALL) follows: no expression goes on after it, so it
 *                ends the statement (`FOREACH (x) { ... } return 0;`)
 *   IDENT_COLON  an identifier followed by `:` (a label at statement start)
 *   MACRO_CALL   an identifier at the start of a statement followed by a
 *                parenthesised group and a keyword that begins a statement:
 *                a macro that expands to a statement's head, `REPEAT (3)
 *                waituntil ...` (a loop macro; `FOREACH (x) if ...`)
 *   OR_OP        `or` followed by waituntil, when, else or a group: always
 *                the operator; OR_PAREN: `or` followed by another `(`, the
 *                operator after a clause body (rule 9), else an identifier
 *   ASM          asm/__asm__ followed by qualifiers and `(`
 *   WUC_FAIR     `[[wuc::fair]]` before a waituntil statement: the first `[`
 *                stands for the whole marker, the parser never sees the
 *                other six tokens (docs/language.md, "Fair choice")
 * Expressions and declarations are token soup: only brackets nest, and
 * statement expressions are parsed as blocks so waituntil statements inside
 * them are found.  See README.md for the limits.
 *
 * Conflicts: 13, all shift/reduce, all resolved by shifting, which is the
 * language's rule in each case:
 *   1  dangling else: `else` binds to the nearest `if`.
 *   9  an operator after a clause body continues the innermost waituntil
 *      statement (docs/language.md §3: "continues the innermost"), for the three
 *      spellings of each operator (`or` before waituntil/when/else/group,
 *      `or (`, `||`; the same for and) in the three states where a
 *      statement can end: after the first and-list (and), after an or-list
 *      (or), after an and-list that follows an `or` (and).  With `or (` /
 *      `and (` the reduction would also be valid C (a call of a function
 *      named `or` starting the next statement); rule 9 says shift.
 *   3  the same rule after the or-list of a statement marked [[wuc::fair]]
 *      (its own state: the marker's alternative of waituntil_statement),
 *      for `or` before waituntil/when/else/group, `or (` and `||`. */
%require "3.2"
%language "c++"
%skeleton "lalr1.cc"
%define api.namespace {wuc::fe}
%define api.parser.class {Parser}
%define api.value.type {wuc::fe::Sem}
%define parse.error custom
%define parse.lac full
%param {wuc::fe::ParseContext &ctx}
%expect 13

%code requires {
#include "parse_context.h"
}

%code {
namespace wuc::fe {
namespace {
int yylex(Parser::value_type *value, ParseContext &ctx) {
  if (ctx.next >= ctx.limit) {
    ctx.next = ctx.limit + 1; // the lookahead is the end of input
    *value = Sem{};
    return 0;
  }
  int i = int(ctx.next++);
  *value = Sem{i, i, -1};
  return ctx.toks[unsigned(i)].kind;
}
// The extent of a construct from its first part to its last (either may
// be empty).
Sem cover(const Sem &a, const Sem &b) {
  Sem s;
  s.first = a.first >= 0 ? a.first : b.first;
  s.last = b.last >= 0 ? b.last : a.last;
  return s;
}
} // namespace
} // namespace wuc::fe
}

%token IDENT IDENT_COLON MACRO_CALL OTHER
%token LPAREN RPAREN LBRACK RBRACK LBRACE RBRACE FUNC_LBRACE BLOCK_LBRACE BLOCK_RBRACE SE_LPAREN WU_LPAREN
%token SEMI COLON QUESTION OROR ANDAND
%token OR_OP AND_OP OR_PAREN AND_PAREN
%token IF ELSE WHILE DO FOR SWITCH CASE DEFAULT GOTO BREAK CONTINUE RETURN ASM
%token WAITUNTIL WHEN WUC_FAIR

%%

translation_unit
  : %empty
  | translation_unit external_decl
  ;

/* The token filter hands over one external declaration at a time (see
   parseSource), so this is usually a single one. */
external_decl
  : SEMI
  | top_soup SEMI
  | top_soup FUNC_LBRACE block_body RBRACE
  ;

top_soup
  : top_item
  | top_soup top_item                           { $$ = cover($1, $2); }
  ;
top_item: atom | ASM ;

/* Anything an expression or declaration may hold outside brackets. */
atom
  : IDENT | IDENT_COLON | MACRO_CALL | OTHER | COLON | QUESTION | OROR | ANDAND | OR_PAREN
  | AND_PAREN | paren_group | brack_group | brace_group
  ;

paren_group
  : LPAREN group_items RPAREN                   { $$ = cover($1, $3); }
  | SE_LPAREN lbrace block_body RBRACE RPAREN   { $$ = cover($1, $5); }
  ;
brack_group: LBRACK group_items RBRACK          { $$ = cover($1, $3); } ;
brace_group
  : LBRACE group_items RBRACE                   { $$ = cover($1, $3); }
  | BLOCK_LBRACE block_body RBRACE              { $$ = cover($1, $3); }
  ;
lbrace: LBRACE | BLOCK_LBRACE ;

/* Inside brackets: balanced tokens, keywords included (a struct body, an
   initializer, a for header, a function body hidden behind a macro). */
group_items
  : %empty
  | group_items group_item                      { $$ = cover($1, $2); }
  ;
group_item
  : atom | SEMI | ASM | IF | ELSE | WHILE | DO | FOR | SWITCH | CASE | DEFAULT | GOTO
  | BREAK | CONTINUE | RETURN
  ;

block_items
  : %empty
  | block_items statement                       { $$ = cover($1, $2); }
  ;
/* A block's last statement may lack its `;` when it is a macro that
   expands to a whole statement: `{ ...; PNG_UNUSED(x) }`. */
block_body
  : block_items
  | block_items stmt_soup                       { $$ = cover($1, $2); }
  ;

rbrace: RBRACE | BLOCK_RBRACE ;

statement
  : lbrace block_body rbrace                    { $$ = cover($1, $3); }
  | stmt_soup BLOCK_LBRACE block_body BLOCK_RBRACE { $$ = cover($1, $4); }
  | IF paren_group statement                    { $$ = cover($1, $3); }
  | IF paren_group statement ELSE statement     { $$ = cover($1, $5); }
  | WHILE paren_group statement                 { $$ = cover($1, $3); }
  | DO statement WHILE paren_group SEMI         { $$ = cover($1, $5); }
  | FOR paren_group statement                   { $$ = cover($1, $3); }
  | SWITCH paren_group statement                { $$ = cover($1, $3); }
  | CASE case_soup COLON statement              { $$ = cover($1, $4); }
  | DEFAULT COLON statement                     { $$ = cover($1, $3); }
  | IDENT_COLON COLON statement                 { $$ = cover($1, $3); }
  | MACRO_CALL paren_group statement            { $$ = cover($1, $3); }
  | GOTO soup SEMI                              { $$ = cover($1, $3); }
  | BREAK SEMI                                  { $$ = cover($1, $2); }
  | CONTINUE SEMI                               { $$ = cover($1, $2); }
  | RETURN SEMI                                 { $$ = cover($1, $2); }
  | RETURN soup SEMI                            { $$ = cover($1, $3); }
  | ASM asm_qualifiers paren_group SEMI         { $$ = cover($1, $4); }
  | stmt_soup SEMI                              { $$ = cover($1, $2); }
  | SEMI
  | waituntil_statement
  ;

asm_qualifiers
  : %empty
  | asm_qualifiers IDENT
  | asm_qualifiers GOTO
  ;

/* An expression or declaration statement: never starts with a label, a
   keyword, `{` (a compound statement) or a waituntil group. */
stmt_soup
  : stmt_first
  | stmt_soup soup_item                         { $$ = cover($1, $2); }
  ;
stmt_first: IDENT | OTHER | OR_PAREN | AND_PAREN | paren_group | brack_group ;
soup
  : soup_item
  | soup soup_item                              { $$ = cover($1, $2); }
  ;
soup_item: atom | ASM ;

/* A case label's expression: `?` `:` pairs nest, so the `:` that ends the
   label is the first one outside them (GNU ranges `1 ... 3` are soup). */
case_soup
  : case_item
  | case_soup case_item                         { $$ = cover($1, $2); }
  ;
case_item
  : IDENT | IDENT_COLON | MACRO_CALL | OTHER | OROR | ANDAND | OR_PAREN | AND_PAREN
  | paren_group | brack_group | brace_group
  | QUESTION case_soup COLON                    { $$ = cover($1, $3); }
  | QUESTION COLON                              { $$ = cover($1, $2); }
  ;

/* docs/language.md §3, kept permissive where a misuse has its own message: an
   `else` may appear anywhere an operand may, and finishStatement() reports
   where it must not.  A statement cannot start with a bare `else` (that
   `else` belongs to an `if`). */
waituntil_statement
  : or_first                                    { ctx.finishStatement($1, false); }
  | WUC_FAIR or_first                           { $$ = cover($1, $2); $$.node = $2.node; ctx.finishStatement($$, true); }
  ;
or_first
  : and_first
  | or_first or_op and_list                     { $$ = cover($1, $3); $$.node = ctx.join(PNode::Or, $1.node, $3.node); }
  ;
and_first
  : first_item
  | and_first and_op item                       { $$ = cover($1, $3); $$.node = ctx.join(PNode::And, $1.node, $3.node); }
  ;
or_inner
  : and_list
  | or_inner or_op and_list                     { $$ = cover($1, $3); $$.node = ctx.join(PNode::Or, $1.node, $3.node); }
  ;
and_list
  : item
  | and_list and_op item                        { $$ = cover($1, $3); $$.node = ctx.join(PNode::And, $1.node, $3.node); }
  ;
item
  : first_item
  | ELSE statement                              { $$ = cover($1, $2); $$.node = ctx.elseItem($1.first, $2); }
  ;
first_item
  : WAITUNTIL paren_group statement             { $$ = cover($1, $3); $$.node = ctx.clause($1.first, $2, $3); }
  | WAITUNTIL family_head paren_group statement { $$ = cover($1, $4); $$.node = ctx.family($1.first, $2, Sem{}, Sem{}, $3, $4); }
  | WAITUNTIL family_head WHEN paren_group paren_group statement
                                                { $$ = cover($1, $6); $$.node = ctx.family($1.first, $2, $3, $4, $5, $6); }
  | WHEN paren_group item                       { $$ = cover($1, $3); $$.node = ctx.guard($1.first, $2, $3.node); }
  | WU_LPAREN or_inner RPAREN                   { $$ = cover($1, $3); $$.node = ctx.group($1.first, $2.node, $3.first); }
  ;
/* A clause family's head (docs/language.md, "Clause families"): `for (...)`,
   after an optional `or` / `and` (`||` / `&&`) saying how its elements are
   joined; $$.node is the joining token, or -1. */
family_head
  : FOR paren_group                             { $$ = cover($1, $2); $$.node = -1; }
  | family_join FOR paren_group                 { $$ = cover($1, $3); $$.node = $1.first; }
  ;
family_join: IDENT | OROR | ANDAND ;
or_op: OR_OP | OR_PAREN | OROR ;
and_op: AND_OP | AND_PAREN | ANDAND ;

%%

namespace wuc::fe {

void Parser::report_syntax_error(const context &yyctx) const {
  symbol_kind_type expected[64];
  int n = yyctx.expected_tokens(expected, 64);
  std::vector<int> kinds;
  for (int i = 0; i < n; i++) kinds.push_back(int(expected[i]));
  ctx.syntaxError(int(yyctx.lookahead().kind()), kinds);
}

void Parser::error(const std::string &message) {
  // Only "memory exhausted" reaches here (syntax errors go through
  // report_syntax_error).
  size_t at = ctx.next > 0 ? ctx.next - 1 : 0;
  unsigned offset = at < ctx.limit ? ctx.begin(int(at)) : unsigned(ctx.file.text().size());
  ctx.error(offset, message);
  ctx.syntaxFailed = true;
}

} // namespace wuc::fe
