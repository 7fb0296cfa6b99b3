// sema.cpp — wuc::analyse: parses the probe (probe.h) with Clang and reads
// each clause's operands from Clang's AST (docs/language.md §4, §8).
//
// The only file of the compiler that includes Clang headers.
#include "sema.h"

#include <pthread.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/FileManager.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Sema/Sema.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/VirtualFileSystem.h>

#include "messages.h"
#include "probe.h"
#include "type_tag.h"

#ifndef WUC_SEMA_DEFAULT_RESOURCE_DIR
#define WUC_SEMA_DEFAULT_RESOURCE_DIR ""
#endif
#ifndef WUC_SEMA_DEFAULT_INCLUDE_DIR
#define WUC_SEMA_DEFAULT_INCLUDE_DIR ""
#endif

namespace wuc {

namespace {

using namespace clang;

// Clang's parser recurses a few frames per bracket level: at the depth the
// frontend and -fbracket-depth allow, it needs far more than the main
// thread's 8 MiB.  Pages of a thread's stack are committed only as used.
// Measured with Clang 14 at 100,000 levels (issue 14): parentheses use
// about 4 KB a level, casts `(int)(...)` about 10 KB (1.0 GB of stack);
// at the frontend's 131072 levels that is 1.3 GB.  Under an address-space
// limit (ulimit -v) too tight for that, a smaller stack still takes the
// nesting of ordinary code (about 60,000 parentheses in 256 MiB).
constexpr size_t kClangStackSizes[] = {size_t(2) << 30, size_t(256) << 20};

// Runs fn on a thread with the first of kClangStackSizes that can be made,
// or on this one when none can (ordinary files need little).
void runOnBigStack(const std::function<void()> &fn) {
  auto start = [](void *f) -> void * {
    (*static_cast<const std::function<void()> *>(f))();
    return nullptr;
  };
  for (size_t size : kClangStackSizes) {
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0) break;
    pthread_t thread;
    const bool started =
        pthread_attr_setstacksize(&attr, size) == 0 &&
        pthread_create(&thread, &attr, start, const_cast<std::function<void()> *>(&fn)) == 0;
    pthread_attr_destroy(&attr);
    if (started) {
      pthread_join(thread, nullptr);
      return;
    }
  }
  fn();
}

// ---- Clang's own errors ----------------------------------------------------

struct ClangError {
  bool fatal = false;
  bool inMain = false;        // located in the probe (offset valid)
  unsigned offset = 0;        // into the probe
  unsigned line = 0, col = 0; // as #line presents it (0: unknown)
  std::string message;
};

// Keeps Clang's errors (and nothing on the terminal); warnings are off.
class ErrorCollector : public DiagnosticConsumer {
public:
  void HandleDiagnostic(DiagnosticsEngine::Level level, const clang::Diagnostic &info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < DiagnosticsEngine::Error) return;
    ClangError e;
    e.fatal = level == DiagnosticsEngine::Fatal;
    llvm::SmallString<128> text;
    info.FormatDiagnostic(text);
    e.message = std::string(text.str());
    if (info.hasSourceManager() && info.getLocation().isValid()) {
      const SourceManager &sm = info.getSourceManager();
      // A macro argument's tokens are where the user wrote them; the rest of
      // an expansion is at the macro's use.
      SourceLocation loc = sm.getFileLoc(info.getLocation());
      if (sm.getFileID(loc) == sm.getMainFileID()) {
        e.inMain = true;
        e.offset = sm.getFileOffset(loc);
        PresumedLoc p = sm.getPresumedLoc(loc);
        // Only where the probe's own #line put it (not a #line of the user's).
        if (p.isValid() && presumedFile == p.getFilename()) {
          e.line = p.getLine();
          e.col = p.getColumn();
        }
      }
    }
    errors.push_back(std::move(e));
  }
  std::vector<ClangError> errors;
  std::string presumedFile; // the name the probe's #line directives give
};

// ---- what the AST says ---------------------------------------------------

struct Trait {
  QualType type; // the T of WUC_SELECTABLE(T, ...), canonical and unqualified
  std::string var, reg, unreg, sel;
  SourceLocation loc;
};

struct SemaError {
  unsigned offset;
  std::string message;
};

class Analysis {
public:
  Analysis(const SourceFile &file, const FrontendResult &fe, const sema::Probe &probe,
           const std::vector<ClangError> &errors, SemaFacts &out)
      : file_(file), fe_(fe), probe_(probe), errors_(errors), out_(out) {}

  void run(ASTContext &ctx, Sema &sema);

  bool parsed = false;
  std::vector<SemaError> diags;

private:
  struct Marker {
    const Expr *operand = nullptr; // as written (parentheses stripped)
    SourceLocation loc;
  };
  struct ClauseMarkers {
    const Marker *side[3] = {nullptr, nullptr, nullptr};
  };

  void collectFileScope();
  void checkTypeDefinitions();
  void computeTypeTags();
  void retagTraits();
  void collectMarkers(const Stmt *s);
  void classify(const WaitUntil &w, const Clause &c, ClauseFacts &f);
  void shift(const Clause &c, const Marker &lhs, const Marker &rhs, ClauseFacts &f);
  void closed(const Clause &c, const Marker &m, ClauseFacts &f);
  void timeout(const Clause &c, const Marker &m, ClauseFacts &f);
  void fd(const Clause &c, const Marker &m, ClauseFacts &f);
  void resource(const Clause &c, const Marker &m, ClauseFacts &f);

