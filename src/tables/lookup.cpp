// Lookups over the generated run tables, one character at a time (binary
// search). Part of pgcodec_runs, not of the library: the generator derives
// the library's dense tables (dense.hpp) with them and checks those against
// them; the codecs never call them.
#include "tables/lookup.hpp"

#include <algorithm>
#include <utility>

namespace pgcodec::detail {
namespace {

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

}  // namespace

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

}  // namespace pgcodec::detail
