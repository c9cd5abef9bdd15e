#include "core/model.hpp"

#include <algorithm>
#include <array>
#include <memory>
#include <mutex>

#include "core/byte_rules.hpp"
#include "core/text.hpp"

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
  if (identity_) {
    // PostgreSQL checks SQL_ASCII input for NUL only, then, having no
    // conversion to run, validates the result as the target (UTF8).
    if (bytes.find('\0') != std::string_view::npos ||
        well_formed_prefix(Encoding::UTF8, bytes) != bytes.size())
      return Outcome::failed(OutcomeKind::InvalidByteSequence);
    return Outcome::converted(std::string(bytes));
  }
  // PostgreSQL validates the whole input before converting any of it, so an
  // invalid sequence anywhere wins over an unmappable character before it.
  if (well_formed_prefix(enc_, bytes) != bytes.size())
    return Outcome::failed(OutcomeKind::InvalidByteSequence);
  std::string out;
  for (std::size_t i = 0; i < bytes.size();) {
    const std::size_t len = well_formed_length(enc_, bytes.substr(i));
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

// --- the client path --------------------------------------------------------

// What the walk does at one position: converts `length` bytes to `out`, or
// fails at `at` (which the combined-character lookahead may put on the next
// character) with the bytes quoted from there, at most `quote_avail` of them.
struct TableModel::Step {
  std::size_t length = 0;
  std::string out;
  bool failed = false;
  OutcomeKind kind = OutcomeKind::Ok;
  Encoding named = Encoding::UTF8;  // the encoding the error names
  std::size_t at = 0, quote_avail = 0, skip = 1;
  // The lookahead failed: the error is the next character's (or, when the
  // end cuts the next one off, PostgreSQL's report of this one because of
  // it). Check and Replace mode convert this character on its own first.
  bool blames_next = false;
};

namespace {

std::string quoted_hex(std::string_view b) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string s;
  for (char ch : b) {
    const auto c = static_cast<unsigned char>(ch);
    if (!s.empty()) s += ' ';
    s += "0x";
    s += digits[c >> 4];
    s += digits[c & 15];
  }
  return s;
}

}  // namespace

TableModel::Step TableModel::decode_step(std::string_view in, std::size_t i) const {
  Step st;
  const std::string_view rest = in.substr(i);
  const Encoding rules = identity_ ? Encoding::UTF8 : enc_;
  const std::size_t n = well_formed_length(rules, rest);
  auto fail = [&](OutcomeKind kind, std::size_t skip) {
    st.failed = true;
    st.kind = kind;
    st.named = rules;
    st.at = i;
    st.quote_avail = rest.size();
    st.skip = skip;
    return st;
  };
  if (!n) return fail(OutcomeKind::InvalidByteSequence, 1);
  st.length = n;
  if (identity_ || (n == 1 && static_cast<unsigned char>(rest[0]) < 0x80)) {
    st.out = rest.substr(0, n);
    return st;
  }
  const auto cps = decode_code(detail::code_of(rest.substr(0, n)));
  if (!cps) return fail(OutcomeKind::NoEquivalent, n);
  append_utf8(st.out, cps->first);
  if (cps->second) append_utf8(st.out, cps->second);
  return st;
}