  // A channel (or a pointer to one): its element type.
  std::optional<QualType> channelElem(QualType t, bool *isPointer = nullptr) const;
  std::optional<QualType> channelObjectElem(QualType t) const;
  std::optional<QualType> futureValue(QualType t) const;
  const Trait *traitFor(QualType t, SourceLocation use, bool *onlyLater) const;
  const Trait *builtinTrait(const char *typedefName) const;
  void setTrait(ClauseFacts &f, const Trait *t) const;
  bool hasErrors(const Expr *e) const;
  std::string spell(QualType t) const;
  void error(unsigned offset, std::string message) {
    diags.push_back({offset, std::move(message)});
  }
  unsigned start(Range r) const;

  const SourceFile &file_;
  const FrontendResult &fe_;
  const sema::Probe &probe_;
  const std::vector<ClangError> &errors_;
  SemaFacts &out_;

  ASTContext *ctx_ = nullptr;
  Sema *sema_ = nullptr;
  std::unique_ptr<PrintingPolicy> policy_;
  std::map<const Type *, Trait> traits_;         // by canonical unqualified T
  std::map<std::string, QualType> builtinTypes_; // wuc_chan_recv_clause, ...
  std::vector<std::unique_ptr<Marker>> markerStore_;
  std::map<std::pair<unsigned, unsigned>, ClauseMarkers> markers_; // (stmt, clause)
};

unsigned Analysis::start(Range r) const {
  const std::string &t = file_.text();
  unsigned o = r.begin;
  while (o < r.end && o < t.size() && (t[o] == ' ' || t[o] == '\t' || t[o] == '\n' || t[o] == '\r'))
    o++;
  return o < r.end ? o : r.begin;
}

// Types as the user wrote them, but channel(T) / future(T) in the dialect's
// spelling rather than as the struct the frontend made of them.
std::string Analysis::spell(QualType t) const {
  const Type *ty = t.getTypePtr();
  if (const auto *el = dyn_cast<ElaboratedType>(ty)) ty = el->getNamedType().getTypePtr();
  if (isa<RecordType>(ty)) {
    std::string quals = t.getLocalQualifiers().getAsString();
    if (!quals.empty()) quals += ' ';
    if (auto elem = channelObjectElem(t)) return quals + "channel(" + spell(*elem) + ")";
    if (auto value = futureValue(t)) return quals + "future(" + spell(*value) + ")";
  } else if (const auto *pt = dyn_cast<PointerType>(ty)) {
    QualType pointee = pt->getPointeeType();
    std::string spelledPointee = spell(pointee); // channel(T) at any depth of pointers
    if (spelledPointee != pointee.getAsString(*policy_)) {
      std::string s = spelledPointee + (spelledPointee.back() == '*' ? "*" : " *");
      std::string quals = t.getLocalQualifiers().getAsString();
      return quals.empty() ? s : s + quals;
    }
  } else if (const auto *to = dyn_cast<TypeOfType>(ty)) {
    // __typeof__(T) in the channel macros: show T.
    return spell(ctx_->getQualifiedType(to->getUnderlyingType(), t.getLocalQualifiers()));
  }
  return t.getAsString(*policy_);
}

std::optional<QualType> Analysis::channelObjectElem(QualType t) const {
  const auto *rt = t->getAs<RecordType>();
  if (!rt) return std::nullopt;
  const RecordDecl *rd = rt->getDecl()->getDefinition();
  if (!rd || !rd->isStruct()) return std::nullopt;
  bool core = false;
  std::optional<QualType> elem;
  // The core by its type (its name may be a macro of the program's), the
  // element by its reserved name (docs/lowering.md, "Names").
  for (const FieldDecl *fd : rd->fields()) {
    const auto *ct = fd->getType()->getAs<RecordType>();
    if (ct && ct->getDecl()->getName() == "wuc_chan") {
      core = true;
    } else if (fd->getName() == "__wuc_elem") {
      if (const ArrayType *at = ctx_->getAsArrayType(fd->getType())) elem = at->getElementType();
    }
  }
  if (!core || !elem) return std::nullopt;
  return elem;
}

std::optional<QualType> Analysis::channelElem(QualType t, bool *isPointer) const {
  if (isPointer) *isPointer = false;
  if (auto e = channelObjectElem(t)) return e;
  if (const auto *pt = t->getAs<PointerType>()) {
    if (auto e = channelObjectElem(pt->getPointeeType())) {
      if (isPointer) *isPointer = true;
      return e;
    }
  }
  return std::nullopt;
}

std::optional<QualType> Analysis::futureValue(QualType t) const {
  const auto *rt = t->getAs<RecordType>();
  if (!rt) return std::nullopt;
  const RecordDecl *rd = rt->getDecl()->getDefinition();
  if (!rd || !rd->isStruct()) return std::nullopt;
  bool core = false;
  std::optional<QualType> value;
  for (const FieldDecl *fd : rd->fields()) {
    const auto *ct = fd->getType()->getAs<RecordType>();
    if (ct && ct->getDecl()->getName() == "wuc_future") {
      core = true;
    } else if (fd->getName() == "value") {
      value = fd->getType();
    }
  }
  if (!core || !value) return std::nullopt;
  return value;
}

