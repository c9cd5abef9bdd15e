#include "core/model.hpp"

#include <array>
#include <memory>
#include <mutex>

#include "core/text.hpp"
#include "rules/grammar.hpp"

namespace pgcodec::harness {
namespace {

// The value of key k in ordered runs {first key -> (first value, length)}.
template <class Map>
std::optional<std::uint32_t> in_runs(const Map& runs, std::uint32_t k) {
  auto it = runs.upper_bound(k);
  if (it == runs.begin()) return std::nullopt;
  --it;
  if (k - it->first >= it->second.length) return std::nullopt;
  return it->second.to + (k - it->first);
}

// Decodes the one UTF-8 sequence (known to be valid) at s[i], advancing i.
std::uint32_t next_code_point(std::string_view s, std::size_t& i) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  const std::size_t n = b0 < 0x80 ? 1 : b0 < 0xE0 ? 2 : b0 < 0xF0 ? 3 : 4;
  std::uint32_t cp = n == 1 ? b0 : b0 & (0x7Fu >> n);
  for (std::size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3Fu);
  i += n;
  return cp;
}

}  // namespace

TableModel::TableModel(const detail::MappingTable& t)
    : enc_(t.encoding), identity_(t.kind == detail::TableKind::Identity) {
  for (const auto& r : t.decode) decode_[r.code] = {r.cp, r.length};
  for (const auto& r : t.decode_linear) decode_linear_[r.linear] = {r.cp, r.length};
  for (const auto& r : t.encode) encode_[r.cp] = {r.code, r.length};
  for (const auto& r : t.encode_linear) encode_linear_[r.cp] = {r.linear, r.length};
  for (const auto& p : t.decode_pairs) decode_pairs_[p.code] = {p.cp1, p.cp2};
  for (const auto& p : t.encode_pairs) encode_pairs_[{p.cp1, p.cp2}] = p.code;
  has_encode_pairs_ = !encode_pairs_.empty();
}

std::optional<std::pair<std::uint32_t, std::uint32_t>> TableModel::decode_code(std::uint32_t code) const {
  if (enc_ == Encoding::GB18030 && code > 0xFFFFFF) {  // four bytes: the linear runs
    if (auto cp = in_runs(decode_linear_, detail::gb18030_linear(code))) return std::pair{*cp, 0u};
    return std::nullopt;
  }
  if (auto cp = in_runs(decode_, code)) return std::pair{*cp, 0u};
  if (auto it = decode_pairs_.find(code); it != decode_pairs_.end()) return it->second;
  return std::nullopt;
}

std::optional<std::uint32_t> TableModel::encode_code_point(std::uint32_t cp) const {
  if (auto code = in_runs(encode_, cp)) return code;
  if (auto linear = in_runs(encode_linear_, cp)) return detail::gb18030_code(*linear);
  return std::nullopt;
}

std::optional<std::uint32_t> TableModel::encode_pair(std::uint32_t cp1, std::uint32_t cp2) const {
  auto it = encode_pairs_.find({cp1, cp2});
  if (it == encode_pairs_.end()) return std::nullopt;
  return it->second;
}

Outcome TableModel::decode(std::string_view bytes) const {
  auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  if (identity_) {
    // PostgreSQL checks SQL_ASCII input for NUL only, then, having no
    // conversion to run, validates the result as the target (UTF8).
    if (detail::verify_prefix(enc_, p, bytes.size()) != bytes.size() ||
        detail::verify_prefix(Encoding::UTF8, p, bytes.size()) != bytes.size())
      return Outcome::failed(OutcomeKind::InvalidByteSequence);
    return Outcome::converted(std::string(bytes));
  }
  // PostgreSQL validates the whole input before converting any of it, so an
  // invalid sequence anywhere wins over an unmappable character before it.
  if (detail::verify_prefix(enc_, p, bytes.size()) != bytes.size())
    return Outcome::failed(OutcomeKind::InvalidByteSequence);
  std::string out;
  for (std::size_t i = 0; i < bytes.size();) {
    const auto len = static_cast<std::size_t>(detail::verify_char(enc_, p + i, bytes.size() - i));
    const auto cps = decode_code(detail::code_of(bytes.substr(i, len)));
    if (!cps) return Outcome::failed(OutcomeKind::NoEquivalent);
    append_utf8(out, cps->first);
    if (cps->second) append_utf8(out, cps->second);
    i += len;
  }
  return Outcome::converted(std::move(out));
}

Outcome TableModel::encode(std::string_view utf8) const {
  if (identity_) return Outcome::converted(std::string(utf8));
  std::string out;
  for (std::size_t i = 0; i < utf8.size();) {
    const std::uint32_t cp = next_code_point(utf8, i);
    if (has_encode_pairs_ && i < utf8.size()) {
      std::size_t j = i;
      const std::uint32_t next = next_code_point(utf8, j);
      if (const auto code = encode_pair(cp, next)) {
        detail::append_code(out, *code);
        i = j;
        continue;
      }
    }
    const auto code = encode_code_point(cp);
    if (!code) return Outcome::failed(OutcomeKind::NoEquivalent);
    detail::append_code(out, *code);
  }
  return Outcome::converted(std::move(out));
}

const TableModel& model(Encoding e) {
  static std::array<std::unique_ptr<TableModel>, encoding_count> models;
  static std::array<std::once_flag, encoding_count> once;
  const auto i = static_cast<std::size_t>(to_int(e));
  std::call_once(once[i], [&] { models[i] = std::make_unique<TableModel>(*detail::mapping_table(e)); });
  return *models[i];
}

namespace {
template <class F>
Outcome with_model(const detail::MappingTable& t, F&& f) {
  if (&t == detail::mapping_table(t.encoding)) return f(model(t.encoding));
  return f(TableModel(t));
}
}  // namespace

Outcome model_decode(const detail::MappingTable& t, std::string_view bytes) {
  return with_model(t, [&](const TableModel& m) { return m.decode(bytes); });
}
Outcome model_encode(const detail::MappingTable& t, std::string_view utf8) {
  return with_model(t, [&](const TableModel& m) { return m.encode(utf8); });
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> decoded_codes(const detail::MappingTable& t) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
  for (auto& r : t.decode)
    for (std::uint32_t k = 0; k < r.length; ++k) out.emplace_back(r.code + k, r.cp + k);
  for (auto& r : t.decode_linear)
    for (std::uint32_t k = 0; k < r.length; ++k) out.emplace_back(detail::gb18030_code(r.linear + k), r.cp + k);
  return out;
}

}  // namespace pgcodec::harness
