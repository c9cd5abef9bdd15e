#include "pgcodec/codec.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <limits>

#include "codec_table.hpp"
#include "codecs/codec_ops.hpp"
#include "kernels/kernels.hpp"
#include "rules/grammar.hpp"

namespace pgcodec {

namespace {

std::optional<std::size_t> times(std::size_t n, std::size_t factor) {
  if (factor && n > (std::numeric_limits<std::size_t>::max() - 16) / factor) return std::nullopt;
  return n * factor;
}

}  // namespace

Result Codec::decode(std::string_view in, std::span<char> out, ErrorMode mode) const noexcept {
  return row_->ops->decode(*row_, in, out, mode, true, kernels::active());
}

Result Codec::decode_partial(std::string_view in, std::span<char> out, ErrorMode mode) const noexcept {
  return row_->ops->decode(*row_, in, out, mode, false, kernels::active());
}

Result Codec::encode(std::string_view utf8, std::span<char> out, ErrorMode mode) const noexcept {
  return row_->ops->encode(*row_, utf8, out, mode, kernels::active());
}

Codec::CheckResult Codec::check(std::string_view in, ErrorVisitor visit, void* context,
                                bool decoding, bool final) const noexcept {
  CheckResult c;
  char scratch[4096];  // output is thrown away; only errors matter
  const kernels::Kernel& k = kernels::active();
  std::size_t i = 0;
  while (i < in.size()) {
    const std::string_view rest = in.substr(i);
    const std::span<char> out(scratch);
    const Result r = decoding ? row_->ops->decode(*row_, rest, out, ErrorMode::Strict, final, k)
                              : row_->ops->encode(*row_, rest, out, ErrorMode::Strict, k);
    if (r.status == Status::Error) {
      Error e = r.error;
      e.offset += i;
      ++c.errors;
      visit(e, context);
      i += r.error.offset + r.error.skip;
      continue;
    }
    i += r.consumed;
    if (r.status != Status::OutputFull) break;  // done, or a cut-off character
  }
  c.consumed = i;
  return c;
}

Codec::CheckResult Codec::check_decode(std::string_view in, ErrorVisitor visit, void* context,
                                       bool final) const noexcept {
  return check(in, visit, context, true, final);
}

Codec::CheckResult Codec::check_encode(std::string_view utf8, ErrorVisitor visit,
                                       void* context) const noexcept {
  return check(utf8, visit, context, false, true);
}

std::optional<std::size_t> Codec::max_decoded_size(std::size_t n) const noexcept {
  return times(n, row_->ops->decode_factor);
}

std::optional<std::size_t> Codec::max_encoded_size(std::size_t n) const noexcept {
  return times(n, row_->ops->encode_factor);
}

std::size_t Codec::char_length(std::string_view s, std::size_t at) const noexcept {
  if (at >= s.size()) return 0;
  const auto* p = reinterpret_cast<const unsigned char*>(s.data()) + at;
  const int n = detail::char_length(encoding_, p, s.size() - at);
  return std::min<std::size_t>(static_cast<std::size_t>(std::max(n, 1)), s.size() - at);
}

namespace {
template <class Fn>
std::string convert_alloc(std::optional<std::size_t> cap, Fn fn) {
  if (!cap) throw std::length_error("pgcodec: input too large");
  std::string out(*cap, '\0');
  Result r = fn(std::span<char>(out.data(), out.size()));
  if (r.status == Status::Error) throw ConversionError(r.error);
  out.resize(r.written);
  return out;
}
}  // namespace

std::string Codec::decode(std::string_view in, ErrorMode mode) const {
  return convert_alloc(max_decoded_size(in.size()),
                       [&](std::span<char> o) { return decode(in, o, mode); });
}

std::string Codec::encode(std::string_view utf8, ErrorMode mode) const {
  return convert_alloc(max_encoded_size(utf8.size()),
                       [&](std::span<char> o) { return encode(utf8, o, mode); });
}

const Codec* find_codec(std::string_view name) noexcept {
  auto e = lookup(name);
  return e ? &codec(*e) : nullptr;
}

Result decode(std::string_view encoding_name, std::string_view in, std::span<char> out,
              ErrorMode mode) {
  const Codec* c = find_codec(encoding_name);
  if (!c) throw std::invalid_argument("pgcodec: unknown encoding \"" + std::string(encoding_name) + "\"");
  return c->decode(in, out, mode);
}

Result encode(std::string_view encoding_name, std::string_view utf8, std::span<char> out,
              ErrorMode mode) {
  const Codec* c = find_codec(encoding_name);
  if (!c) throw std::invalid_argument("pgcodec: unknown encoding \"" + std::string(encoding_name) + "\"");
  return c->encode(utf8, out, mode);
}

}  // namespace pgcodec