// Reads a WUC_SELECTABLE constant: T from register_select's first parameter,
// the function names from its initializer.
static std::optional<Trait> readTrait(const VarDecl *vd) {
  bool annotated = false;
  for (const auto *a : vd->specific_attrs<AnnotateAttr>())
    if (a->getAnnotation() == "wuc_selectable") annotated = true;
  if (!annotated) return std::nullopt;
  const auto *rt = vd->getType()->getAs<RecordType>();
  if (!rt) return std::nullopt;
  Trait t;
  for (const FieldDecl *fd : rt->getDecl()->fields()) {
    if (fd->getName() != "__wuc_register_select") continue;
    const auto *pt = fd->getType()->getAs<PointerType>();
    const auto *fn = pt ? pt->getPointeeType()->getAs<FunctionProtoType>() : nullptr;
    if (!fn || fn->getNumParams() < 1) return std::nullopt;
    const auto *param = fn->getParamType(0)->getAs<PointerType>();
    if (!param) return std::nullopt;
    t.type = param->getPointeeType().getCanonicalType().getUnqualifiedType();
  }
  if (t.type.isNull()) return std::nullopt;
  t.var = vd->getName().str();
  t.loc = vd->getLocation();
  // Three plain function names (or &name); anything else: names unknown.
  const Expr *init = vd->getInit();
  const auto *list = init ? dyn_cast<InitListExpr>(init->IgnoreImplicit()) : nullptr;
  std::string names[3];
  bool plain = list && list->getNumInits() == 3;
  for (unsigned i = 0; plain && i < 3; i++) {
    const Expr *e = list->getInit(i)->IgnoreParenImpCasts();
    if (const auto *uo = dyn_cast<UnaryOperator>(e))
      if (uo->getOpcode() == UO_AddrOf) e = uo->getSubExpr()->IgnoreParenImpCasts();
    const auto *ref = dyn_cast<DeclRefExpr>(e);
    const auto *fd = ref ? dyn_cast<FunctionDecl>(ref->getDecl()) : nullptr;
    if (fd)
      names[i] = fd->getName().str();
    else
      plain = false;
  }
  if (plain) {
    t.reg = names[0];
    t.unreg = names[1];
    t.sel = names[2];
  }
  return t;
}

void Analysis::collectFileScope() {
  static const char *const kBuiltin[] = {"wuc_chan_recv_clause", "wuc_chan_send_clause",
                                         "wuc_chan_closed_clause", "wuc_timeout", "wuc_fd_clause"};
  const SourceManager &sm = ctx_->getSourceManager();
  for (const Decl *d : ctx_->getTranslationUnitDecl()->decls()) {
    if (const auto *vd = dyn_cast<VarDecl>(d)) {
      if (auto t = readTrait(vd)) {
        // The first declaration for a type is the one that counts.
        traits_.emplace(t->type.getTypePtr(), std::move(*t));
      }
    } else if (const auto *td = dyn_cast<TypedefNameDecl>(d)) {
      for (const char *name : kBuiltin)
        if (td->getName() == name) builtinTypes_[name] = td->getUnderlyingType();
    } else if (const auto *fd = dyn_cast<FunctionDecl>(d)) {
      // Markers are in the probe's own functions, never in headers.
      if (fd->doesThisDeclarationHaveABody() &&
          sm.getFileID(sm.getExpansionLoc(fd->getLocation())) == sm.getMainFileID())
        collectMarkers(fd->getBody());
    }
  }
}

// The struct definitions the frontend inserted for channel(T) / future(T)
// (docs/language.md, 'Types'): Clang's first error inside one is reported
// at the type's first use (T is not valid where the definition stands), and
// an array T is refused there (C cannot assign arrays: no operation on the
// channel or future could work).
void Analysis::checkTypeDefinitions() {
  struct Use {
    unsigned offset; // the first channel(T) / future(T) with this tag
    Range range;
    bool reported = false;
  };
  std::map<std::string, Use> uses;
  for (const Edit &e : fe_.edits) {
    if (e.kind != Edit::ChannelType && e.kind != Edit::FutureType) continue;
    std::string tag = e.text;
    tag.erase(0, tag.find_first_not_of(' '));
    tag.erase(tag.find_last_not_of(' ') + 1);
    if (tag.compare(0, 7, "struct ") != 0) continue;
    uses.emplace(tag.substr(7), Use{e.range.begin, e.range});
  }
  if (uses.empty()) return;
  auto written = [&](const Use &u) {
    std::string text(file_.slice(u.range));
    for (char &c : text)
      if (c == '\n' || c == '\t' || c == '\r') c = ' ';
    return text.size() > 80 ? text.substr(0, 77) + "..." : text;
  };

  // The definitions, at file scope and in function bodies, and the names
  // declared in function bodies (and parameters).
  std::vector<const RecordDecl *> records;
  std::set<std::string> localNames;
  auto take = [&](const Decl *d) {
    const auto *rd = dyn_cast<RecordDecl>(d);
    if (rd && rd->isThisDeclarationADefinition() && rd->getIdentifier() &&
        (rd->getName().startswith("wuc_channel_") || rd->getName().startswith("wuc_future_")))
      records.push_back(rd);
  };
  std::vector<const Stmt *> work;
  for (const Decl *d : ctx_->getTranslationUnitDecl()->decls()) {
    take(d);
    if (const auto *fd = dyn_cast<FunctionDecl>(d))
      if (fd->doesThisDeclarationHaveABody()) {
        work.push_back(fd->getBody());
        for (const ParmVarDecl *pd : fd->parameters())
          if (pd->getIdentifier()) localNames.insert(pd->getName().str());
      }
  }
  while (!work.empty()) {
    const Stmt *st = work.back();
    work.pop_back();
    if (!st) continue;
    if (const auto *ds = dyn_cast<DeclStmt>(st))
      for (const Decl *d : ds->decls()) {
        take(d);
        if (const auto *nd = dyn_cast<NamedDecl>(d))
          if (nd->getIdentifier()) localNames.insert(nd->getName().str());
      }
    for (const Stmt *kid : st->children()) work.push_back(kid);
  }

  // Clang's errors on the line of an inserted definition, which starts
  // with its macro (sema/probe.cpp puts each on a line of its own), when
  // they name something declared in a function (T depends on the function
  // in a way the frontend did not see) or say T is incomplete.  Other errors there (a type only gcc
  // knows, a name declared nowhere) are the back-end compiler's to judge.
  auto namesLocal = [&](const std::string &message) {
    std::string word;
    bool quoted = false; // the names Clang quotes: 'x', 'struct pt'
    for (size_t k = 0; k <= message.size(); k++) {
      const char c = k < message.size() ? message[k] : ' ';
      if (quoted && (std::isalnum((unsigned char)c) || c == '_')) {
        word += c;
        continue;
      }
      if (!word.empty() && localNames.count(word)) return true;
      word.clear();
      if (c == '\'') quoted = !quoted;
    }
    return false;
  };
  const std::string &probe = probe_.text;
  for (const ClangError &e : errors_) {
    if (!e.inMain || e.offset < probe_.userBegin || e.offset > probe.size()) continue;
    size_t line = probe.rfind('\n', e.offset == 0 ? 0 : e.offset - 1);
    line = line == std::string::npos ? 0 : line + 1;
    size_t open = std::string::npos;
    for (const char *macro :
         {"WUC_CHANNEL_STRUCT(", "WUC_FUTURE_STRUCT(", "WUC_FUTURE_LOCAL_STRUCT("}) {
      size_t n = std::char_traits<char>::length(macro);
      if (probe.compare(line, n, macro) == 0) open = line + n;
    }
    if (open == std::string::npos) continue;
    size_t comma = probe.find(',', open);
    if (comma == std::string::npos) continue;
    auto u = uses.find(probe.substr(open, comma - open));
    if (u == uses.end() || u->second.reported) continue;
    // An incomplete T (declared later, or never): the definition needs it
    // complete at the first use (docs/language.md, 'Types').
    const bool incomplete = e.message.find("incomplete") != std::string::npos;
    if (!incomplete && !namesLocal(e.message)) continue;
    u->second.reported = true;
    // "'typeof(struct later)' (aka 'struct later')": the macro's typeof is
    // none of the user's business.
    std::string message = e.message;
    const size_t t = message.find("'typeof("), aka = message.find("' (aka '");
    if (t != std::string::npos && aka != std::string::npos && aka > t) {
      const size_t close = message.find("')", aka + 8);
      if (close != std::string::npos)
        message = message.substr(0, t) + message.substr(aka + 7, close + 1 - (aka + 7)) +
                  message.substr(close + 2);
    }
    error(u->second.offset,
          format(incomplete ? msg::ElementTypeIncomplete : msg::ElementTypeInvalid,
                 written(u->second), message));
  }

  for (const RecordDecl *rd : records) {
    auto u = uses.find(rd->getName().str());
    if (u == uses.end() || u->second.reported) continue;
    QualType type = ctx_->getRecordType(rd);
    std::optional<QualType> elem = channelObjectElem(type);
    if (!elem) elem = futureValue(type);
    if (!elem || !ctx_->getAsArrayType(*elem)) continue;
    u->second.reported = true;
    error(u->second.offset, format(msg::ArrayElement, written(u->second),
                                   elem->getCanonicalType().getAsString(*policy_)));
  }
}

