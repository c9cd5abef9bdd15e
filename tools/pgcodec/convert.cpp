#include "convert.hpp"

#include <nlohmann/json.hpp>

#include <cstring>
#include <vector>

namespace pgcodec::cli {
namespace {

constexpr std::size_t kChunk = 1 << 16;

std::string hex_bytes(const Error& e) {
  std::string s;
  char b[8];
  for (std::size_t i = 0; i < e.length; ++i) {
    std::snprintf(b, sizeof b, "%s%02x", i ? " " : "", e.bytes[i]);
    s += b;
  }
  return s;
}

// The input offset of the character whose UTF-8 starts at `utf8_offset` in
// the decoding of `in` (which decodes without errors up to there): decode
// one character at a time until the output reaches that point.
std::size_t input_offset(const Codec& from, std::string_view in, std::size_t utf8_offset) {
  std::size_t i = 0, produced = 0;
  char buf[16];
  while (produced < utf8_offset && i < in.size()) {
    const std::size_t len = from.char_length(in, i);
    Result r = from.decode(in.substr(i, len), buf, ErrorMode::Replace);
    produced += r.written;
    i += len;
  }
  return i;
}

// Reads the input in chunks, keeping a character cut off at a chunk's end
// for the next round; calls `block(bytes, base_offset, final)` with runs of
// whole characters. Returns false on a read error.
template <class Block>
bool for_each_block(std::FILE* in, Block block) {
  std::vector<char> buf(kChunk + 16);
  std::size_t have = 0, base = 0;
  for (;;) {
    const std::size_t got = std::fread(buf.data() + have, 1, kChunk, in);
    if (got == 0 && std::ferror(in)) return false;
    have += got;
    const bool eof = got == 0;
    std::size_t used = block(std::string_view(buf.data(), have), base, eof);
    if (used == static_cast<std::size_t>(-1)) return true;  // stop requested
    base += used;
    std::memmove(buf.data(), buf.data() + used, have - used);
    have -= used;
    if (eof) return true;
  }
}

}  // namespace

int run_convert(const ConvertOptions& o, std::FILE* in, std::FILE* out, std::FILE* err) {
  const Codec& from = *o.from;
  const Codec& to = *o.to;
  std::vector<char> utf8(*from.max_decoded_size(kChunk + 16));
  std::vector<char> bytes(*to.max_encoded_size(utf8.size()));
  int status = 0;
  auto fail = [&](const Error& e, std::size_t offset) {
    std::fprintf(err, "pgcodec: %s at byte offset %zu\n", e.message().c_str(), offset);
    status = 1;
    return static_cast<std::size_t>(-1);
  };
  const bool ok = for_each_block(in, [&](std::string_view block, std::size_t base, bool eof) -> std::size_t {
    Result d = eof ? from.decode(block, utf8, o.mode) : from.decode_partial(block, utf8, o.mode);
    if (d.status == Status::Error) {
      // Convert what came before the error, as PostgreSQL would have
      // accepted it, then report.
      Result e = to.encode(std::string_view(utf8.data(), d.written), bytes, o.mode);
      if (e.status == Status::Error)
        return fail(e.error, base + input_offset(from, block, e.error.offset));
      std::fwrite(bytes.data(), 1, e.written, out);
      return fail(d.error, base + d.error.offset);
    }
    Result e = to.encode(std::string_view(utf8.data(), d.written), bytes, o.mode);
    if (e.status == Status::Error) {
      std::fwrite(bytes.data(), 1, e.written, out);
      return fail(e.error, base + input_offset(from, block, e.error.offset));
    }
    std::fwrite(bytes.data(), 1, e.written, out);
    return d.consumed;
  });
  if (!ok) {
    std::fprintf(err, "pgcodec: read error: %s\n", std::strerror(errno));
    return 2;
  }
  if (std::fflush(out) != 0) {
    std::fprintf(err, "pgcodec: write error: %s\n", std::strerror(errno));
    return 2;
  }
  return status;
}

int run_check(const ConvertOptions& o, std::FILE* in, std::FILE* out) {
  const Codec& from = *o.from;
  std::vector<char> utf8(*from.max_decoded_size(kChunk + 16));
  std::size_t errors = 0;
  auto report = [&](const Error& e, std::size_t offset) {
    ++errors;
    const char* kind =
        e.kind == ErrorKind::InvalidByteSequence ? "invalid byte sequence" : "no equivalent";
    if (o.json) {
      nlohmann::json j = {{"offset", offset}, {"kind", kind}, {"sqlstate", e.sqlstate()},
                          {"bytes", hex_bytes(e)}, {"message", e.message()}};
      std::fprintf(out, "%s\n", j.dump().c_str());
    } else {
      std::fprintf(out, "%zu: %s [%s]: %s\n", offset, kind, e.sqlstate(), e.message().c_str());
    }
  };
  const bool ok = for_each_block(in, [&](std::string_view block, std::size_t base, bool eof) -> std::size_t {
    std::size_t start = 0;  // where the current error-free stretch begins
    auto flush_target = [&](std::size_t end) {
      if (!o.to || end <= start) return;
      const std::string_view stretch = block.substr(start, end - start);
      const Result d = from.decode(stretch, utf8, ErrorMode::Strict);
      o.to->for_each_encode_error(std::string_view(utf8.data(), d.written), [&](const Error& e) {
        report(e, base + start + input_offset(from, stretch, e.offset));
      });
    };
    const auto c = from.for_each_decode_error(block, [&](const Error& e) {
      flush_target(e.offset);
      report(e, base + e.offset);
      start = e.offset + e.skip;
    }, eof);
    flush_target(c.consumed);
    return c.consumed;
  });
  if (!ok) {
    std::fprintf(stderr, "pgcodec: read error: %s\n", std::strerror(errno));
    return 2;
  }
  return errors ? 1 : 0;
}

}  // namespace pgcodec::cli
