// ast.h — what the frontend finds in a source file: the waituntil statements
// (clause trees, guards, resources and bodies as byte ranges of the original
// text) and the lexical edits (channel(T), future(T), `10`ms`).
//
// Nothing here owns text: every Range indexes SourceFile::text().  The
// renderer (render.h) turns a Range back into C by copying the text and
// substituting, inside it, each edit and each waituntil statement.
#pragma once

#include <string>
#include <vector>

#include "source.h"

namespace wuc {

// The syntactic form of a clause's resource (what is inside `waituntil ( )`).
enum class ClauseForm {
  Resource, // any expression: a future, a lock, a user type...
  Shift,    // lhs << rhs at the top level: a receive or a send (sema decides)
  Closed,   // closed ( arg )
  Timeout,  // timeout ( arg )
  Readable, // readable ( arg )
  Writable, // writable ( arg )
};

struct Clause {
  unsigned index = 0;         // source order within its statement, from 0
  unsigned keywordOffset = 0; // the `waituntil` keyword (diagnostics, #line)
  bool hasGuard = false;
  unsigned guardOffset = 0; // the `when` keyword, if hasGuard
  Range guard;              // the condition, without when's parentheses
  Range operand;            // everything inside waituntil's parentheses
  ClauseForm form = ClauseForm::Resource;
  Range lhs, rhs;           // Shift: the operands of the top-level `<<`
  unsigned shiftOffset = 0; // Shift: the `<<` token
  Range arg;                // Closed / Timeout / Readable / Writable: inside the parentheses
  Range body;               // the statement, exactly (`;` for an empty one)
  // A clause family (docs/language.md, "Clause families"):
  //   waituntil [or|and] for (T i = a; cond; step) [when (g)] (operand) body
  // stands for one clause per iteration of the loop; guard is then the
  // per-element guard (after the header), evaluated with the index in scope.
  bool family = false;
  bool familyAnd = false;       // `waituntil and for`: the elements joined by `and`
  unsigned familyOffset = 0;    // the `for` keyword
  Range familyInit;             // `T i = a`, the index declaration
  Range familyCond, familyStep; // may be empty
  Range indexType;              // `T`
  Range indexName;              // `i`
};

// The and/or tree.  Leaves name clauses by index; And and Or have two or more
// kids (a chain `A or B or C` is one Or with three kids; parentheses that
// group a single operand add no node).
struct TreeNode {
  enum Kind { Leaf, And, Or } kind = Leaf;
  unsigned clause = 0; // Leaf
  std::vector<TreeNode> kids;
  bool parenthesised = false; // written in parentheses (for messages only)
};

struct ElseBranch {
  bool present = false;
  unsigned keywordOffset = 0; // the `else` keyword
  bool hasGuard = false;
  unsigned guardOffset = 0;
  Range guard;
  Range body;
};

struct WaitUntil {
  unsigned id = 0; // index in FrontendResult::statements
  Range range;     // first token (`when`, `waituntil` or `(`) to the end of the last body
  TreeNode tree;
  std::vector<Clause> clauses; // by index
  ElseBranch elseBranch;
  // Marked [[wuc::fair]] (docs/language.md, "Fair choice"): the first look
  // tries the enabled clauses in a uniformly random order.  range then starts
  // at the marker's first `[`.
  bool fair = false;
};

// A replacement of a range of the original text (an empty range is an
// insertion).  Edits never overlap each other or cross a statement's
// boundary; they may lie inside a statement (in a guard, an operand or a body).
struct Edit {
  enum Kind {
    ChannelType,    // channel(T)  -> struct wuc_channel_<mangled T>
    FutureType,     // future(T)   -> struct wuc_future_<mangled T>
    Duration,       // 10`ms       -> ((duration_t)10 * 1000000)
    TypeDefinition, // inserted before the external declaration that first uses a type:
                    // WUC_CHANNEL_STRUCT(wuc_channel_int, int); / WUC_FUTURE_STRUCT(...);
  } kind;
  Range range;
  std::string text;
};

struct FrontendResult {
  // Every waituntil statement, nested ones included, in order of their first
  // token (so a statement precedes the statements nested in it).
  std::vector<WaitUntil> statements;
  // Sorted by range.begin; an insertion and a replacement never share a begin.
  std::vector<Edit> edits;
};

} // namespace wuc
