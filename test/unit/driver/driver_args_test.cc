// wucc's command line read as gcc reads it (docs/driver.md).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "driver_args.h"

namespace {

using wuc::DriverArgs;
using wuc::parseDriverArgs;
using Strings = std::vector<std::string>;
using Action = DriverArgs::Action;

Strings inputsOf(const DriverArgs &d) {
  Strings out;
  for (const auto &in : d.inputs) out.push_back(d.args[in.index]);
  return out;
}

TEST(DriverArgs, LinkIsTheDefault) {
  DriverArgs d = parseDriverArgs({"prog.wc", "-o", "prog"});
  EXPECT_EQ(d.action, Action::Link);
  EXPECT_EQ(inputsOf(d), Strings{"prog.wc"});
  EXPECT_EQ(d.output, "prog");
  EXPECT_TRUE(d.cc.empty());
}

TEST(DriverArgs, ActionsInGccsOrder) {
  EXPECT_EQ(parseDriverArgs({"-c", "a.c"}).action, Action::Compile);
  EXPECT_EQ(parseDriverArgs({"-c", "-S", "a.c"}).action, Action::Assemble);
  EXPECT_EQ(parseDriverArgs({"-S", "-E", "-c", "a.c"}).action, Action::Preprocess);
  EXPECT_EQ(parseDriverArgs({"-fsyntax-only", "-c", "a.c"}).action, Action::SyntaxOnly);
  // -M and -MM imply -E; -MD and -MMD do not.
  EXPECT_EQ(parseDriverArgs({"-MM", "-c", "a.c"}).action, Action::Preprocess);
  EXPECT_EQ(parseDriverArgs({"-MMD", "-c", "a.c"}).action, Action::Compile);
  EXPECT_TRUE(parseDriverArgs({"-MMD", "-c", "a.c"}).dependencies);
  // No input: a question for the back end.
  EXPECT_EQ(parseDriverArgs({"-dumpversion"}).action, Action::Info);
  EXPECT_EQ(parseDriverArgs({"-print-file-name=libc.so"}).action, Action::Info);
  EXPECT_EQ(parseDriverArgs({"-v"}).action, Action::Info);
  // A library is a linker input.
  EXPECT_EQ(parseDriverArgs({"-L.", "-lfoo", "-o", "prog"}).action, Action::Link);
}

TEST(DriverArgs, SeparateValuesAreNotInputs) {
  DriverArgs d = parseDriverArgs(
      {"-z", "now",     "-imacros", "f.h",      "-u",    "sym",      "-isysroot", "/",   "-iprefix",
       "d",  "--param", "k=v",      "-include", "g.h",   "-Xlinker", "x.o",       "-MF", "a.d",
       "-I", "inc",     "a.c",      "-o",       "a.out", "-l",       "m"});
  EXPECT_EQ(inputsOf(d), Strings{"a.c"});
  EXPECT_EQ(d.depFile, "a.d");
  EXPECT_EQ(d.output, "a.out");
  EXPECT_EQ(d.args.size(), 25u); // nothing is lost or reordered
}

TEST(DriverArgs, LanguageInForce) {
  DriverArgs d = parseDriverArgs({"a.wc", "-x", "c", "b.txt", "-xnone", "c.o", "-", "-x", "c"});
  ASSERT_EQ(d.inputs.size(), 4u);
  EXPECT_EQ(d.inputs[0].language, "");
  EXPECT_EQ(d.inputs[1].language, "c");
  EXPECT_EQ(d.inputs[2].language, "");
  EXPECT_EQ(d.args[d.inputs[3].index], "-");
  EXPECT_EQ(d.languageAtEnd, "c");
}

TEST(DriverArgs, WuccsOwnOptionsAreRemoved) {
  DriverArgs d = parseDriverArgs(
      {"--cc=ccache 'gcc 12' -m64", "--emit-c", "--keep-temps", "--dump-ast", "-O2", "a.wc"});
  EXPECT_EQ(d.cc, (Strings{"ccache", "gcc 12", "-m64"}));
  EXPECT_TRUE(d.emitC && d.keepTemps && d.dumpAst);
  EXPECT_EQ(d.args, (Strings{"-O2", "a.wc"}));
}

TEST(DriverArgs, ResponseFilesExpandInPlace) {
  const char *path = "driver_args_test.rsp";
  {
    std::ofstream rsp(path);
    rsp << "-c 'spaced name.c' -o \"rsp3.o\"\n -DX=a\\ b";
  }
  DriverArgs d = parseDriverArgs({"-O1", std::string("@") + path, "-g", "@missing.rsp"});
  std::remove(path);
  EXPECT_EQ(d.args, (Strings{"-O1", "-c", "spaced name.c", "-o", "rsp3.o", "-DX=a b", "-g",
                             "@missing.rsp"}));
  EXPECT_EQ(d.action, Action::Compile);
  EXPECT_EQ(d.output, "rsp3.o");
}

TEST(DriverArgs, CompileOptionsLeaveTheLinkOut) {
  DriverArgs d = parseDriverArgs({"-I", "inc", "-DX=1", "-O2", "a.wc", "-L/l", "-lm", "-l", "z",
                                  "-Wl,-z,now", "-z", "relro", "-shared", "-o", "x.so"});
  EXPECT_EQ(d.compileOptions(), (Strings{"-I", "inc", "-DX=1", "-O2"}));
}

TEST(DriverArgs, QuoteSearchDirs) {
  DriverArgs d = parseDriverArgs({"-Ia", "-iquote", "q", "-I", "b", "-isystem", "s", "-iquoter"});
  EXPECT_EQ(d.quoteSearchDirs(), (Strings{"q", "r", "a", "b"}));
}

TEST(DriverArgs, Standards) {
  EXPECT_EQ(parseDriverArgs({"-std=c99", "-std=gnu89", "a.c"}).standard, "gnu89");
  EXPECT_EQ(parseDriverArgs({"-ansi", "a.c"}).standard, "c89");
  EXPECT_TRUE(wuc::isPreC99Standard("c90"));
  EXPECT_TRUE(wuc::isPreC99Standard("iso9899:199409"));
  EXPECT_FALSE(wuc::isPreC99Standard("gnu99"));
  EXPECT_FALSE(wuc::isPreC99Standard(""));
}

TEST(DriverArgs, SanitizersInGccsOrder) {
  using Set = std::set<std::string>;
  EXPECT_EQ(parseDriverArgs({"a.wc"}).sanitizers(), Set{});
  EXPECT_EQ(parseDriverArgs({"-fsanitize=thread", "a.wc"}).sanitizers(), Set{"thread"});
  EXPECT_EQ(parseDriverArgs({"-fsanitize=address,undefined", "a.wc"}).sanitizers(),
            (Set{"address", "undefined"}));
  EXPECT_EQ(parseDriverArgs({"-fsanitize=address", "a.wc", "-fsanitize=undefined"}).sanitizers(),
            (Set{"address", "undefined"}));
  // -fno-sanitize= after takes names away; before, it does nothing.
  EXPECT_EQ(parseDriverArgs({"-fsanitize=address,undefined", "-fno-sanitize=address", "a.wc"})
                .sanitizers(),
            Set{"undefined"});
  EXPECT_EQ(parseDriverArgs({"-fno-sanitize=thread", "-fsanitize=thread", "a.wc"}).sanitizers(),
            Set{"thread"});
  EXPECT_EQ(parseDriverArgs({"-fsanitize=thread", "-fno-sanitize=all", "a.wc"}).sanitizers(),
            Set{});
  // An option's value is no option.
  EXPECT_EQ(parseDriverArgs({"-D", "-fsanitize=thread", "-Xlinker", "-fsanitize=address", "a.wc"})
                .sanitizers(),
            Set{});
}

TEST(DriverArgs, MissingValue) {
  EXPECT_NE(parseDriverArgs({"a.c", "-o"}).error, "");
  EXPECT_EQ(parseDriverArgs({"a.c", "-oprog"}).output, "prog");
}

TEST(SplitCommand, QuotesAndEscapes) {
  EXPECT_EQ(wuc::splitCommand("gcc -m64"), (Strings{"gcc", "-m64"}));
  EXPECT_EQ(wuc::splitCommand("  a 'b c' \"d\\\"e\" f\\ g "), (Strings{"a", "b c", "d\"e", "f g"}));
  EXPECT_EQ(wuc::splitCommand("''"), Strings{""});
  EXPECT_TRUE(wuc::splitCommand("   ").empty());
}

} // namespace