// One tag per canonical element type (docs/language.md, "Types"): each
// channel and future struct the frontend defined at file scope, named by
// its element type as Clang prints the canonical type.  Inner types are
// defined before the types holding them, so their new tags are known when
// an outer type's element names them.
void Analysis::computeTypeTags() {
  PrintingPolicy p(ctx_->getLangOpts());
  p.AnonymousTagLocations = false;
  p.SuppressTagKeyword = false;
  p.Bool = false; // _Bool under every -std, so every file names it alike
  // Tags with a definition inside a function: T is local to it, so the tag
  // is too (the frontend defines it in the block).
  std::set<std::string> local;
  std::vector<const Stmt *> work;
  for (const Decl *d : ctx_->getTranslationUnitDecl()->decls())
    if (const auto *fd = dyn_cast<FunctionDecl>(d))
      if (fd->doesThisDeclarationHaveABody()) work.push_back(fd->getBody());
  while (!work.empty()) {
    const Stmt *st = work.back();
    work.pop_back();
    if (!st) continue;
    if (const auto *ds = dyn_cast<DeclStmt>(st))
      for (const Decl *d : ds->decls())
        if (const auto *rd = dyn_cast<RecordDecl>(d))
          if (rd->getIdentifier() && sema::isTypeTag(rd->getName()))
            local.insert(rd->getName().str());
    for (const Stmt *kid : st->children()) work.push_back(kid);
  }
  for (const Decl *d : ctx_->getTranslationUnitDecl()->decls()) {
    const auto *rd = dyn_cast<RecordDecl>(d);
    if (!rd || !rd->isThisDeclarationADefinition() || !rd->getIdentifier()) continue;
    std::string name = rd->getName().str();
    if (!sema::isTypeTag(name) || local.count(name) || out_.typeTags.count(name)) continue;
    QualType type = ctx_->getRecordType(rd);
    bool chan = true;
    std::optional<QualType> elem = channelObjectElem(type);
    if (!elem) {
      elem = futureValue(type);
      chan = false;
    }
    if (!elem || elem->isNull() || ctx_->getAsArrayType(*elem)) continue;
    std::string printed =
        sema::renameIdentifiers(elem->getCanonicalType().getAsString(p), out_.typeTags);
    std::string tag = sema::canonicalTypeTag(chan, printed);
    if (!tag.empty()) out_.typeTags[name] = tag;
  }
}

void Analysis::collectMarkers(const Stmt *s) {
  if (!s) return;
  if (const auto *call = dyn_cast<CallExpr>(s)) {
    const FunctionDecl *callee = call->getDirectCallee();
    if (callee && callee->getName() == sema::kProbeMarker && call->getNumArgs() == 4) {
      unsigned ids[3];
      bool ok = true;
      for (unsigned i = 0; i < 3; i++) {
        const auto *lit = dyn_cast<IntegerLiteral>(call->getArg(i)->IgnoreParenImpCasts());
        if (lit)
          ids[i] = unsigned(lit->getValue().getZExtValue());
        else
          ok = false;
      }
      // Not IgnoreParens: it looks through a ChooseExpr to the chosen `0`.
      const auto *choose = dyn_cast<ChooseExpr>(call->getArg(3)->IgnoreImpCasts());
      if (ok && choose && choose->getLHS() && ids[2] < 3) {
        auto m = std::make_unique<Marker>();
        m->operand = choose->getLHS()->IgnoreParens();
        m->loc = call->getBeginLoc();
        markers_[{ids[0], ids[1]}].side[ids[2]] = m.get();
        markerStore_.push_back(std::move(m));
      }
      return;
    }
  }
  for (const Stmt *child : s->children()) collectMarkers(child);
}

