// A pool of 2 MiB buffers that are recycled and cleared before reuse, as an allocator does:
// cleared with clearjit (the default profile lookup) and with memset, side by side.
#include <clearjit/clearjit.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

int main(int argc, char **argv) {
  const size_t buffer = 2 << 20, count = 64,
               rounds = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 20;
  std::vector<unsigned char> pool(buffer * count, 0xAB);
  cjit::Clearer clearer; // throws cjit::Error with the reason if the profile is bad
  std::printf("profile: %s, kernel for 2 MiB: %.*s\n", std::string(clearer.source()).c_str(),
              int(clearer.kernel_for(cjit::Intent::reuse, buffer).size()),
              clearer.kernel_for(cjit::Intent::reuse, buffer).data());

  auto run = [&](auto &&clear) {
    auto t0 = std::chrono::steady_clock::now();
    unsigned long sum = 0;
    for (size_t r = 0; r < rounds; ++r)
      for (size_t i = 0; i < count; ++i) {
        unsigned char *b = &pool[i * buffer];
        clear(b, buffer);
        b[r % buffer] = 1; // the next user writes into it
        sum += b[buffer - 1];
      }
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return std::pair{double(buffer) * count * rounds / s / 1e9, sum};
  };
  auto [mem, s1] = run([](void *p, size_t n) { std::memset(p, 0, n); });
  auto [cj, s2] = run([&](void *p, size_t n) { clearer.clear(p, n); });
  for (size_t i = 0; i < pool.size(); i += 4096)
    if (pool[i] > 1) {
      std::fprintf(stderr, "pool not cleared at %zu\n", i);
      return 1;
    }
  std::printf("memset %.1f GB/s, clearjit %.1f GB/s (%.2fx)%s\n", mem, cj, cj / mem,
              s1 == s2 ? "" : "?");
  return 0;
}
