// What a job measures and the choosers choose among (tuner/measure/candidate.cpp): a kernel, a
// small path or a label, named as every output prints it, ordered by that name; thread counts'
// labels and back.
#include "tuner/measure/candidate.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace cjit::detail {
namespace {

Spec spec(const char *text) { return *parse_spec(text); }

TEST(candidate, NamesAreWhatTheOutputsPrint) {
  EXPECT_EQ(Candidate(spec("avx2:unroll=4")).name(), "avx2:unroll=4");
  EXPECT_EQ(Candidate(spec("stosq:chunk=4096")).name(), "stosq:chunk=4K") << "canonical";
  EXPECT_EQ(Candidate(SmallPath{Small::masked, 256}).name(), "small:masked:256");
  EXPECT_EQ(small_path_name({Small::tree, 1024}), "tree:1024");
  EXPECT_EQ(Candidate::labelled("tuned").name(), "tuned");
  EXPECT_EQ(Candidate().name(), "") << "the default is an empty label";
  EXPECT_EQ(memset_candidate().name(), "libc");
}

TEST(candidate, ItHoldsAKernelASmallPathOrNeither) {
  const Candidate k = spec("avx2"), s = SmallPath{Small::vec, 128}, l = Candidate::labelled("x");
  ASSERT_NE(k.kernel(), nullptr);
  EXPECT_EQ(*k.kernel(), spec("avx2"));
  EXPECT_EQ(k.small(), nullptr);
  ASSERT_NE(s.small(), nullptr);
  EXPECT_EQ(*s.small(), (SmallPath{Small::vec, 128}));
  EXPECT_EQ(s.kernel(), nullptr);
  EXPECT_EQ(l.kernel(), nullptr);
  EXPECT_EQ(l.small(), nullptr);
  EXPECT_TRUE(memset_candidate().is_memset());
  ASSERT_NE(memset_candidate().kernel(), nullptr);
  EXPECT_EQ(*memset_candidate().kernel(), default_spec(Method::libc));
  EXPECT_FALSE(k.is_memset());
  EXPECT_FALSE(Candidate::labelled("libc").is_memset()) << "a label is no kernel";
}

TEST(candidate, OrderIsByNameThenWhatItHolds) {
  std::vector<Candidate> v{Candidate::labelled("tuned"), spec("stosb"),
                           SmallPath{Small::masked, 256}, spec("avx2:unroll=8"), spec("avx2")};
  std::sort(v.begin(), v.end());
  std::vector<std::string> names;
  for (const Candidate &c : v)
    names.push_back(c.name());
  EXPECT_EQ(names, (std::vector<std::string>{"avx2", "avx2:unroll=8", "small:masked:256", "stosb",
                                             "tuned"}));
  // The same text as a kernel and as a label: one name, two candidates, in a strict order.
  const Candidate kernel = spec("avx2"), label = Candidate::labelled("avx2");
  EXPECT_EQ(kernel.name(), label.name());
  EXPECT_FALSE(kernel == label);
  EXPECT_NE(kernel <=> label, std::strong_ordering::equal);
  EXPECT_NE(kernel < label, label < kernel) << "one before the other, always the same";
  EXPECT_EQ(std::hash<Candidate>()(kernel), std::hash<Candidate>()(label)) << "hashed by name";
  EXPECT_TRUE(Candidate(spec("avx2")) == kernel);
}

TEST(candidate, ThreadCountsAreTypedAndNamedAsTheRawFileKeepsThem) {
  for (unsigned t : {1u, 2u, 12u, 256u, 999u}) {
    const Candidate c = parallel_label(t);
    EXPECT_EQ(c.name(), "clearjit_clear_parallel threads=" + std::to_string(t));
    EXPECT_EQ(threads_of(c), t);
    const std::optional<Candidate> named = thread_count_named(c.name());
    ASSERT_TRUE(named) << c.name();
    EXPECT_TRUE(*named == c);
  }
  for (const char *bad :
       {"clearjit_clear_parallel threads=", "clearjit_clear_parallel threads=1000",
        "clearjit_clear_parallel threads=2x", "clearjit_clear_parallel threads=-1",
        "clearjit_clear_parallel threads=0", "clearjit_clear_parallel thread=2", "tuned"})
    EXPECT_FALSE(thread_count_named(bad)) << bad;
  // A label that reads like one is no thread count: the count is a type, not parsed text.
  EXPECT_EQ(threads_of(Candidate::labelled("clearjit_clear_parallel threads=2")), 0u);
  EXPECT_EQ(threads_of(spec("avx2")), 0u);
}

} // namespace
} // namespace cjit::detail