const Trait *Analysis::traitFor(QualType t, SourceLocation use, bool *onlyLater) const {
  auto it = traits_.find(t.getCanonicalType().getUnqualifiedType().getTypePtr());
  if (it == traits_.end()) return nullptr;
  // The generated code names the trait at the statement: it must come first.
  if (!ctx_->getSourceManager().isBeforeInTranslationUnit(it->second.loc, use)) {
    if (onlyLater) *onlyLater = true;
    return nullptr;
  }
  return &it->second;
}

const Trait *Analysis::builtinTrait(const char *typedefName) const {
  auto it = builtinTypes_.find(typedefName);
  if (it == builtinTypes_.end()) return nullptr;
  auto t = traits_.find(it->second.getCanonicalType().getUnqualifiedType().getTypePtr());
  return t == traits_.end() ? nullptr : &t->second;
}

void Analysis::setTrait(ClauseFacts &f, const Trait *t) const {
  if (!t) return;
  f.traitVar = t->var;
  f.registerFn = t->reg;
  f.unregisterFn = t->unreg;
  f.onSelectedFn = t->sel;
}

// Clang saw a problem in e that it reported elsewhere (an invalid
// declaration it refers to): the back end reports it; say nothing more.
bool Analysis::hasErrors(const Expr *e) const {
  if (!e || e->containsErrors()) return true;
  struct Finder {
    static bool invalid(const Stmt *s) {
      if (!s) return false;
      if (const auto *ref = dyn_cast<DeclRefExpr>(s))
        if (ref->getDecl()->isInvalidDecl()) return true;
      if (const auto *me = dyn_cast<MemberExpr>(s))
        if (me->getMemberDecl()->isInvalidDecl()) return true;
      for (const Stmt *c : s->children())
        if (invalid(c)) return true;
      return false;
    }
  };
  return Finder::invalid(e);
}

void Analysis::shift(const Clause &c, const Marker &lhs, const Marker &rhs, ClauseFacts &f) {
  const Expr *a = lhs.operand, *b = rhs.operand;
  QualType ta = a->getType(), tb = b->getType();
  bool aPtr = false, bPtr = false;
  std::optional<QualType> elemA = channelElem(ta, &aPtr), elemB = channelElem(tb, &bPtr);
  if (!elemA && !elemB) {
    error(c.shiftOffset, format(msg::ShiftWithoutChannel, spell(ta), spell(tb)));
    return;
  }
  // A channel of arrays is reported where its type is (ArrayElement).
  if ((elemA && ctx_->getAsArrayType(*elemA)) || (elemB && ctx_->getAsArrayType(*elemB))) return;
  // Receive: b a channel of T, a a modifiable lvalue that a T can be assigned to.
  bool targetModifiable = a->isModifiableLvalue(*ctx_) == Expr::MLV_Valid;
  bool recv = elemB && targetModifiable &&
              sema_->CheckAssignmentConstraints(lhs.loc, ta, elemB->getUnqualifiedType()) ==
                  Sema::Compatible;
  // Send: a a channel of T, b assignable to a T (null pointer constants too).
  bool send = false;
  if (!recv && elemA) {
    ExprResult value(const_cast<Expr *>(b));
    send = sema_->CheckSingleAssignmentConstraints(elemA->getUnqualifiedType(), value,
                                                   /*Diagnose=*/false,
                                                   /*DiagnoseCFAudited=*/false,
                                                   /*ConvertRHS=*/false) == Sema::Compatible;
  }
  if (!recv && !send) {
    if (elemB && !elemA) {
      if (!targetModifiable)
        error(c.shiftOffset, format(msg::RecvTargetNotModifiable, spell(ta)));
      else
        error(c.shiftOffset, format(msg::RecvIncompatible, spell(*elemB), spell(ta)));
    } else {
      error(c.shiftOffset, format(msg::SendIncompatible, spell(tb), spell(*elemA)));
    }
    return;
  }
  const Expr *chan = recv ? b : a;
  Range chanRange = recv ? c.rhs : c.lhs;
  bool chanPtr = recv ? bPtr : aPtr;
  QualType elem = recv ? *elemB : *elemA;
  f.kind = recv ? ClauseFacts::Recv : ClauseFacts::Send;
  f.channelIsPointer = chanPtr;
  f.operandType = spell(chan->getType());
  f.elementType = spell(elem);
  setTrait(f, builtinTrait(recv ? "wuc_chan_recv_clause" : "wuc_chan_send_clause"));
  if (recv) {
    // In place only into a plain object of the element type: the runtime
    // copies bytes, which a volatile target must not see.
    f.recvInPlace = ctx_->hasSameUnqualifiedType(ta, elem) && !ta.isVolatileQualified();
    // A register variable has no address: received into a temporary, then
    // assigned by name.
    if (const auto *ref = dyn_cast<DeclRefExpr>(a->IgnoreParens()))
      if (const auto *var = dyn_cast<VarDecl>(ref->getDecl()))
        if (var->getStorageClass() == SC_Register) {
          f.recvTargetIsRegister = true;
          f.recvInPlace = false;
        }
    if (a->getSourceBitField()) {
      error(start(c.lhs), msg::RecvIntoBitField);
      f.kind = ClauseFacts::Invalid;
      return;
    }
  }
  if (!chanPtr && !chan->isLValue()) {
    error(start(chanRange), format(msg::OperandNotLvalue, spell(chan->getType())));
    f.kind = ClauseFacts::Invalid;
    return;
  }
  QualType chanObj =
      chanPtr ? chan->getType()->getAs<PointerType>()->getPointeeType() : chan->getType();
  if (chanObj.isConstQualified()) {
    error(start(chanRange), format(msg::ResourceConst, spell(chan->getType())));
    f.kind = ClauseFacts::Invalid;
  }
}

