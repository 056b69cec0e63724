// What `clearjit check` says of a profile's recorded [verification] (cli/verification_report.hpp).
#include "cli/verification_report.hpp"
#include "tests/support/support.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace cjit::detail {
namespace {

TEST(verification_report, SaysWhereAndWhatWasLeft) {
  const CpuInfo cpu = test::minimal_cpu(); // features: sse2
  ProfileHost here = profile_host(cpu);
  EXPECT_EQ(verification_report(std::nullopt, here, cpu), "");
  const RecordedVerification clean{"m", {}, {}};
  EXPECT_EQ(verification_report(clean, here, cpu),
            "verification: verified on this CPU model (GenuineIntel family 6 model 15)\n"
            "verification: no loss to memset left\n");
  const RecordedVerification lost{"m", {"x", "y"}, {"reuse 4 KiB: 0.9x", "stream 8 B: 1.1x"}};
  EXPECT_EQ(verification_report(lost, here, cpu),
            "verification: verified on this CPU model (GenuineIntel family 6 model 15)\n"
            "verification: 2 losses to memset left (2 repaired):\n"
            "  reuse 4 KiB: 0.9x\n  stream 8 B: 1.1x\n");
  const RecordedVerification noisy{"m", {}, {}, {"stream 688.9 MiB consecutive: 0.72x ..."}};
  EXPECT_EQ(verification_report(noisy, here, cpu),
            "verification: verified on this CPU model (GenuineIntel family 6 model 15)\n"
            "verification: no loss to memset left\n"
            "verification: 1 point measured below memset, inside memset's own noise there (not "
            "counted)\n");
  const std::string written = "format = 1\n[verification]\nleft = []\nnoise = [\"a\", \"b\"]\n";
  ASSERT_TRUE(recorded_verification(written));
  EXPECT_EQ(recorded_verification(written)->noise, (std::vector<std::string>{"a", "b"}));
  ProfileHost richer = here;
  richer.features = {"sse2", "avx2", "avx"}; // unsorted, as by hand
  EXPECT_EQ(verification_report(clean, richer, cpu),
            "verification: verified on this CPU model (GenuineIntel family 6 model 15), with other "
            "features: this CPU lacks avx avx2\nverification: no loss to memset left\n");
  ProfileHost bare = here;
  bare.features.clear();
  EXPECT_NE(verification_report(clean, bare, cpu).find("lists no features to compare"),
            std::string::npos);
  ProfileHost other = here;
  other.model = 16;
  const std::string elsewhere = verification_report(lost, other, cpu);
  EXPECT_TRUE(elsewhere.starts_with(
      "verification: verified on GenuineIntel family 6 model 16, not on this CPU (GenuineIntel "
      "family 6 model 15): `clearjit verify` measures it here\nverification: 2 losses"))
      << elsewhere;
}

} // namespace
} // namespace cjit::detail
