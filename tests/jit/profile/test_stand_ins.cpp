// A profile's memset classes under another C library: route_to_stand_ins, and what it says.
#include "jit/profile/stand_ins.hpp"
#include "tests/support/support.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cjit::detail {
namespace {

using namespace test;

constexpr uint64_t MiB = 1 << 20;

SizeClass memset_class(uint64_t below, const char *stand_in) {
  SizeClass c{below, *parse_spec("libc")};
  if (stand_in) c.stand_in = *parse_spec(stand_in);
  return c;
}

// Tuned under glibc 2.36: memset below 4 KiB (stand-in avx2), ntavx2 to 32 MiB, memset past
// the step (stand-in stosb); stream memset everywhere (stand-in mov).
Profile tuned_under_236() {
  Profile p;
  p.libc = "glibc 2.36";
  p.reuse = {
      memset_class(4096, "avx2"), {32 * MiB, *parse_spec("ntavx2")}, memset_class(0, "stosb")};
  p.stream = {memset_class(0, "mov")};
  return p;
}

std::vector<std::string> kernels(const std::vector<SizeClass> &table) {
  std::vector<std::string> out;
  for (const SizeClass &c : table)
    out.push_back(format_spec(c.kernel));
  return out;
}

TEST(stand_ins, AnotherCLibraryRunsTheStandIns) {
  Profile p = tuned_under_236();
  const StandInRouting r = route_to_stand_ins(p, "glibc 2.41");
  EXPECT_TRUE(r.other_libc);
  EXPECT_EQ(kernels(p.reuse), (std::vector<std::string>{"avx2", "ntavx2", "stosb"}));
  EXPECT_EQ(kernels(p.stream), (std::vector<std::string>{"mov"}));
  for (const SizeClass &c : p.reuse)
    EXPECT_FALSE(c.stand_in) << format_spec(c.kernel); // the class is the stand-in's now
  EXPECT_EQ(r.routed,
            (std::vector<std::string>{"reuse 0 B .. 4 KiB: avx2", "reuse 32 MiB .. up: stosb",
                                      "stream 0 B .. up: mov"}));
  EXPECT_TRUE(r.lacking.empty());
  EXPECT_EQ(r.note, "measured against glibc 2.36's memset, this process runs glibc 2.41: memset's "
                    "classes run their stand-ins (reuse 0 B .. 4 KiB: avx2; reuse 32 MiB .. up: "
                    "stosb; stream 0 B .. up: mov)");
}

TEST(stand_ins, TheSameCLibraryKeepsMemset) {
  Profile p = tuned_under_236();
  const Profile before = p;
  const StandInRouting r = route_to_stand_ins(p, "glibc 2.36");
  EXPECT_FALSE(r.other_libc);
  EXPECT_EQ(p.reuse, before.reuse);
  EXPECT_EQ(p.stream, before.stream);
  EXPECT_TRUE(r.routed.empty());
  EXPECT_EQ(r.note, "");
}

// An interposed memset (AOCL-LibMem as LD_PRELOAD) is not the C library's: the stand-ins run.
TEST(stand_ins, AnInterposedMemsetRunsTheStandIns) {
  Profile p = tuned_under_236();
  const StandInRouting r = route_to_stand_ins(p, "memset of libaocl-libmem.so under glibc 2.36");
  EXPECT_TRUE(r.other_libc);
  EXPECT_EQ(kernels(p.reuse), (std::vector<std::string>{"avx2", "ntavx2", "stosb"}));
}

// A class without a stand-in keeps memset under another C library, and the note names it.
TEST(stand_ins, AClassWithoutAStandInKeepsMemsetAndIsNamed) {
  Profile p = tuned_under_236();
  p.reuse[0].stand_in.reset();
  const StandInRouting r = route_to_stand_ins(p, "glibc 2.41");
  EXPECT_EQ(kernels(p.reuse), (std::vector<std::string>{"libc", "ntavx2", "stosb"}));
  EXPECT_EQ(r.lacking, (std::vector<std::string>{"reuse 0 B .. 4 KiB"}));
  EXPECT_NE(r.note.find("; memset's classes without a stand-in (reuse 0 B .. 4 KiB) call this "
                        "process's memset, which the profile was not measured against"),
            std::string::npos)
      << r.note;
}

// An old profile: no [tuning] libc, no stand-ins. Nothing changes, and the note says what it lacks.
TEST(stand_ins, AnOldProfileLoadsAsItWasAndItsNoteNamesWhatItLacks) {
  Profile p = tuned_under_236();
  p.libc.clear();
  for (SizeClass &c : p.reuse)
    c.stand_in.reset();
  p.stream[0].stand_in.reset();
  const Profile before = p;
  const StandInRouting r = route_to_stand_ins(p, "glibc 2.41");
  EXPECT_FALSE(r.other_libc);
  EXPECT_EQ(p.reuse, before.reuse);
  EXPECT_EQ(r.lacking, (std::vector<std::string>{"reuse 0 B .. 4 KiB", "reuse 32 MiB .. up",
                                                 "stream 0 B .. up"}));
  EXPECT_EQ(r.note, "memset's classes have no stand-in (reuse 0 B .. 4 KiB; reuse 32 MiB .. up; "
                    "stream 0 B .. up), so under any C library they call its memset, and the "
                    "profile does not record which it was measured against: `clearjit tune`, or "
                    "`clearjit choose` on its raw file, writes them");
}

TEST(stand_ins, TheRunningCLibraryIsNamedAsProfilesRecordIt) {
  EXPECT_TRUE(running_libc().starts_with("glibc 2.")) << running_libc();
}

} // namespace
} // namespace cjit::detail
