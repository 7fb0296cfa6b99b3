// wucc's command line: which flags go where (docs/language.md §1).
#include <gtest/gtest.h>

#include "driver_args.h"

namespace {

using wuc::DriverArgs;
using wuc::parseDriverArgs;
using Strings = std::vector<std::string>;

TEST(DriverArgs, LinkIsTheDefault) {
  DriverArgs d = parseDriverArgs({"prog.wc", "-o", "prog"}, nullptr);
  EXPECT_EQ(d.mode, DriverArgs::Mode::Link);
  EXPECT_EQ(d.sources, Strings{"prog.wc"});
  EXPECT_EQ(d.output, "prog");
  EXPECT_EQ(d.cc, "cc");
}

TEST(DriverArgs, ExtendedCIsWcAndC) {
  DriverArgs d = parseDriverArgs({"a.wc", "b.c", "c.o", "d.a", "e.s"}, nullptr);
  EXPECT_EQ(d.sources, (Strings{"a.wc", "b.c"}));
  EXPECT_EQ(d.passInputs, (Strings{"c.o", "d.a", "e.s"}));
}

TEST(DriverArgs, CompileSteps) {
  EXPECT_EQ(parseDriverArgs({"-c", "a.wc"}, nullptr).compileStep, "-c");
  EXPECT_EQ(parseDriverArgs({"-c", "-S", "a.wc"}, nullptr).compileStep, "-S");
  EXPECT_EQ(parseDriverArgs({"-S", "-E", "-c", "a.wc"}, nullptr).compileStep, "-E");
  EXPECT_EQ(parseDriverArgs({"--emit-c", "a.wc"}, nullptr).mode, DriverArgs::Mode::EmitC);
  EXPECT_EQ(parseDriverArgs({"-fsyntax-only", "a.wc"}, nullptr).mode, DriverArgs::Mode::SyntaxOnly);
}

TEST(DriverArgs, FlagsReachTheBackEndAndTheSemanticPass) {
  DriverArgs d = parseDriverArgs(
      {"-I", "inc", "-DX=1", "-O2", "-g", "-Wall", "-std=c11", "a.wc", "-L/l", "-lm", "-Wl,-z,now"},
      nullptr);
  EXPECT_EQ(d.compileFlags, (Strings{"-I", "inc", "-DX=1", "-O2", "-g", "-Wall", "-std=c11"}));
  EXPECT_EQ(d.semaFlags, (Strings{"-I", "inc", "-DX=1", "-std=c11"}));
  EXPECT_EQ(d.linkFlags, (Strings{"-L/l", "-lm", "-Wl,-z,now"}));
}

TEST(DriverArgs, BackEndCompiler) {
  EXPECT_EQ(parseDriverArgs({"a.wc"}, "clang-14").cc, "clang-14");
  EXPECT_EQ(parseDriverArgs({"--cc=gcc", "a.wc"}, "clang-14").cc, "gcc");
  EXPECT_EQ(parseDriverArgs({"a.wc"}, "").cc, "cc");
}

TEST(DriverArgs, MissingValues) {
  EXPECT_NE(parseDriverArgs({"a.wc", "-o"}, nullptr).error, "");
  EXPECT_NE(parseDriverArgs({"a.wc", "-I"}, nullptr).error, "");
  EXPECT_EQ(parseDriverArgs({"a.wc", "-oprog"}, nullptr).output, "prog");
}

} // namespace
