// A lexer just deep enough to keep toml++ 3.3 off its two faulty paths (unbounded recursion,
// unreachable code on some code points). It tracks strings, comments, keys and brackets; it
// does not validate TOML: toml++ does, and stops at the first error, so only positions the
// two lexers agree on (a valid prefix) can reach toml++'s faults.
#include "jit/profile/toml_guard.hpp"

#include <cstdint>
#include <cstdio>
#include <vector>

namespace cjit::detail {

bool toml_mishandles(char32_t cp) {
  // Mirrors toml++'s table: mask 0x7FFFFFFFFFFFF75E over (cp - 0xA0) / 0x3FA, special cases
  // U+00A0, U+3000, U+FEFF, and switch cases for blocks 5 and 7.
  if (cp <= 0xA0 || cp >= 0xFEFF || cp == 0x3000) return false;
  const uint64_t block = (cp - 0xA0) / 0x3FA;
  return !((1ull << block) & 0x7FFFFFFFFFFFF75Eull) && block != 5 && block != 7;
}

std::string code_point_name(char32_t cp) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "U+%04X", unsigned(cp));
  return buf;
}

namespace {

// toml++'s is_horizontal_whitespace for the code points it handles: what it skips after a
// line-ending backslash.
bool toml_horizontal_space(char32_t cp) {
  return cp == ' ' || cp == '\t' || cp == 0xA0 || cp == 0x1680 || cp == 0x180E ||
         (cp >= 0x2000 && cp <= 0x200B) || cp == 0x202F || cp == 0x205F || cp == 0x2060 ||
         cp == 0x3000 || cp == 0xFEFF;
}

class Guard {
public:
  Guard(std::string_view text, const std::string &name) : text_(text), name_(name) {}

  std::string run() {
    while (at_ < text_.size() && error_.empty())
      step();
    return error_;
  }

private:
  // An open array or inline table, or the brackets of a [header] / [[header]].
  struct Open {
    char kind; // '[' array, '{' inline table, 'h' header
    int depth; // depth of the node that holds it
  };

  std::string_view text_;
  const std::string &name_;
  size_t at_ = 0, line_ = 1, col_ = 1;
  std::string error_;
  int depth_ = 0;       // depth of the node the current key or value belongs to
  int table_depth_ = 0; // depth of the table the last [header] opened
  int key_parts_ = 1;   // parts of the key being read
  bool in_key_ = true;  // reading a key (a statement's start, after '{' or ',' in a table)
  // Inside a bare value (a number, date, boolean): toml++ scans it up to a value terminator
  // (whitespace , ] } #), testing every character, quotes and brackets included.
  bool bare_value_ = false;
  std::vector<Open> open_;

  void fail(const std::string &why) {
    if (error_.empty()) error_ = name_ + ":" + std::to_string(line_) + ": " + why;
  }

  // Decodes the code point at at_ (0 at the end), without consuming it; `len` its bytes.
  char32_t peek(size_t &len) {
    len = 0;
    if (at_ >= text_.size()) return 0;
    const auto c = static_cast<unsigned char>(text_[at_]);
    auto invalid = [&] {
      char hex[8];
      std::snprintf(hex, sizeof hex, "%02x", unsigned(c));
      fail(std::string("not a text profile: invalid UTF-8 (byte 0x") + hex + ") at column " +
           std::to_string(col_) + " (a profile is UTF-8 TOML text)");
      return char32_t(0);
    };
    if (c == 0)
      return fail("not a text profile: NUL byte at column " + std::to_string(col_) +
                  " (a profile is UTF-8 TOML text)"),
             char32_t(0);
    const size_t n = c < 0x80             ? 1
                     : (c & 0xE0) == 0xC0 ? 2
                     : (c & 0xF0) == 0xE0 ? 3
                     : (c & 0xF8) == 0xF0 ? 4
                                          : 0;
    if (n == 0 || at_ + n > text_.size()) return invalid();
    char32_t cp = n == 1 ? c : n == 2 ? c & 0x1F : n == 3 ? c & 0x0F : c & 0x07;
    for (size_t k = 1; k < n; ++k) {
      const auto cc = static_cast<unsigned char>(text_[at_ + k]);
      if ((cc & 0xC0) != 0x80) return invalid();
      cp = cp << 6 | (cc & 0x3F);
    }
    // Overlong forms, UTF-16 surrogates and code points past U+10FFFF are not UTF-8 either.
    constexpr char32_t kMinForLength[] = {0, 0, 0x80, 0x800, 0x10000};
    if (n > 1 && (cp < kMinForLength[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)))
      return invalid();
    len = n;
    return cp;
  }

  // Consumes one code point; 0 at the end or on an error.
  char32_t next() {
    size_t len;
    const char32_t cp = peek(len);
    if (!len) return 0;
    at_ += len;
    if (cp == '\n')
      ++line_, col_ = 1;
    else
      ++col_;
    return cp;
  }

  bool starts_with(std::string_view s) const { return text_.substr(at_).starts_with(s); }