void Analysis::closed(const Clause &c, const Marker &m, ClauseFacts &f) {
  QualType t = m.operand->getType();
  bool isPtr = false;
  std::optional<QualType> elem = channelElem(t, &isPtr);
  if (!elem) {
    error(start(c.arg), format(msg::ClosedNeedsChannel, spell(t)));
    return;
  }
  if (!isPtr && !m.operand->isLValue()) {
    error(start(c.arg), format(msg::OperandNotLvalue, spell(t)));
    return;
  }
  QualType obj = isPtr ? t->getAs<PointerType>()->getPointeeType() : t;
  if (obj.isConstQualified()) {
    error(start(c.arg), format(msg::ResourceConst, spell(t)));
    return;
  }
  f.kind = ClauseFacts::Closed;
  f.channelIsPointer = isPtr;
  f.operandType = spell(t);
  f.elementType = spell(*elem);
  setTrait(f, builtinTrait("wuc_chan_closed_clause"));
}

void Analysis::timeout(const Clause &c, const Marker &m, ClauseFacts &f) {
  QualType t = m.operand->getType();
  if (!t->isArithmeticType()) {
    error(start(c.arg), format(msg::TimeoutNeedsDuration, spell(t)));
    return;
  }
  f.kind = ClauseFacts::Timeout;
  f.operandType = spell(t);
  setTrait(f, builtinTrait("wuc_timeout"));
}

// readable(fd) / writable(fd): an integer fd, converted to int by
// wuc_readable_make / wuc_writable_make (<wuc/fd.h>).  Enumerations and
// _Bool are integers too; pointers, floating values and structs are not.
void Analysis::fd(const Clause &c, const Marker &m, ClauseFacts &f) {
  const bool readable = c.form == ClauseForm::Readable;
  QualType t = m.operand->getType();
  if (!t->isIntegerType()) {
    error(start(c.arg), format(msg::FdNeedsInteger, readable ? "readable" : "writable", spell(t)));
    return;
  }
  f.kind = readable ? ClauseFacts::Readable : ClauseFacts::Writable;
  f.operandType = spell(t);
  setTrait(f, builtinTrait("wuc_fd_clause"));
}

void Analysis::resource(const Clause &c, const Marker &m, ClauseFacts &f) {
  const Expr *e = m.operand;
  QualType t = e->getType();
  QualType obj = t;
  bool isPtr = false;
  if (const auto *pt = t->getAs<PointerType>()) {
    obj = pt->getPointeeType();
    isPtr = true;
  }
  unsigned at = start(c.operand);
  if (channelObjectElem(obj)) {
    error(at, msg::ChannelWithoutShift);
    return;
  }
  // The type's own trait, else its first member's (recursively): a struct
  // that starts with a selectable object is selectable through it.
  bool onlyLater = false;
  std::vector<std::string> path;
  const Trait *trait = nullptr;
  QualType cur = obj;
  for (;;) {
    trait = traitFor(cur, m.loc, &onlyLater);
    if (trait) break;
    const auto *rt = cur->getAs<RecordType>();
    const RecordDecl *rd = rt ? rt->getDecl()->getDefinition() : nullptr;
    if (!rd || !rd->isStruct() || rd->field_empty()) break;
    const FieldDecl *first = *rd->field_begin();
    if (first->isBitField() || !first->getType()->getAs<RecordType>()) break;
    // An anonymous struct member adds no name: its members are the outer's.
    if (!first->isAnonymousStructOrUnion()) path.push_back(first->getName().str());
    cur = first->getType();
  }
  if (!trait) {
    // Named as the type that needs the declaration: a pointer's pointee.
    error(at, format(onlyLater ? msg::NotSelectableYet : msg::NotSelectable, spell(obj)));
    return;
  }
  if (!isPtr && !e->isLValue()) {
    error(at, format(msg::OperandNotLvalue, spell(t)));
    return;
  }
  if (obj.isConstQualified()) {
    error(at, format(msg::ResourceConst, spell(t)));
    return;
  }
  f.kind = ClauseFacts::Resource;
  f.resourceIsPointer = isPtr;
  f.memberPath = std::move(path);
  f.operandType = spell(t);
  setTrait(f, trait);
}

void Analysis::classify(const WaitUntil &w, const Clause &c, ClauseFacts &f) {
  auto it = markers_.find({w.id, c.index});
  const Marker *m0 = it == markers_.end() ? nullptr : it->second.side[0];
  const Marker *m1 = it == markers_.end() ? nullptr : it->second.side[1];
  bool shift = c.form == ClauseForm::Shift;
  if (!m0 || (shift && !m1)) {
    // Clang never saw the clause: an inactive #if branch, or code dropped
    // after an error elsewhere that the back end reports.
    f.unseen = true;
    return;
  }
  if (hasErrors(m0->operand) || (shift && hasErrors(m1->operand))) return;
  // A family's index is stored per element and declared again in the body:
  // an integer or a pointer (docs/language.md, "Clause families").
  const Marker *mi = it->second.side[2];
  if (c.family && mi && !hasErrors(mi->operand) && !mi->operand->getType()->isScalarType()) {
    error(start(c.indexName), format(msg::FamilyIndexType, spell(mi->operand->getType())));
    return;
  }
  switch (c.form) {
  case ClauseForm::Shift:
    this->shift(c, *m0, *m1, f);
    if (c.family && f.kind == ClauseFacts::Recv && f.recvTargetIsRegister) {
      error(start(c.lhs), msg::FamilyRegisterTarget);
      f.kind = ClauseFacts::Invalid;
    }
    return;
  case ClauseForm::Closed:
    return closed(c, *m0, f);
  case ClauseForm::Timeout:
    return timeout(c, *m0, f);
  case ClauseForm::Readable:
  case ClauseForm::Writable:
    return fd(c, *m0, f);
  case ClauseForm::Resource:
    return resource(c, *m0, f);
  }
}

