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
  EXPECT_EQ(r.note, "tuned against glibc 2.36's memset, this process runs glibc 2.41: memset's "
                    "classes run their stand-ins (reuse 0 B .. 4 KiB: avx2; reuse 32 MiB .. up: "
                    "stosb; stream 0 B .. up: mov)");
}

// Whether untouched pages are written is the class's: its stand-in leaves them alone too.
TEST(stand_ins, TheStandInKeepsTheClassesUntouched) {
  Profile p = tuned_under_236();
  p.reuse.back().kernel = *parse_spec("libc:untouched=skip");
  route_to_stand_ins(p, "glibc 2.41");
  EXPECT_EQ(kernels(p.reuse), (std::vector<std::string>{"avx2", "ntavx2", "stosb:untouched=skip"}));
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
  EXPECT_NE(r.note.find("; memset's classes without one call this process's memset (reuse 0 B "
                        ".. 4 KiB)"),
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
  EXPECT_EQ(r.note, "the profile does not record the C library it was measured against "
                    "([tuning] libc), so its memset classes (reuse 0 B .. 4 KiB; reuse 32 MiB .. "
                    "up; stream 0 B .. up) call whatever memset runs, also past a no-allocate step "
                    "that memset takes under one C library and not another: `clearjit tune`, or "
                    "`clearjit choose` on its raw file, records both");
  // The same classes without stand-ins, with their C library recorded: nothing to say there.
  Profile recorded = p;
  recorded.libc = "glibc 2.36";
  EXPECT_EQ(route_to_stand_ins(recorded, "glibc 2.36").note, "");
  // Stand-ins without the C library they stand in for: never run, and said.
  Profile unrecorded = tuned_under_236();
  unrecorded.libc.clear();
  EXPECT_EQ(route_to_stand_ins(unrecorded, "glibc 2.41").note,
            "the profile records no C library ([tuning] libc), so its stand-ins never run");
}

TEST(stand_ins, TheRunningCLibraryIsNamedAsProfilesRecordIt) {
  EXPECT_TRUE(running_libc().starts_with("glibc 2.")) << running_libc();
}

} // namespace
} // namespace cjit::detail
