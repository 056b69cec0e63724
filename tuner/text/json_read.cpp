#include "tuner/text/json_read.hpp"

#include "tuner/text/format.hpp"

#include <cmath>

namespace cjit::detail {
namespace {

// Thrown by the parser's callback: no file clearjit writes nests this deep, and each level
// costs memory (16 MiB of '[' would take gigabytes).
struct TooDeep {};
constexpr int kMaxDepth = 32;

} // namespace

Result<nlohmann::json> parse_json_file(std::string_view text, std::string_view name,
                                       size_t max_bytes, std::string_view what) {
  using nlohmann::json;
  const std::string at = std::string(name) + ": ";
  if (text.size() > max_bytes)
    return Result<json>::fail(at + std::to_string(text.size()) + " bytes, more than " +
                              std::string(what) + " (" + human_bytes(max_bytes) + ")");
  try {
    return {json::parse(text,
                        [](int depth, json::parse_event_t, json &) {
                          if (depth > kMaxDepth) throw TooDeep{};
                          return true;
                        }),
            {}};
  } catch (const json::parse_error &e) {
    // "[json.exception.parse_error.101] parse error at line 1, column 9: syntax error ..."
    std::string why = e.what();
    if (size_t end = why.find("] "); why.starts_with("[json.exception") && end != why.npos)
      why.erase(0, end + 2);
    return Result<json>::fail(at + "byte " + std::to_string(e.byte) + ": " + why);
  } catch (const json::exception &e) { // a number beyond a double's range: out_of_range 406
    std::string why = e.what();
    if (size_t end = why.find("] "); why.starts_with("[json.exception") && end != why.npos)
      why.erase(0, end + 2);
    return Result<json>::fail(at + why);
  } catch (const TooDeep &) {
    return Result<json>::fail(at + "nested deeper than " + std::to_string(kMaxDepth) +
                              " levels (not " + std::string(what) + ")");
  }
}

const nlohmann::json &json_member(const nlohmann::json &object, const char *key,
                                  const std::string &path) {
  if (!object.is_object())
    throw SchemaError{(path.empty() ? std::string("the top level") : path) +
                      ": must be an object, not " + object.type_name()};
  auto it = object.find(key);
  if (it == object.end())
    throw SchemaError{(path.empty() ? "" : path + ": ") + "no \"" + key + "\""};
  return *it;
}

uint64_t json_whole_number(const nlohmann::json &v, const std::string &path) {
  if (v.is_number_unsigned()) return v.get<uint64_t>();
  if (v.is_number_integer() && v.get<int64_t>() == 0) return 0; // "-0"
  if (v.is_number_float() && v.get<double>() >= 18446744073709551616.0)
    throw SchemaError{path + ": must be a non-negative integer below 2^64"};
  throw SchemaError{path + ": must be a non-negative integer"};
}

double json_number(const nlohmann::json &v, const std::string &path) {
  if (!v.is_number() || !std::isfinite(v.get<double>()))
    throw SchemaError{path + ": must be a number, not " + v.type_name()};
  return v.get<double>();
}

const std::string &json_string(const nlohmann::json &v, const std::string &path) {
  if (!v.is_string()) throw SchemaError{path + ": must be a string, not " + v.type_name()};
  return v.get_ref<const std::string &>();
}

const nlohmann::json &json_array(const nlohmann::json &v, const std::string &path) {
  if (!v.is_array()) throw SchemaError{path + ": must be an array, not " + v.type_name()};
  return v;
}

} // namespace cjit::detail
