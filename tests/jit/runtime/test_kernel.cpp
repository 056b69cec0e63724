// The API for single kernels (jit/runtime/kernel.cpp and the C++ wrapper in clearjit.hpp): errors
// that fit the caller's buffer, canonical specs, the host CPU's refusals, a kernel that clears.
#include "clearjit/clearjit.h"
#include "clearjit/clearjit.hpp"
#include "jit/model/spec.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace cjit::detail {
namespace {

// ---------------------------------------------------------------------------------------------
// C API

TEST(kernel_CApi, BadSpecFillsError) {
  char err[128];
  std::memset(err, 'X', sizeof err);
  EXPECT_EQ(clearjit_kernel_compile("stosw", err, sizeof err), nullptr);
  EXPECT_STREQ(err, "unknown method 'stosw'");
  EXPECT_EQ(clearjit_kernel_compile("avx2:unroll=3", err, sizeof err), nullptr);
  EXPECT_STREQ(err, "unroll must be one of 1,2,4,8,16, got 3");
  EXPECT_EQ(clearjit_kernel_compile(nullptr, err, sizeof err), nullptr);
  EXPECT_STREQ(err, "spec is NULL");
}

TEST(kernel_CApi, ErrorIsTruncatedToErrLen) {
  char err[16];
  std::memset(err, 'X', sizeof err);
  EXPECT_EQ(clearjit_kernel_compile("stosw", err, 5), nullptr);
  EXPECT_STREQ(err, "unkn"); // 4 characters and the NUL
  EXPECT_EQ(err[5], 'X') << "nothing written past err_len";

  std::memset(err, 'X', sizeof err);
  EXPECT_EQ(clearjit_kernel_compile("stosw", err, 1), nullptr);
  EXPECT_EQ(err[0], '\0');
  EXPECT_EQ(err[1], 'X');

  std::memset(err, 'X', sizeof err);
  EXPECT_EQ(clearjit_kernel_compile("stosw", err, 0), nullptr);
  EXPECT_EQ(err[0], 'X') << "err_len 0 leaves the buffer alone";
}

TEST(kernel_CApi, NullErrIsAllowed) {
  EXPECT_EQ(clearjit_kernel_compile("stosw", nullptr, 0), nullptr);
  EXPECT_EQ(clearjit_kernel_compile("stosw", nullptr, 64), nullptr);
  clearjit_kernel *k = clearjit_kernel_compile("avx2", nullptr, 0);
  EXPECT_NE(k, nullptr);
  clearjit_kernel_free(k);
  clearjit_kernel_free(nullptr);
}

TEST(kernel_CApi, GoodSpecIsCanonicalAndClears) {
  char err[64] = "";
  clearjit_kernel *k = clearjit_kernel_compile("stosb:chunk=4096", err, sizeof err);
  ASSERT_NE(k, nullptr) << err;
  EXPECT_STREQ(clearjit_kernel_spec(k), "stosb:chunk=4K");
  EXPECT_NE(std::strstr(clearjit_kernel_asm(k), "rep stos"), nullptr);
  std::vector<unsigned char> buf(300, 0xAB);
  clearjit_kernel_clear(k, buf.data() + 1, 298);
  EXPECT_EQ(buf[0], 0xAB);
  EXPECT_EQ(buf[299], 0xAB);
  for (size_t i = 1; i < 299; ++i)
    ASSERT_EQ(buf[i], 0) << i;
  clearjit_kernel_free(k);
}

// Through the C API the host CPU decides: refused with the feature message, or compiled.
TEST(kernel_CApi, HostCpuDecides) {
  for (const MethodInfo &mi : methods()) {
    SCOPED_TRACE(mi.name);
    char err[128] = "";
    clearjit_kernel *k = clearjit_kernel_compile(std::string(mi.name).c_str(), err, sizeof err);
    if (host_cpu().has(mi.feature)) {
      EXPECT_NE(k, nullptr) << err;
    } else {
      EXPECT_EQ(k, nullptr);
      EXPECT_EQ(std::string(err), std::string(mi.name) + " needs " +
                                      std::string(feature_name(mi.feature)) +
                                      ", which this CPU lacks");
    }
    clearjit_kernel_free(k);
  }
}

// ---------------------------------------------------------------------------------------------
// C++ API

TEST(kernel_CppApi, ConstructorThrowsWithMessage) {
  try {
    Kernel k("avx2:unroll=3");
    FAIL() << "no exception";
  } catch (const cjit::Error &e) {
    EXPECT_STREQ(e.what(), "unroll must be one of 1,2,4,8,16, got 3");
  }
  EXPECT_THROW(Kernel(""), cjit::Error);
  EXPECT_NO_THROW(Kernel("mov"));
}

TEST(kernel_CppApi, CompileReturnsNulloptWithMessage) {
  std::string error;
  EXPECT_EQ(Kernel::compile("stosb:fence=chunk", &error), std::nullopt);
  EXPECT_EQ(error, "fence=chunk needs a chunk size (chunk=SIZE)");
  EXPECT_EQ(Kernel::compile("stosw"), std::nullopt); // no error pointer
  auto k = Kernel::compile("avx2:unroll=2", &error);
  ASSERT_TRUE(k) << error;
  EXPECT_EQ(k->spec(), "avx2");
  EXPECT_FALSE(k->listing().empty());
}

// The C++ wrapper copies the message through a fixed buffer: whatever it returns is the start
// of the library's message (a long spec's message is cut, see the report).
TEST(kernel_CppApi, LongMessageIsAPrefix) {
  const std::string name(1000, 'q');
  std::string error;
  EXPECT_EQ(Kernel::compile(name, &error), std::nullopt);
  const std::string full = parse_spec(name).error;
  EXPECT_FALSE(error.empty());
  EXPECT_EQ(full.compare(0, error.size(), error), 0);
}

} // namespace
} // namespace cjit::detail
