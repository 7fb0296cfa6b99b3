// driver/headers.cpp: which project headers a dialect file reaches, and the
// mirror directories (docs/lowering.md, "Headers").
#include "headers.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace wuc {
namespace {

class Headers : public ::testing::Test {
protected:
  void SetUp() override {
    char tmpl[] = "/tmp/wuc-headers-test-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    char cwd[4096];
    ASSERT_NE(getcwd(cwd, sizeof cwd), nullptr);
    old_ = cwd;
    ASSERT_EQ(chdir(dir_.c_str()), 0);
  }
  void TearDown() override {
    ASSERT_EQ(chdir(old_.c_str()), 0);
    std::string cmd = "rm -rf '" + dir_ + "'";
    ASSERT_EQ(std::system(cmd.c_str()), 0);
  }
  static void file(const std::string &path, const std::string &text) {
    ASSERT_TRUE(writeMirrorFile(path, text)) << path;
  }
  std::vector<std::string> displays(const std::vector<ProjectHeader> &hs) {
    std::vector<std::string> out;
    for (const ProjectHeader &h : hs) out.push_back(h.display);
    return out;
  }
  std::string dir_, old_;
};

TEST_F(Headers, FollowsProjectIncludesIncludedFirst) {
  file("src/a.wc", "");
  file("src/near.h", "#include \"inc_q.h\"\n");
  file("q/inc_q.h", "#include <deep/d.h>\n");
  file("i/deep/d.h", "#include \"sibling.h\"\n");
  file("i/deep/sibling.h", "int s;\n");
  file("i/angle.h", "");
  const std::string main = "#include \"near.h\"\n#  include <angle.h>\n#include <stdio.h>\n"
                           "#include MACRO\n#include_next \"x.h\"\n";
  std::map<std::string, bool> known;
  std::vector<ProjectHeader> found;
  findProjectHeaders("src/a.wc", main, {"-iquote", "q", "-Ii"}, "", known, found);
  EXPECT_EQ(displays(found), (std::vector<std::string>{"i/deep/sibling.h", "i/deep/d.h",
                                                       "q/inc_q.h", "src/near.h", "i/angle.h"}));
  EXPECT_EQ(found[0].text, "int s;\n");
  // Known headers are not found again.
  std::vector<ProjectHeader> again;
  findProjectHeaders("src/a.wc", main, {"-iquote", "q", "-Ii"}, "", known, again);
  EXPECT_TRUE(again.empty());
}

TEST_F(Headers, AngleIncludesSearchOnlyTheIDirectories) {
  file("a.wc", "");
  file("beside.h", "");
  file("q/quoted.h", "");
  std::map<std::string, bool> known;
  std::vector<ProjectHeader> found;
  findProjectHeaders("a.wc", "#include <beside.h>\n#include <quoted.h>\n", {"-iquote", "q"}, "",
                     known, found);
  EXPECT_TRUE(found.empty());
}

TEST_F(Headers, SystemAndWucDirectoriesAreNeverSearched) {
  file("a.wc", "");
  file("w/wuc.h", "");
  std::map<std::string, bool> known;
  std::vector<ProjectHeader> found;
  findProjectHeaders("a.wc", "#include <stdio.h>\n#include <wuc.h>\n",
                     {"-I/usr/include", "-I", "w"}, "w", known, found);
  EXPECT_TRUE(found.empty());
}

TEST_F(Headers, MirrorsComeRightBeforeTheirDirectories) {
  file("i/x.h", "");
  file("q/y.h", "");
  file("plain/z.h", "");
  const std::string root = dir_ + "/root";
  file(root + dir_ + "/i/x.h", "");
  file(root + dir_ + "/q/y.h", "");
  const std::string i = mirrorOf(root, "i"), q = mirrorOf(root, "q");
  ASSERT_EQ(i, root + dir_ + "/i");
  // plain/ has no mirror: none is named (-Wmissing-include-dirs).
  EXPECT_EQ(mirrorOf(root, "plain"), "");
  EXPECT_EQ(withMirrors({"-O2", "-Ii", "-iquote", "q", "-DX", "-I", "missing", "-Iplain"}, root),
            (std::vector<std::string>{"-O2", "-I", i, "-Ii", "-iquote", q, "-iquote", "q", "-DX",
                                      "-I", "missing", "-Iplain"}));
}

TEST_F(Headers, MirroredDirectoriesMapBackToTheirNames) {
  file("inc/sub/k.h", "");
  const std::string root = dir_ + "/root";
  file(root + dir_ + "/inc/sub/k.h", "");
  std::vector<ProjectHeader> hs(1);
  hs[0].display = "inc/sub/k.h";
  std::map<std::string, std::string> dirs;
  mirroredDirectories(root, "a.wc", {"-Iinc"}, hs, dirs);
  EXPECT_EQ(dirs[root + dir_ + "/inc/"], "inc/");
  EXPECT_EQ(dirs[root + dir_ + "/inc/sub/"], "inc/sub/");
  EXPECT_EQ(dirs[root + dir_ + "/"], "");
}

} // namespace
} // namespace wuc
