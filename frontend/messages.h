// messages.h — the text of every diagnostic wucc reports, in one place
// (test/lit checks them exactly; docs/language.md lists them).
//
// Messages with %s take the named argument(s) through wuc::format.
#pragma once

#include <string>

namespace wuc::msg {

// ---- lexical -----------------------------------------------------------
inline constexpr const char *UnterminatedComment = "unterminated /* comment";
inline constexpr const char *UnterminatedString = "missing terminating '\"' character";
inline constexpr const char *UnterminatedChar = "missing terminating ' character";
inline constexpr const char *UnknownDurationUnit =
    "unknown duration unit '%s' (expected ns, us, ms or s)";
inline constexpr const char *DurationOverflow =
    "duration literal '%s' is too large for a duration_t (at most 9223372036854775807 ns, about "
    "292 years)";
inline constexpr const char *DurationNeedsNumber = "a duration literal needs a number before '`'";
inline constexpr const char *EmptyTypeName = "expected a type name in '%s( )'";

// ---- the waituntil statement (docs/language.md §7) ----------------------
inline constexpr const char *ElseNotLast =
    "'else' must be the last clause of a waituntil statement";
inline constexpr const char *ElseTwice = "a waituntil statement can have only one 'else'";
inline constexpr const char *ElseInParens = "'else' cannot appear inside parentheses";
inline constexpr const char *ElseAfterAnd = "'else' must be joined by 'or', not 'and'";
inline constexpr const char *ElseFirst = "'else' needs a waituntil clause before it";
inline constexpr const char *WhenOnGroup =
    "'when' cannot guard a parenthesised group; guard each clause instead";
inline constexpr const char *EmptyParens = "empty parentheses in a waituntil statement";
inline constexpr const char *ClauseNoStatement = "waituntil clause has no statement";
inline constexpr const char *ElseNoStatement = "'else' has no statement";
inline constexpr const char *EmptyResource = "waituntil clause has no resource";
inline constexpr const char *ShiftOperandMissing =
    "'<<' needs an expression on each side: 'x << ch' receives, 'ch << e' sends";
inline constexpr const char *EmptyGuard = "'when' needs a condition";
inline constexpr const char *ExpectedLParenAfter = "expected '(' after '%s'";
inline constexpr const char *ExpectedClauseAfter =
    "expected 'waituntil', 'when', '(' or 'else' after '%s'";
// [[wuc::fair]] (docs/language.md, "Fair choice").
inline constexpr const char *UnknownWucAttribute =
    "unknown attribute 'wuc::%s' (the wuc namespace has only 'wuc::fair')";
inline constexpr const char *FairArguments =
    "'wuc::fair' takes no arguments and must be the only attribute in its '[[ ]]'";
inline constexpr const char *FairNotOnWaituntil =
    "'[[wuc::fair]]' can only mark a waituntil statement";
inline constexpr const char *FairInsideStatement =
    "'[[wuc::fair]]' marks a whole waituntil statement; write it before the statement's first "
    "clause";
inline constexpr const char *FairWithAnd =
    "'[[wuc::fair]]' applies only to statements whose clauses are all joined by 'or'; this one "
    "has 'and'";
// Clause families (docs/language.md, "Clause families").
inline constexpr const char *FamilyJoinWord =
    "expected 'or' or 'and' between 'waituntil' and 'for' (how the family's elements are "
    "joined), not '%s'";
inline constexpr const char *FamilyNoIndex =
    "a clause family needs an index declared in its 'for', as in 'waituntil for (size_t i = 0; "
    "i < n; i++) ...'";
inline constexpr const char *FamilyBadIndex =
    "the index of a clause family must be one variable declared as 'type name = value', not "
    "'%s'";
inline constexpr const char *FamilyBadHeader =
    "a clause family's header must be 'for (declaration; condition; step)'";
inline constexpr const char *FamilyOuterGuard =
    "'when' cannot guard a whole clause family; guard its elements after the header: "
    "'waituntil for (...) when (c) (...)'";
inline constexpr const char *FamilyLoopJump =
    "'%s' in a clause family's body would bind to a loop or switch around the whole statement, "
    "not to the family's 'for'; use 'goto' (or put the '%s' inside a loop of the body)";
inline constexpr const char *FairWithAndFamily =
    "'[[wuc::fair]]' applies only to statements whose clauses are all joined by 'or'; this one "
    "has an 'and' family";
inline constexpr const char *FamilyIndexType =
    "the index of a clause family must have a scalar type (a number or a pointer), not '%s'";
inline constexpr const char *FamilyRegisterTarget =
    "a clause family cannot receive into a 'register' variable (each element keeps its target's "
    "address); receive into a variable without 'register'";
inline constexpr const char *WhenWithoutClause =
    "expected 'waituntil', '(' or 'else' after 'when (...)'";

// ---- syntax (the statement skeleton of C; added by the frontend) -----------
inline constexpr const char *ExpectedBefore = "expected %s before '%s'";
inline constexpr const char *ExpectedAtEnd = "expected %s at end of input";
inline constexpr const char *UnexpectedToken = "unexpected '%s'";
inline constexpr const char *UnexpectedEnd = "unexpected end of input";
inline constexpr const char *UnmatchedClose = "'%s' without a matching opening bracket";
inline constexpr const char *ElseWithoutIf = "'else' without a previous 'if'";
inline constexpr const char *KeywordNotStatement =
    "a waituntil statement cannot appear here ('%s' can only begin a statement)";
inline constexpr const char *UnbalancedBranch =
    "the brackets of this '%s' branch do not balance: wucc does not evaluate conditional "
    "compilation, so in a function with a waituntil statement each branch must close the "
    "brackets it opens";
inline constexpr const char *UnbalancedMacro =
    "macro '%s' expands to unbalanced brackets: wucc does not expand macros, so in a function "
    "with a waituntil statement every bracket must be written out";
inline constexpr const char *NestingTooDeep = "brackets nested too deeply (more than %s levels)";
inline constexpr const char *EmptyClauseArgument = "'%s( )' needs an argument";
inline constexpr const char *DirectiveInStatement =
    "a preprocessor directive can appear in a waituntil statement only inside a clause's body";
inline constexpr const char *PragmaInStatement =
    "'_Pragma' can appear in a waituntil statement only inside a clause's body";

inline constexpr const char *NestedFunction =
    "a waituntil statement cannot be in a nested function ('%s' is defined inside another "
    "function, a GCC extension wucc does not support); define '%s' at file scope";
inline constexpr const char *StatementsNestedTooDeeply =
    "waituntil statements nested too deeply (more than %s levels)";
inline constexpr const char *GroupsNestedTooDeeply =
    "waituntil groups nested too deeply (more than %s levels of parentheses around clauses)";
inline constexpr const char *TypesNestedTooDeeply =
    "channel and future types nested too deeply (more than %s levels)";
inline constexpr const char *ComputedGotoInBody =
    "a computed goto cannot leave a waituntil clause body (its statement's clauses would stay "
    "registered); jump to a named label instead";
inline constexpr const char *JumpIntoBody =
    "label '%s' in a waituntil clause body is the target of a jump from outside the body; a jump "
    "can leave a clause body but cannot enter it";
inline constexpr const char *CaseIntoBody =
    "'%s' label in a waituntil clause body belongs to a switch outside the body; a jump can leave "
    "a clause body but cannot enter it";

// ---- operands (docs/language.md §8), from the semantic pass -------------
inline constexpr const char *NotSelectable =
    "operand of type '%s' is not selectable (no WUC_SELECTABLE declaration for it)";
inline constexpr const char *ShiftWithoutChannel =
    "neither operand of '<<' is a channel (left '%s', right '%s')";
inline constexpr const char *RecvIncompatible = "cannot receive an element of type '%s' into '%s'";
inline constexpr const char *SendIncompatible =
    "cannot send a value of type '%s' on a channel of '%s'";
inline constexpr const char *ClosedNeedsChannel = "'closed' needs a channel, not '%s'";
inline constexpr const char *TimeoutNeedsDuration =
    "'timeout' needs a duration (an arithmetic value), not '%s'";
inline constexpr const char *FdNeedsInteger = "'%s' needs a file descriptor (an integer), not '%s'";
inline constexpr const char *OperandNotLvalue =
    "operand of type '%s' must be an lvalue or a pointer";
inline constexpr const char *RecvIntoBitField = "cannot receive into a bit-field";
inline constexpr const char *ChannelWithoutShift =
    "a channel is not a resource by itself; use 'x << ch', 'ch << e' or 'closed(ch)'";
inline constexpr const char *OperandError = "in this clause's operand: %s"; // clang's message
inline constexpr const char *RecvTargetNotModifiable =
    "cannot receive into an operand of type '%s': it is not a modifiable lvalue";
inline constexpr const char *ResourceConst =
    "operand of type '%s' is const; a waituntil resource must be modifiable";
inline constexpr const char *NotSelectableYet =
    "operand of type '%s' is not selectable here (its WUC_SELECTABLE declaration comes after this "
    "statement)";
inline constexpr const char *ArrayElement =
    "'%s' cannot hold an array ('%s'): C cannot assign arrays; wrap the array in a struct";
inline constexpr const char *ElementTypeInvalid =
    "'%s' has no valid element type where wucc defines it (at file scope, or after the "
    "declaration of a type local to the function): %s";
inline constexpr const char *ProbeFailed = "cannot analyse the waituntil statements: %s";

// ---- driver ------------------------------------------------------------
inline constexpr const char *CannotRead = "cannot read '%s': %s";
inline constexpr const char *DialectNeedsC99 =
    "the waituntil dialect needs C99 or later, and the standard is '%s' (use -std=c99, gnu99 or "
    "later for this file)";
// A link with -fsanitize=thread or address whose libwuc variant is missing
// (docs/driver.md, "Sanitizers"); %s: the sanitizer, the missing file.
inline constexpr const char *NoSanitizerRuntime =
    "-fsanitize=%s needs the libwuc built for it, and '%s' is missing (a wuc built without "
    "WUC_SANITIZER_RUNTIMES or without the sanitizer's library: docs/driver.md, 'Sanitizers')";

// ---- macros (docs/language.md, "Macros") ---------------------------------
// Reported by the back end, through the `waituntil` macro of <wuc.h>, at the
// use of a header's macro that holds a waituntil statement.
inline constexpr const char *WaituntilFromHeaderMacro =
    "a waituntil statement from a macro defined in a header is not lowered: wucc expands only the "
    "macros of the dialect file itself; define the macro in the .wc file, or make its statement a "
    "static inline function of the header";

// ---- warnings (docs/language.md, "Durations: a bare integer") -------------
// A lone nonzero integer constant as timeout(...)'s argument in a clause, or
// as uthread_sleep(...)'s in a dialect file; every %s is the constant, the
// first the call.  The fix-it inserts "`ms" after the constant.
inline constexpr const char *BareDuration =
    "%s of %s nanoseconds: write %s`ms, %s`s, or nanoseconds(%s) if you mean it";

// docs/language.md, 'Types': the definition of channel(T) / future(T) is
// made at the type's first use in a file and needs T complete there.
inline constexpr const char *ElementTypeIncomplete =
    "'%s' needs a complete element type at its first use in the file, where wucc defines it "
    "(declare the type before this line): %s";

} // namespace wuc::msg

namespace wuc {
// printf-style substitution of %s only (arguments in order).
std::string format(const char *pattern, const std::string &a = {}, const std::string &b = {});
} // namespace wuc
