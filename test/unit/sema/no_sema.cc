// Compiled instead of the tests while the build has no wuc_sema (see
// CMakeLists.txt): the binary then runs no test.
namespace wuc::test {
int semaTestsDisabled = 1;
} // namespace wuc::test
