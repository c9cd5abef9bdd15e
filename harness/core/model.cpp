#include "core/model.hpp"

#include "rules/grammar.hpp"
#include "rules/utf8.hpp"
#include "tables/lookup.hpp"

namespace pgcodec::detail {
namespace {

// Decodes one UTF-8 sequence known to be valid.
std::uint32_t next_cp(std::string_view s, std::size_t& i) {
  auto b = [&](std::size_t k) { return static_cast<std::uint32_t>(static_cast<unsigned char>(s[k])); };
  std::uint32_t c = b(i);
  if (c < 0x80) {
    i += 1;
    return c;
  }
  if (c < 0xE0) {
    c = ((c & 0x1F) << 6) | (b(i + 1) & 0x3F);
    i += 2;
  } else if (c < 0xF0) {
    c = ((c & 0x0F) << 12) | ((b(i + 1) & 0x3F) << 6) | (b(i + 2) & 0x3F);
    i += 3;
  } else {
    c = ((c & 0x07) << 18) | ((b(i + 1) & 0x3F) << 12) | ((b(i + 2) & 0x3F) << 6) |
        (b(i + 3) & 0x3F);
    i += 4;
  }
  return c;
}

}  // namespace

Answer reference_decode(const MappingTable& t, std::string_view bytes) {
  auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  Answer a;
  if (t.kind == TableKind::Identity) {
    // PostgreSQL checks SQL_ASCII input for NUL only, then, having no
    // conversion to run, validates the result as the target (UTF8).
    if (verify_prefix(t.encoding, p, bytes.size()) != bytes.size() ||
        verify_prefix(Encoding::UTF8, p, bytes.size()) != bytes.size()) {
      a.status = RefStatus::InvalidByteSequence;
      return a;
    }
    a.output.assign(bytes);
    return a;
  }
  // PostgreSQL validates the whole input before converting any of it, so an
  // invalid sequence anywhere wins over an unmappable character before it.
  if (verify_prefix(t.encoding, p, bytes.size()) != bytes.size()) {
    a.status = RefStatus::InvalidByteSequence;
    return a;
  }
  for (std::size_t i = 0; i < bytes.size();) {
    const int n = verify_char(t.encoding, p + i, bytes.size() - i);
    const auto len = static_cast<std::size_t>(n);
    std::uint32_t cp1 = 0, cp2 = 0;
    if (!lookup_decode(t, code_of(bytes.substr(i, len)), cp1, cp2)) {
      a.status = RefStatus::NoEquivalent;
      a.output.clear();
      return a;
    }
    append_utf8(a.output, cp1);
    if (cp2) append_utf8(a.output, cp2);
    i += len;
  }
  return a;
}

Answer reference_encode(const MappingTable& t, std::string_view utf8) {
  Answer a;
  if (t.kind == TableKind::Identity) {
    a.output.assign(utf8);
    return a;
  }
  for (std::size_t i = 0; i < utf8.size();) {
    const std::uint32_t cp = next_cp(utf8, i);
    std::uint32_t code = 0;
    if (!t.encode_pairs.empty() && i < utf8.size()) {
      std::size_t j = i;
      const std::uint32_t next = next_cp(utf8, j);
      if (lookup_encode_pair(t, cp, next, code)) {
        append_code(a.output, code);
        i = j;
        continue;
      }
    }
    if (!lookup_encode(t, cp, code)) {
      a.status = RefStatus::NoEquivalent;
      a.output.clear();
      return a;
    }
    append_code(a.output, code);
  }
  return a;
}

}  // namespace pgcodec::detail
