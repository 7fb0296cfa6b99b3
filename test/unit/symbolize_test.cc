// symbolize_test.cc — runtime/symbolize.h: names of code addresses from the
// ELF symbol tables, and whether code came with the program.  The binary is
// linked without -rdynamic.
#include <gtest/gtest.h>

#include <symbolize.h>

#include <unistd.h>

#include <memory>
#include <string>

extern "C" int (*symbolize_static_probe_address(void))(int);
extern "C" const void *symbolize_static_data_address(unsigned i);
extern "C" const void *symbolize_static_bss_address(unsigned i);
extern "C" int symbolize_global_data;

// C++ mangles a `static` variable at namespace scope (_ZL17cpp_static_object):
// named as C would name it.
static int cpp_static_object[2];

namespace {

const void *Code(int (*fn)(int)) { return reinterpret_cast<const void *>(fn); }

TEST(Symbolize, NamesAStaticFunctionOfTheExecutable) {
  const void *fn = Code(symbolize_static_probe_address());
  const char *name = wuc_symbolize(fn);
  ASSERT_NE(name, nullptr);
  EXPECT_STREQ(name, "symbolize_static_probe");
  // An address inside the function names it too; a second look-up comes
  // from the cache and gives the same string.
  EXPECT_STREQ(wuc_symbolize(static_cast<const char *>(fn) + 1), "symbolize_static_probe");
  EXPECT_EQ(wuc_symbolize(fn), name);
}

TEST(Symbolize, NamesAFunctionOfASharedLibrary) {
  // libc has no .symtab on Debian: the name comes from its .dynsym (getpid
  // may have aliases such as __getpid).
  const char *name = wuc_symbolize(reinterpret_cast<const void *>(&getpid));
  ASSERT_NE(name, nullptr);
  EXPECT_NE(std::string(name).find("getpid"), std::string::npos) << name;
}

TEST(Symbolize, DataAndNullHaveNoName) {
  std::unique_ptr<int> heap(new int(1));
  int local = 0;
  EXPECT_EQ(wuc_symbolize(nullptr), nullptr);
  EXPECT_EQ(wuc_symbolize(heap.get()), nullptr);
  EXPECT_EQ(wuc_symbolize(&local), nullptr);
}

std::string DataName(const void *addr) {
  char buf[128];
  return wuc_symbolize_data(addr, buf, sizeof buf) ? buf : "(none)";
}

TEST(Symbolize, NamesStaticAndGlobalDataObjects) {
  EXPECT_EQ(DataName(symbolize_static_data_address(0)), "symbolize_static_data");
  EXPECT_EQ(DataName(symbolize_static_data_address(2)), "symbolize_static_data+8");
  EXPECT_EQ(DataName(&symbolize_global_data), "symbolize_global_data");
  EXPECT_EQ(DataName(symbolize_static_bss_address(0)), "symbolize_static_bss");
  EXPECT_EQ(DataName(symbolize_static_bss_address(3 * 4096 - 1)), "symbolize_static_bss+12287");
}

TEST(Symbolize, NamesACppStaticVariableByItsPlainName) {
  EXPECT_EQ(DataName(&cpp_static_object[1]), "cpp_static_object+4");
}

TEST(Symbolize, HeapStackCodeAndNullDataHaveNoName) {
  std::unique_ptr<int> heap(new int(1));
  int local = 0;
  char buf[64];
  EXPECT_FALSE(wuc_symbolize_data(nullptr, buf, sizeof buf));
  EXPECT_FALSE(wuc_symbolize_data(heap.get(), buf, sizeof buf));
  EXPECT_FALSE(wuc_symbolize_data(&local, buf, sizeof buf));
  EXPECT_FALSE(wuc_symbolize_data(Code(symbolize_static_probe_address()), buf, sizeof buf));
}

TEST(Symbolize, TheTestBinaryCameWithTheProgram) {
  EXPECT_TRUE(wuc_loaded_with_program(Code(symbolize_static_probe_address())));
  EXPECT_TRUE(wuc_loaded_with_program(reinterpret_cast<const void *>(&getpid)));
}

} // namespace
