// Test helpers for the JSON outputs (tuner/formats/raw.cpp's measurements_json, tuner/bench's
// bench_json): a host whose brand is not UTF-8, a measurement with every field set, and an
// object's keys in order.
#pragma once

#include "jit/model/cpu.hpp"
#include "tuner/measure/measure.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace cjit::detail::test {

//! An AMD host whose brand has a quote, a control character and bytes that are not UTF-8.
inline CpuInfo json_cpu() {
  CpuInfo cpu;
  cpu.vendor = "AuthenticAMD";
  cpu.brand = "Test \"CPU\"\n\xff\xfe"; // a quote, a control character, bytes that are not UTF-8
  cpu.family = 26;
  cpu.model = 2;
  cpu.stepping = 1;
  cpu.l1d.size = 48 << 10;
  cpu.l2.size = 1 << 20;
  cpu.l3.size = 32 << 20;
  cpu.hypervisor = true;
  return cpu;
}

//! A warm, batched stream measurement of avx2:unroll=4 at 4 KiB, with digits to round away.
inline Measurement json_measurement() {
  Measurement m;
  m.candidate = Candidate::labelled("avx2:unroll=4");
  m.size = 4096;
  m.intent = Intent::stream;
  m.pattern = Pattern::consecutive;
  m.batched = true;
  m.samples = {1.23456, 2.0, 30.0004};
  m.gbps = 12.34567;
  m.cv = 0.01236;
  m.ns = 3.14159;
  m.warm = true;
  m.mix = Mix::objects;
  return m;
}

//! The keys of a JSON object, in its order.
inline std::vector<std::string> json_keys(const nlohmann::ordered_json &object) {
  std::vector<std::string> k;
  for (const auto &[key, value] : object.items())
    k.push_back(key);
  return k;
}

} // namespace cjit::detail::test