  // A code point where toml++ tests it for whitespace.
  void exposed(char32_t cp, const char *where) {
    if (toml_mishandles(cp))
      fail("character " + code_point_name(cp) + " at column " + std::to_string(col_ - 1) + " " +
           where +
           ": refused, because the TOML parser (toml++ 3.3) mishandles it there; it is accepted "
           "inside comments and strings");
  }

  void deeper(int depth) {
    if (depth > kMaxTomlDepth)
      fail("nested too deep: more than " + std::to_string(kMaxTomlDepth) +
           " levels of tables, dotted-key parts, arrays and inline tables (a profile needs 5)");
  }

  void step() {
    const char32_t cp = next();
    if (!in_key_) {
      const bool terminator = cp == ' ' || cp == '\t' || cp == '\n' || cp == '\r' || cp == ',' ||
                              cp == ']' || cp == '}' || cp == '#';
      if (bare_value_ && !terminator) return exposed(cp, "outside strings and comments");
      bare_value_ = !terminator && cp != '"' && cp != '\'' && cp != '[' && cp != '{' && cp != '=';
    }
    switch (cp) {
    case 0: return;
    case '#': return comment();
    case '"':
    case '\'': return string(char(cp));
    case '\n':
      if (open_.empty()) { // a statement ends: the next line starts with a key
        depth_ = table_depth_;
        in_key_ = true;
        key_parts_ = 1;
      }
      return;
    case '.':
      if (in_key_) {
        ++key_parts_;
        const bool header = !open_.empty() && open_.back().kind == 'h';
        deeper(header ? 2 * key_parts_ : depth_ + key_parts_);
      }
      return;
    case '=':
      if (in_key_) {
        depth_ += key_parts_;
        deeper(depth_);
        in_key_ = false;
      }
      return;
    case '[':
      if (in_key_ && open_.empty()) { // [header] or [[header]]
        if (starts_with("[")) next();
        open_.push_back({'h', 0});
        depth_ = 0;
        key_parts_ = 1;
      } else if (!in_key_) {
        open_.push_back({'[', depth_});
        deeper(++depth_);
      }
      return;
    case '{':
      if (!in_key_) {
        open_.push_back({'{', depth_});
        deeper(++depth_);
        in_key_ = true;
        key_parts_ = 1;
      }
      return;
    case ']':
      if (!open_.empty() && open_.back().kind == 'h') {
        // Every part may name an array of tables, whose element is one level below it: two
        // levels a part, at most.
        if (starts_with("]")) next();
        open_.pop_back();
        table_depth_ = depth_ = 2 * key_parts_;
        deeper(depth_);
        in_key_ = false;
      } else if (!open_.empty() && open_.back().kind == '[') {
        depth_ = open_.back().depth;
        open_.pop_back();
      }
      return;
    case '}':
      if (!open_.empty() && open_.back().kind == '{') {
        depth_ = open_.back().depth;
        open_.pop_back();
        in_key_ = false;
      }
      return;
    case ',':
      if (!open_.empty() && open_.back().kind == '[') {
        depth_ = open_.back().depth + 1;
      } else if (!open_.empty() && open_.back().kind == '{') {
        depth_ = open_.back().depth + 1;
        in_key_ = true;
        key_parts_ = 1;
      }
      return;
    default: exposed(cp, "outside strings and comments");
    }
  }

  // toml++ reads a comment without testing its characters for whitespace.
  void comment() {
    size_t len;
    while (error_.empty() && peek(len) && text_[at_] != '\n')
      next();
  }

  void string(char quote) {
    const std::string triple(3, quote);
    const bool multi_line = starts_with(std::string_view(triple).substr(1));
    if (multi_line) next(), next();
    const std::string_view close = std::string_view(triple).substr(0, multi_line ? 3 : 1);
    const bool basic = quote == '"';
    bool escaped = false, after_line_end_backslash = false;
    while (error_.empty()) {
      if (!multi_line && (at_ >= text_.size() || text_[at_] == '\n')) return; // toml++ refuses
      if (!escaped && starts_with(close)) {
        at_ += close.size(), col_ += close.size();
        while (multi_line && starts_with(close.substr(0, 1)) && !starts_with(close))
          next(); // up to two quotes may end the content: """a"""" is a"
        return;
      }
      const char32_t cp = next();
      if (!cp) return;
      if (!basic) continue;
      const bool space = toml_horizontal_space(cp) || cp == '\n' || cp == '\r';
      if (escaped) {
        escaped = false;
        // After a backslash toml++ tests the next character for whitespace (a line-ending
        // backslash), then skips whitespace testing each character up to the first other one.
        if (multi_line && space)
          after_line_end_backslash = true;
        else
          exposed(cp, "after a backslash in a string");
        continue;
      }
      if (after_line_end_backslash && !space) {
        after_line_end_backslash = false;
        exposed(cp, "after a line-ending backslash in a string");
      }
      if (cp == '\\') escaped = true;
    }
  }
};

} // namespace

std::string toml_guard(std::string_view text, const std::string &name) {
  return Guard(text, name).run();
}

} // namespace cjit::detail