TableModel::Step TableModel::encode_step(std::string_view in, std::size_t i, bool lookahead) const {
  Step st;
  const std::string_view rest = in.substr(i);
  auto fail = [&](OutcomeKind kind, std::size_t at, std::size_t quote_avail, std::size_t skip) {
    st.failed = true;
    st.kind = kind;
    st.named = Encoding::UTF8;
    st.at = at;
    st.quote_avail = quote_avail;
    st.skip = skip;
    return st;
  };
  const std::size_t n = well_formed_length(Encoding::UTF8, rest);
  if (!n) return fail(OutcomeKind::InvalidByteSequence, i, rest.size(), 1);
  st.length = n;
  if (identity_ || n == 1) {
    st.out = rest.substr(0, n);
    return st;
  }
  std::size_t k = 0;
  const std::uint32_t cp = next_code_point(rest, k);
  if (lookahead && has_encode_pairs_ && rest.size() > n) {
    // UtfToLocal reads the next character before converting this one, and
    // any character: it does not ask whether this one starts a pair.
    const std::string_view next = rest.substr(n);
    const std::size_t l2 = lead_length(Encoding::UTF8, next);
    st.blames_next = true;
    if (next.size() < l2)  // cut off: this character is reported, quoting up to the end
      return fail(OutcomeKind::InvalidByteSequence, i, next.size(), 1);
    const bool legal = next[0] == '\0' || well_formed_length(Encoding::UTF8, next.substr(0, l2)) == l2;
    if (!legal) return fail(OutcomeKind::InvalidByteSequence, i + n, next.size(), 1);
    st.blames_next = false;
    if (l2 > 1) {
      std::size_t k2 = 0;
      const std::uint32_t cp2 = next_code_point(next, k2);
      if (const auto code = encode_pair(cp, cp2)) {
        detail::append_code(st.out, *code);
        st.length = n + l2;
        return st;
      }
    }
  }
  const auto code = encode_code_point(cp);
  if (!code) return fail(OutcomeKind::NoEquivalent, i, rest.size(), n);
  detail::append_code(st.out, *code);
  return st;
}

template <class StepFn>
ClientRun TableModel::client_run(std::string_view in, bool decoding, StepFn step) const {
  auto error_of = [&](const Step& st) {
    ModelError e;
    e.offset = st.at;
    e.skip = std::min(st.skip, in.size() - st.at);
    const std::string_view from = in.substr(st.at);
    const std::size_t quoted =
        std::min({std::max<std::size_t>(1, lead_length(st.named, from.substr(0, st.quote_avail))),
                  st.quote_avail, std::size_t{8}});
    Outcome& o = e.outcome;
    o.kind = st.kind;
    o.offset = st.at;
    o.bytes = std::string(from.substr(0, quoted));
    const bool invalid = st.kind == OutcomeKind::InvalidByteSequence;
    o.sqlstate = invalid ? "22021" : "22P05";
    const std::string name = std::string(info(st.named).name);
    const std::string target = std::string(info(decoding ? Encoding::UTF8 : enc_).name);
    if (invalid)
      o.message = "invalid byte sequence for encoding \"" + name + "\": " + quoted_hex(*o.bytes);
    else
      o.message = "character with byte sequence " + quoted_hex(*o.bytes) + " in encoding \"" + name +
                  "\" has no equivalent in encoding \"" + target + "\"";
    return e;
  };
  // Strict conversion from `from`: the first error, and the output before it.
  auto strict = [&](std::size_t from, std::string* out,
                    std::size_t* stopped = nullptr) -> std::optional<ModelError> {
    for (std::size_t i = from; i < in.size();) {
      const Step st = step(in, i, true);
      if (st.failed) {
        if (stopped) *stopped = i;
        return error_of(st);
      }
      if (out) *out += st.out;
      i += st.length;
    }
    return std::nullopt;
  };
  ClientRun run;
  std::string out;
  if (auto e = strict(0, &out, &run.consumed)) {
    run.strict = e->outcome;
    run.before_error = std::move(out);
  } else {
    run.strict = Outcome::converted(std::move(out));
    run.consumed = in.size();
  }
  // Check and Replace mode, one walk (docs/semantics.md): an error at this
  // position is listed and replaced (its skip bytes); one the lookahead
  // blames on the next character is left to the next position, and this
  // character converts on its own.
  const std::string replacement = decoding ? utf8(0xFFFD) : std::string("?");
  for (std::size_t i = 0; i < in.size();) {
    Step st = step(in, i, true);
    if (st.failed && st.blames_next) st = step(in, i, false);
    if (st.failed) {
      run.errors.push_back(error_of(st));
      run.replaced += replacement;
      i += std::min(st.skip, in.size() - i);
    } else {
      run.replaced += st.out;
      i += st.length;
    }
  }
  return run;
}

ClientRun TableModel::client_decode(std::string_view bytes) const {
  return client_run(bytes, true,
                    [this](std::string_view in, std::size_t i, bool) { return decode_step(in, i); });
}

ClientRun TableModel::client_encode(std::string_view utf8) const {
  return client_run(utf8, false, [this](std::string_view in, std::size_t i, bool lookahead) {
    return encode_step(in, i, lookahead);
  });
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
