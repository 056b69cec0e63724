// Reading the JSON files clearjit writes (traces, raw measurements) with nlohmann::json: bounded,
// every error naming the file and the place, so that a broken or hostile file is refused.
#pragma once

#include "jit/model/spec.hpp" // Result

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace cjit::detail {

//! A schema error, naming its key path ("octaves[3].calls"); the readers catch it.
struct SchemaError {
  std::string what;
};

//! Parses `text` (at most `max_bytes`, nested at most 32 levels) as `what`; errors read
//! "<name>: byte 12: syntax error ..." or "<name>: 3 GiB, more than a trace (64 MiB)".
Result<nlohmann::json> parse_json_file(std::string_view text, std::string_view name,
                                       size_t max_bytes, std::string_view what);

//! Parses `text` as parse_json_file does and reads it with `read` (which throws SchemaError):
//! every error as "<name>: <where>: <why>", followed by `hint` for a schema error.
template <class T, class Read>
Result<T> read_json_file(std::string_view text, std::string_view name, size_t max_bytes,
                         std::string_view what, Read read, std::string_view hint = "") {
  Result<nlohmann::json> doc = parse_json_file(text, name, max_bytes, what);
  if (!doc) return Result<T>::fail(doc.error);
  try {
    return {read(*doc), {}};
  } catch (const SchemaError &e) {
    return Result<T>::fail(std::string(name) + ": " + e.what + std::string(hint));
  } catch (const nlohmann::json::exception &e) { // not expected: every type is checked first
    return Result<T>::fail(std::string(name) + ": " + e.what());
  }
}

//! `object`'s member `key`; SchemaError "<path>: no \"key\"" when it has none.
const nlohmann::json &json_member(const nlohmann::json &object, const char *key,
                                  const std::string &path);
//! A non-negative integer below 2^64, else SchemaError.
uint64_t json_whole_number(const nlohmann::json &v, const std::string &path);
//! A finite number, else SchemaError.
double json_number(const nlohmann::json &v, const std::string &path);
//! A string, else SchemaError.
const std::string &json_string(const nlohmann::json &v, const std::string &path);
//! An array, else SchemaError.
const nlohmann::json &json_array(const nlohmann::json &v, const std::string &path);

} // namespace cjit::detail