void Analysis::run(ASTContext &ctx, Sema &sema) {
  parsed = true;
  ctx_ = &ctx;
  sema_ = &sema;
  policy_ = std::make_unique<PrintingPolicy>(ctx.getLangOpts());
  policy_->AnonymousTagLocations = false;
  collectFileScope();
  checkTypeDefinitions();
  computeTypeTags();

  // Clang's first error inside each clause's operands.
  std::map<std::pair<unsigned, unsigned>, const ClangError *> operandError;
  std::map<std::pair<unsigned, unsigned>, const sema::ProbePiece *> operandPiece;
  for (const ClangError &e : errors_) {
    if (!e.inMain) continue;
    const sema::ProbePiece *p = sema::pieceAt(probe_, e.offset);
    if (!p) continue;
    auto key = std::make_pair(p->stmt, p->clause);
    if (operandError.emplace(key, &e).second) operandPiece[key] = p;
  }

  out_.statements.assign(fe_.statements.size(), {});
  for (const WaitUntil &w : fe_.statements) {
    std::vector<ClauseFacts> &facts = out_.statements[w.id];
    facts.assign(w.clauses.size(), ClauseFacts());
    for (const Clause &c : w.clauses) {
      ClauseFacts &f = facts[c.index];
      auto err = operandError.find({w.id, c.index});
      if (err != operandError.end()) {
        const sema::ProbePiece &p = *operandPiece[err->first];
        unsigned at = sema::mapToOriginal(probe_, p, err->second->offset);
        error(at, format(msg::OperandError, err->second->message));
        continue;
      }
      classify(w, c, f);
    }
  }
  retagTraits();
}

// A future's trait is named after its struct's tag (WUC_FUTURE_STRUCT:
// <tag>_register, wuc_selectable_trait_<tag>_register): the names the
// lowered C declares are those of the canonical tag.
void Analysis::retagTraits() {
  auto retag = [&](std::string &name) {
    for (const char *prefix : {"", "wuc_selectable_trait_"}) {
      const size_t p = std::char_traits<char>::length(prefix);
      if (name.compare(0, p, prefix) != 0) continue;
      for (const char *suffix : {"_register", "_unregister", "_on_selected"}) {
        const size_t n = std::char_traits<char>::length(suffix);
        if (name.size() <= p + n || name.compare(name.size() - n, n, suffix) != 0) continue;
        auto it = out_.typeTags.find(name.substr(p, name.size() - n - p));
        if (it != out_.typeTags.end()) {
          name = prefix + it->second + suffix;
          return;
        }
      }
    }
  };
  for (auto &stmt : out_.statements)
    for (ClauseFacts &f : stmt) {
      retag(f.traitVar);
      retag(f.registerFn);
      retag(f.unregisterFn);
      retag(f.onSelectedFn);
    }
}

class Consumer : public ASTConsumer {
public:
  Consumer(CompilerInstance &ci, Analysis &a) : ci_(ci), a_(a) {}
  void HandleTranslationUnit(ASTContext &ctx) override {
    if (ci_.hasSema()) a_.run(ctx, ci_.getSema());
  }

private:
  CompilerInstance &ci_;
  Analysis &a_;
};

class Action : public ASTFrontendAction {
public:
  explicit Action(Analysis &a) : a_(a) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &ci, llvm::StringRef) override {
    return std::make_unique<Consumer>(ci, a_);
  }

private:
  Analysis &a_;
};

// The user's flags that shape what the preprocessor and Sema see.  Anything
// else (output, linking, code generation, warnings) has no business in a
// syntax check, and a flag Clang does not know would stop it.  `core`: only
// the preprocessor's paths and macros (the retry after Clang refused the
// fuller set, e.g. a gcc-only -march= or a -std= Clang 14 does not know).
void userArgs(const std::vector<std::string> &in, bool core, std::vector<std::string> &out) {
  static const char *const kWithValue[] = {"-I",        "-D",       "-U",      "-include",
                                           "-imacros",  "-isystem", "-iquote", "-idirafter",
                                           "-isysroot", "--sysroot"};
  static const char *const kPrefixCore[] = {"-I", "-D", "-U", "-isystem", "-iquote", "-idirafter"};
  static const char *const kPrefixMore[] = {
      "-std=", "--std=", "--sysroot=", "-march=", "-mtune=", "-fno-builtin-", "-fpack-struct"};
  static const char *const kExactCore[] = {"-nostdinc", "-undef"};
  static const char *const kExactMore[] = {"-ansi",
                                           "-pthread",
                                           "-m32",
                                           "-m64",
                                           "-funsigned-char",
                                           "-fsigned-char",
                                           "-fms-extensions",
                                           "-fgnu89-inline",
                                           "-fshort-enums",
                                           "-fshort-wchar",
                                           "-fno-builtin",
                                           "-fdollars-in-identifiers",
                                           "-fno-dollars-in-identifiers"};
  auto prefixed = [](const std::string &a, const char *p) {
    size_t n = std::char_traits<char>::length(p);
    return a.size() > n && a.compare(0, n, p) == 0;
  };
  for (size_t i = 0; i < in.size(); i++) {
    const std::string &a = in[i];
    bool keep = false, withValue = false;
    for (const char *w : kWithValue) withValue |= a == w;
    if (withValue) {
      if (i + 1 < in.size()) {
        out.push_back(a);
        out.push_back(in[++i]);
      }
      continue;
    }
    for (const char *e : kExactCore) keep |= a == e;
    for (const char *p : kPrefixCore) keep |= prefixed(a, p);
    if (!core) {
      for (const char *e : kExactMore) keep |= a == e;
      for (const char *p : kPrefixMore) keep |= prefixed(a, p);
    }
    if (keep) out.push_back(a);
  }
}

