#include "detail/reference.hpp"

#include <algorithm>

#include "detail/verify.hpp"

namespace pgcodec::detail {
namespace {

// The run in a sorted span whose key range holds `key`, or nullptr.
template <class T, class Key>
const T* find_run(std::span<const T> runs, std::uint32_t key, Key key_of) {
  auto it = std::upper_bound(runs.begin(), runs.end(), key,
                             [&](std::uint32_t k, const T& r) { return k < key_of(r); });
  if (it == runs.begin()) return nullptr;
  --it;
  return key - key_of(*it) < it->length ? &*it : nullptr;
}

bool is_gb18030_four(Encoding e, std::uint32_t code) {
  return e == Encoding::GB18030 && code > 0xFFFFFF;
}

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

void append_utf8(std::string& out, std::uint32_t cp) {
  auto put = [&](std::uint32_t v) { out.push_back(static_cast<char>(v)); };
  if (cp < 0x80) {
    put(cp);
  } else if (cp < 0x800) {
    put(0xC0 | (cp >> 6));
    put(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    put(0xE0 | (cp >> 12));
    put(0x80 | ((cp >> 6) & 0x3F));
    put(0x80 | (cp & 0x3F));
  } else {
    put(0xF0 | (cp >> 18));
    put(0x80 | ((cp >> 12) & 0x3F));
    put(0x80 | ((cp >> 6) & 0x3F));
    put(0x80 | (cp & 0x3F));
  }
}

void append_code(std::string& out, std::uint32_t code) {
  int n = code > 0xFFFFFF ? 4 : code > 0xFFFF ? 3 : code > 0xFF ? 2 : 1;
  for (int k = n - 1; k >= 0; --k) out.push_back(static_cast<char>((code >> (8 * k)) & 0xFF));
}

std::uint32_t code_of(std::string_view bytes) {
  std::uint32_t c = 0;
  for (char b : bytes) c = (c << 8) | static_cast<unsigned char>(b);
  return c;
}

bool lookup_decode(const MappingTable& t, std::uint32_t code, std::uint32_t& cp1,
                   std::uint32_t& cp2) {
  cp2 = 0;
  if (is_gb18030_four(t.encoding, code)) {
    const std::uint32_t lin = gb18030_linear(code);
    if (auto* r = find_run(t.decode_linear, lin, [](const LinearRun& x) { return x.linear; })) {
      cp1 = r->cp + (lin - r->linear);
      return true;
    }
    return false;
  }
  if (auto* r = find_run(t.decode, code, [](const Run& x) { return x.code; })) {
    cp1 = r->cp + (code - r->code);
    return true;
  }
  auto it = std::lower_bound(t.decode_pairs.begin(), t.decode_pairs.end(), code,
                             [](const Pair& p, std::uint32_t k) { return p.code < k; });
  if (it != t.decode_pairs.end() && it->code == code) {
    cp1 = it->cp1;
    cp2 = it->cp2;
    return true;
  }
  return false;
}

bool lookup_encode(const MappingTable& t, std::uint32_t cp, std::uint32_t& code) {
  if (auto* r = find_run(t.encode, cp, [](const Run& x) { return x.cp; })) {
    code = r->code + (cp - r->cp);
    return true;
  }
  if (auto* r = find_run(t.encode_linear, cp, [](const LinearRun& x) { return x.cp; })) {
    code = gb18030_code(r->linear + (cp - r->cp));
    return true;
  }
  return false;
}

bool lookup_encode_pair(const MappingTable& t, std::uint32_t cp1, std::uint32_t cp2,
                        std::uint32_t& code) {
  auto it = std::lower_bound(t.encode_pairs.begin(), t.encode_pairs.end(), std::pair{cp1, cp2},
                             [](const Pair& p, std::pair<std::uint32_t, std::uint32_t> k) {
                               return std::pair{p.cp1, p.cp2} < k;
                             });
  if (it != t.encode_pairs.end() && it->cp1 == cp1 && it->cp2 == cp2) {
    code = it->code;
    return true;
  }
  return false;
}

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
