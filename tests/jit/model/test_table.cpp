// Size classes (jit/model/table.cpp): which class holds a size, and how adjacent classes of one
// kernel become one.
#include "jit/model/table.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace cjit::detail {
namespace {

SizeClass cls(uint64_t below, const char *kernel, double gain, std::vector<std::string> states) {
  return {
      .below = below, .kernel = parse_spec(kernel).value.value(), .gain = gain, .states = states};
}

TEST(table, ClassForBoundariesAndTheLastClass) {
  std::vector<SizeClass> t(3);
  t[0].below = 2048;
  t[1].below = 65536;
  t[0].kernel = default_spec(Method::avx2);
  t[1].kernel = default_spec(Method::stosb);
  t[2].kernel = default_spec(Method::ntavx2);
  EXPECT_EQ(&class_for(t, 0), &t[0]);
  EXPECT_EQ(&class_for(t, 2047), &t[0]); // below - 1
  EXPECT_EQ(&class_for(t, 2048), &t[1]); // below is exclusive
  EXPECT_EQ(&class_for(t, 2049), &t[1]); // below + 1
  EXPECT_EQ(&class_for(t, 65535), &t[1]);
  EXPECT_EQ(&class_for(t, 65536), &t[2]); // the last class takes the rest
  EXPECT_EQ(&class_for(t, 65537), &t[2]);
  EXPECT_EQ(&class_for(t, UINT64_MAX), &t[2]);
}

// One kernel over two classes is one class: the bound that holds over both (the smaller gain) in
// the states where both held; another kernel starts a class.
TEST(table, AppendJoinsAdjacentClassesOfOneKernel) {
  std::vector<SizeClass> t;
  append_class(t, cls(4096, "libc", 0, {}));
  append_class(t, cls(8192, "avx2", 1.20, {"scattered", "consecutive", "hot"}));
  append_class(t, cls(16384, "avx2", 1.10, {"scattered", "hot"}));
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[1].below, 16384u);
  EXPECT_DOUBLE_EQ(t[1].gain, 1.10);
  EXPECT_EQ(t[1].states, (std::vector<std::string>{"scattered", "hot"}));
  append_class(t, cls(0, "avx2:unroll=8", 1.30, {"scattered"}));
  ASSERT_EQ(t.size(), 3u) << "another spec of the same method is another kernel";
  EXPECT_EQ(t[2].below, 0u);
}

std::vector<std::string> texts(const std::vector<SizeClass> &t) {
  std::vector<std::string> out;
  for (const SizeClass &c : t)
    out.push_back(std::to_string(c.below >> 20) + " " + format_spec(c.kernel));
  return out;
}

// From a size up every class leaves untouched pages alone; the class holding it splits there,
// one starting at it does not; and writing them all takes the option away again.
TEST(table, UntouchedFromASizeUp) {
  const uint64_t M = 1 << 20;
  std::vector<SizeClass> t = {cls(M, "avx2", 0, {}), cls(64 * M, "stosb", 0, {}),
                              cls(0, "libc", 0, {})};
  t[2].stand_in = default_spec(Method::stosb);
  leave_untouched_from(t, 16 * M);
  EXPECT_EQ(texts(t), (std::vector<std::string>{"1 avx2", "16 stosb", "64 stosb:untouched=skip",
                                                "0 libc:untouched=skip"}));
  EXPECT_TRUE(t[3].stand_in);
  leave_untouched_from(t, M); // [1 MiB, 16 MiB) too, and nothing splits again
  EXPECT_EQ(texts(t),
            (std::vector<std::string>{"1 avx2", "16 stosb:untouched=skip",
                                      "64 stosb:untouched=skip", "0 libc:untouched=skip"}));
  EXPECT_TRUE(write_untouched(t));
  EXPECT_EQ(texts(t), (std::vector<std::string>{"1 avx2", "16 stosb", "64 stosb", "0 libc"}));
  EXPECT_FALSE(write_untouched(t));
  // No room for the split: nothing changes.
  std::vector<SizeClass> full;
  for (size_t k = 1; k < kMaxClasses; ++k)
    full.push_back(cls(k * M, "avx2", 0, {}));
  full.push_back(cls(0, "stosb", 0, {}));
  const std::vector<SizeClass> before = full;
  EXPECT_FALSE(leave_untouched_from(full, 100 * M));
  EXPECT_EQ(full, before);
  EXPECT_TRUE(leave_untouched_from(full, (kMaxClasses - 1) * M)); // the last class, whole
  EXPECT_EQ(format_spec(full.back().kernel), "stosb:untouched=skip");
  std::vector<SizeClass> one = {cls(0, "stosb", 0, {})};
  leave_untouched_from(one, 0);
  EXPECT_EQ(texts(one), (std::vector<std::string>{"0 stosb:untouched=skip"}));
}

TEST(table, IntentNames) {
  EXPECT_EQ(intent_name(Intent::reuse), "reuse");
  EXPECT_EQ(intent_name(Intent::stream), "stream");
  EXPECT_EQ(std::size(kIntents), 2u);
}

} // namespace
} // namespace cjit::detail