unsigned offsetOf(const SourceFile &file, unsigned line, unsigned col) {
  std::string_view text = file.lineText(line);
  if (text.data() == nullptr) return 0;
  unsigned begin = unsigned(text.data() - file.text().data());
  return begin + std::min<unsigned>(col - 1, unsigned(text.size()));
}

} // namespace

bool analyse(const SourceFile &file, const FrontendResult &fe, const SemaOptions &opts,
             DiagEngine &diags, SemaFacts &out) {
  sema::Probe probe = sema::buildProbe(file, fe);
  if (opts.probeText) *opts.probeText = probe.text;
  out.statements.assign(fe.statements.size(), {});
  out.typeTags.clear();
  for (const WaitUntil &w : fe.statements) {
    out.statements[w.id].assign(w.clauses.size(), ClauseFacts());
    for (ClauseFacts &f : out.statements[w.id]) f.unseen = true;
  }

  // The probe stands in for the source file at the same path, so that
  // #include "..." finds what it finds next to the source.
  std::string path = !opts.probePath.empty()                     ? opts.probePath
                     : file.path().empty() || file.path() == "-" ? "wuc-stdin.c"
                                                                 : file.path();
  llvm::SmallString<256> abs(path);
  llvm::sys::fs::make_absolute(abs);
  path = std::string(abs.str());

  std::string include =
      opts.wucIncludeDir.empty() ? WUC_SEMA_DEFAULT_INCLUDE_DIR : opts.wucIncludeDir;
  std::string resources =
      opts.resourceDir.empty() ? WUC_SEMA_DEFAULT_RESOURCE_DIR : opts.resourceDir;
  auto command = [&](bool core) {
    // No -std of its own: the back end's default (gnu17 for gcc 12 and
    // Clang 14) unless the user gives one.
    std::vector<std::string> cmd = {"wucc-sema", "-x", "c"};
    userArgs(opts.compilerArgs, core, cmd);
    if (!include.empty()) cmd.insert(cmd.end(), {"-I", include});
    if (!resources.empty()) cmd.insert(cmd.end(), {"-resource-dir", resources});
    // No caret display: it is also what prints "N errors generated".
    // The probe nests a block per nested statement: lift clang's default
    // bracket limit (256) above what the frontend allows (131072 levels,
    // frontend.cpp's kMaxNesting) plus the probe's own (at most 64 nested
    // statements, a few levels each), on a stack big enough for it
    // (kClangStackSizes).
    cmd.insert(cmd.end(), {"-ferror-limit=0", "-w", "-fno-caret-diagnostics",
                           "-fbracket-depth=132096", "-fsyntax-only", path});
    return cmd;
  };

  auto overlay =
      llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  overlay->pushOverlay(memory);
  memory->addFile(path, 0, llvm::MemoryBuffer::getMemBufferCopy(probe.text, path));
  auto files = llvm::makeIntrusiveRefCnt<FileManager>(FileSystemOptions(), overlay);

  ErrorCollector collector;
  collector.presumedFile = file.path();
  std::unique_ptr<Analysis> analysis;
  std::string refused; // why Clang did not start with the user's full flags
  for (bool core : {false, true}) {
    collector.errors.clear();
    analysis = std::make_unique<Analysis>(file, fe, probe, collector.errors, out);
    tooling::ToolInvocation invocation(command(core), std::make_unique<Action>(*analysis),
                                       files.get());
    invocation.setDiagnosticConsumer(&collector);
    runOnBigStack([&] { invocation.run(); });
    if (analysis->parsed) break;
    if (refused.empty() && !collector.errors.empty()) refused = collector.errors.front().message;
  }

  auto unseen = [&] {
    out.typeTags.clear();
    for (auto &stmt : out.statements)
      for (ClauseFacts &f : stmt) f = ClauseFacts(), f.unseen = true;
  };
  if (!analysis->parsed || (!collector.errors.empty() && collector.errors.front().inMain &&
                            collector.errors.front().offset < probe.userBegin)) {
    // Clang could not read the probe at all (a bad flag, <wuc.h> missing):
    // nothing is known about any clause.
    unseen();
    if (fe.statements.empty()) return true;
    std::string why = !analysis->parsed && !refused.empty() ? refused
                      : !collector.errors.empty()           ? collector.errors.front().message
                                                            : "clang failed";
    diags.error(0, format(msg::ProbeFailed, why));
    return false;
  }
  for (const ClangError &e : collector.errors) {
    if (e.fatal) {
      // After a fatal error (a missing header) Clang goes on without saying
      // anything more: its AST is not to be trusted, and the statements
      // cannot be lowered.  Say why, where #line puts it in the source.
      unseen();
      if (fe.statements.empty()) return true;
      diags.error(e.inMain && e.line ? offsetOf(file, e.line, e.col) : 0,
                  format(msg::ProbeFailed, e.message));
      return false;
    }
  }
  // In source order: a nested statement's clauses come between its outer
  // statement's clauses.
  std::stable_sort(analysis->diags.begin(), analysis->diags.end(),
                   [](const SemaError &a, const SemaError &b) { return a.offset < b.offset; });
  for (const SemaError &d : analysis->diags) diags.error(d.offset, d.message);
  return analysis->diags.empty();
}

} // namespace wuc
