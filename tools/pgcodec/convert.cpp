#include "convert.hpp"

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iomanip>
#include <sstream>
#include <vector>

#include "pgcodec/encoding.hpp"

namespace pgcodec::cli {

bool Output::fail(int err) noexcept {
  if (!failed_) {
    failed_ = true;
    errno_ = err;
  }
  return false;
}

bool Output::write(std::string_view s) noexcept {
  if (failed_) return false;
  if (s.empty()) return true;
  errno = 0;
  if (std::fwrite(s.data(), 1, s.size(), f_) != s.size()) return fail(errno);
  return true;
}

bool Output::flush() noexcept {
  if (failed_) return false;
  errno = 0;
  if (std::fflush(f_) != 0 || std::ferror(f_)) return fail(errno);
  return true;
}

bool Output::sync() noexcept {
  if (!flush()) return false;
  errno = 0;
  if (::fsync(fileno(f_)) != 0) return fail(errno);
  return true;
}

bool Output::close() noexcept {
  const bool flushed = flush();
  errno = 0;
  const bool closed = std::fclose(f_) == 0;
  f_ = nullptr;
  if (!closed) fail(errno);
  return flushed && closed;
}

std::string Output::error_message() const {
  std::string m = "write error on " + name_;
  if (errno_ != 0) m += std::string(": ") + std::strerror(errno_);
  return m;
}

namespace {

// Input is read in chunks of this size (see convert.hpp's kChunkSize).
constexpr std::size_t kChunk = kChunkSize;
constexpr std::size_t kSpoolInMemory = 1 << 20;

std::string hex_bytes(const Error& e) {
  std::string s;
  char b[8];
  for (std::size_t i = 0; i < e.length; ++i) {
    std::snprintf(b, sizeof b, "%s%02x", i ? " " : "", e.bytes[i]);
    s += b;
  }
  return s;
}

// Maps offsets in the UTF-8 decoding of `in` (which decodes without errors
// up to them) back to offsets in `in`: the input offset of the character
// whose UTF-8 starts there. Offsets must be asked for in increasing order;
// the walk resumes where the last one stopped, so all of a stretch's errors
// together cost one pass over it.
class InputOffsets {
 public:
  InputOffsets(const Codec& from, std::string_view in) : from_(from), in_(in) {}
  std::size_t operator()(std::size_t utf8_offset) {
    while (produced_ < utf8_offset && i_ < in_.size()) advance(next());
    return i_;
  }
  // The input offset of the character whose text holds utf8_offset (or
  // starts there); produced() is then where that text starts.
  std::size_t at_or_before(std::size_t utf8_offset) {
    while (i_ < in_.size()) {
      const Step s = next();
      if (produced_ + s.written > utf8_offset) break;
      advance(s);
    }
    return i_;
  }
  std::size_t produced() const { return produced_; }

 private:
  struct Step {
    std::size_t length, written;  // the next character's bytes, and its text's
  };
  Step next() const {
    char buf[16];
    const std::size_t len = from_.char_length(in_, i_);
    return {len, from_.decode(in_.substr(i_, len), buf, ErrorMode::Replace).written};
  }
  void advance(const Step& s) {
    i_ += s.length;
    produced_ += s.written;
  }

  const Codec& from_;
  std::string_view in_;
  std::size_t i_ = 0, produced_ = 0;
};

// Reads the input in chunks, keeping a character cut off at a chunk's end
// for the next round; calls `block(bytes, base_offset, final)` with runs of
// whole characters. `block` returns how many bytes it used, or kStop.
// Returns false on a read error.
constexpr std::size_t kStop = static_cast<std::size_t>(-1);
template <class Block>
bool for_each_block(std::FILE* in, ProgressSink* progress, Block block) {
  // The input is read once, front to back: let the kernel read ahead. Not
  // every input can be advised (a pipe cannot); that costs nothing.
  (void)posix_fadvise(fileno(in), 0, 0, POSIX_FADV_SEQUENTIAL);
  std::vector<char> buf(kChunk + 16);
  std::size_t have = 0, base = 0;
  for (;;) {
    // What a block leaves is normally a character cut off by its end; more
    // only when convert holds back text that a combined pair could still
    // take (a run of tone letters at worst): the buffer then grows.
    if (buf.size() - have < kChunk) buf.resize(have + kChunk);
    const std::size_t got = std::fread(buf.data() + have, 1, kChunk, in);
    if (got == 0 && std::ferror(in)) return false;
    have += got;
    if (progress) progress->update(base + have);
    const bool eof = got == 0;
    std::size_t used = block(std::string_view(buf.data(), have), base, eof);
    if (used == kStop) return true;
    base += used;
    std::memmove(buf.data(), buf.data() + used, have - used);
    have -= used;
    if (eof) return true;
  }
}

void clear_progress(const ConvertOptions& o) {
  if (o.progress) o.progress->clear();
}

void report_read_error(const ConvertOptions& o, std::FILE* err) {
  clear_progress(o);
  std::fprintf(err, "pgcodec: read error on %s: %s\n", o.input_name.c_str(), std::strerror(errno));
}

struct Located {
  Error error;
  std::size_t offset = 0;  // in the input
  bool set = false;
};

// Lines held back until the input is read: memory first, then a temporary
// file, so that any number of them takes constant memory.
class Spool {
 public:
  Spool() = default;
  Spool(const Spool&) = delete;
  Spool& operator=(const Spool&) = delete;
  ~Spool() {
    if (file_) std::fclose(file_);
  }
  // False (errno set) when the temporary file cannot be made or written.
  bool add(const std::string& line) {
    if (!file_) {
      mem_ += line;
      if (mem_.size() <= kSpoolInMemory) return true;
      file_ = std::tmpfile();
      if (!file_) return false;
      const std::string held = std::move(mem_);
      mem_.clear();
      return std::fwrite(held.data(), 1, held.size(), file_) == held.size();
    }
    return std::fwrite(line.data(), 1, line.size(), file_) == line.size();
  }
  // Writes the first `lines` lines held to `out`; false on a read error of
  // the spool (a write error is left in `out`).
  bool drain(Output& out, std::size_t lines) {
    auto give = [&](std::string_view s) {
      std::size_t end = 0;
      while (lines > 0 && end < s.size()) {
        const std::size_t nl = s.find('\n', end);
        end = nl == std::string_view::npos ? s.size() : nl + 1;
        if (nl != std::string_view::npos) --lines;
      }
      return out.write(s.substr(0, end));
    };
    if (file_) {
      if (std::fflush(file_) != 0) return false;
      std::rewind(file_);
      std::vector<char> buf(kChunk);
      std::size_t got;
      while (lines > 0 && (got = std::fread(buf.data(), 1, buf.size(), file_)) > 0)
        if (!give(std::string_view(buf.data(), got))) return true;
      if (std::ferror(file_)) return false;
    }
    give(mem_);
    return true;
  }

 private:
  std::string mem_;
  std::FILE* file_ = nullptr;
};

// convert --errors skip. Simpler than run_convert's strict path, which must
// map an output-side error back to its input offset: here nothing is
// reported, so the text encode_partial holds back (a cut-off character, the
// first half of a pair EUC_JIS_2004 and SHIFT_JIS_2004 combine) is simply
// kept as UTF-8 and put before the next block's text.
int run_convert_skip(const ConvertOptions& o, std::FILE* in, Output& out, std::FILE* err) {
  const Codec& from = *o.from;
  const Codec& to = *o.to;
  std::string text;  // held-back text, then this block's
  std::vector<char> utf8, bytes;
  std::size_t invalid = 0, unmapped = 0;
  const bool read_ok = for_each_block(in, o.progress, [&](std::string_view block, std::size_t, bool eof) -> std::size_t {
    // Take the block in, dropping each invalid sequence as check skips it.
    utf8.resize(*from.max_decoded_size(block.size()));
    std::size_t pos = 0, written = 0;
    for (;;) {
      const std::string_view rest = block.substr(pos);
      const std::span<char> room(utf8.data() + written, utf8.size() - written);
      const Result d = eof ? from.decode(rest, room) : from.decode_partial(rest, room);
      written += d.written;
      if (d.status != Status::Error) {
        pos += d.consumed;
        break;
      }
      ++invalid;
      pos += d.error.offset + d.error.skip;
    }
    text.append(utf8.data(), written);
    // Give it out, dropping each character `to` lacks.
    bytes.resize(*to.max_encoded_size(text.size()));
    std::size_t tpos = 0;
    for (;;) {
      const std::string_view rest = std::string_view(text).substr(tpos);
      const Result e = eof ? to.encode(rest, bytes) : to.encode_partial(rest, bytes);
      if (!out.write(std::string_view(bytes.data(), e.written))) return kStop;
      if (e.status != Status::Error) {
        tpos += e.consumed;
        break;
      }
      ++unmapped;
      tpos += e.error.offset + e.error.skip;
    }
    text.erase(0, tpos);
    return pos;
  });
  if (o.stats) {
    o.stats->dropped_invalid += invalid;
    o.stats->dropped_unmapped += unmapped;
  }
  if (!read_ok) {
    report_read_error(o, err);
    return 2;
  }
  return out.flush() ? 0 : 2;
}

}  // namespace

int run_convert(const ConvertOptions& o, std::FILE* in, Output& out, std::FILE* err) {
  if (o.skip) return run_convert_skip(o, in, out, err);
  const Codec& from = *o.from;
  const Codec& to = *o.to;
  // What the decoder writes is well-formed UTF-8 without NUL (any decoder,
  // either mode), which encoding to UTF8 would only copy: it is written as
  // it is. From UTF8, decoding is a validating copy that encoding repeats,
  // so in strict mode a block is first encoded straight from the input; only
  // a block with an error takes the general path below, which then decides
  // which error PostgreSQL reports first. (Replace mode keeps the general
  // path: there a bad byte becomes U+FFFD first, which `to` may have.)
  const bool to_utf8 = to.encoding() == Encoding::UTF8;
  const bool from_utf8 =
      from.encoding() == Encoding::UTF8 && !to_utf8 && o.mode == ErrorMode::Strict;
  std::vector<char> utf8(*from.max_decoded_size(kChunk + 16));
  std::vector<char> bytes(*to.max_encoded_size(utf8.size()));
  Located intake, outlet;  // the first error taking the input in, giving it out
  const bool read_ok = for_each_block(in, o.progress, [&](std::string_view block, std::size_t base, bool eof) -> std::size_t {
    if (utf8.size() < *from.max_decoded_size(block.size())) {
      utf8.resize(*from.max_decoded_size(block.size()));
      bytes.resize(*to.max_encoded_size(utf8.size()));
    }
    if (from_utf8 && !outlet.set) {
      const Result e = eof ? to.encode(block, bytes, o.mode) : to.encode_partial(block, bytes, o.mode);
      if (e.status == Status::Ok) {
        if (!out.write(std::string_view(bytes.data(), e.written))) return kStop;
        return e.consumed;
      }
    }
    // Decoded in two parts, so that the input offset of a place near the end
    // of the text can be found without a walk from the start: the head, and
    // the last 256 bytes from where the head stopped (a character boundary).
    // An error in the head is decoded again in one piece, so that its quoted
    // bytes do not depend on the split.
    const std::size_t split = block.size() > 512 ? block.size() - 256 : 0;
    Result d = from.decode_partial(block.substr(0, split), utf8, o.mode);
    const std::size_t head_in = d.consumed, head_out = d.written;
    if (d.status != Status::Ok) {
      d = eof ? from.decode(block, utf8, o.mode) : from.decode_partial(block, utf8, o.mode);
    } else {
      const std::string_view rest = block.substr(head_in);
      const std::span<char> room(utf8.data() + head_out, utf8.size() - head_out);
      d = eof ? from.decode(rest, room, o.mode) : from.decode_partial(rest, room, o.mode);
      d.consumed += head_in;
      d.written += head_out;
      if (d.status == Status::Error) d.error.offset += head_in;
    }
    std::size_t used = d.consumed;
    // Give out what came before the intake error (all of it if none), as
    // long as nothing has failed on the way out.
    if (!outlet.set) {
      const std::string_view text(utf8.data(), d.written);
      if (to_utf8) {
        if (!out.write(text)) return kStop;
      } else if (eof || d.status == Status::Error) {
        const Result e = to.encode(text, bytes, o.mode);
        if (!out.write(std::string_view(bytes.data(), e.written))) return kStop;
        if (e.status == Status::Error)
          outlet = {e.error, base + InputOffsets(from, block)(e.error.offset), true};
      } else {
        // More text follows: encode_partial holds back what the next block
        // could still change (a combined pair's first half in EUC_JIS_2004
        // and SHIFT_JIS_2004), and the block then ends at the input
        // character whose text begins there, to be decoded again with the
        // next block. Where that place falls inside one input character's
        // text (one that decodes to two code points), the cut moves before
        // the whole character.
        std::size_t limit = text.size();
        Result e;
        for (;;) {
          e = to.encode_partial(text.substr(0, limit), bytes, o.mode);
          if (e.status == Status::Error || e.consumed == text.size()) break;
          const bool in_tail = e.consumed >= head_out;
          InputOffsets walk(from, in_tail ? block.substr(head_in, d.consumed - head_in) : block);
          const std::size_t from_out = in_tail ? head_out : 0, from_in = in_tail ? head_in : 0;
          used = from_in + walk.at_or_before(e.consumed - from_out);
          const std::size_t reached = from_out + walk.produced();
          if (reached == e.consumed) break;
          limit = reached;
        }
        if (!out.write(std::string_view(bytes.data(), e.written))) return kStop;
        if (e.status == Status::Error) {
          outlet = {e.error, base + InputOffsets(from, block)(e.error.offset), true};
          used = d.consumed;  // the rest is only read, to find an intake error
        }
      }
    }
    if (d.status == Status::Error) {
      intake = {d.error, base + d.error.offset, true};
      return kStop;
    }
    return used;
  });
  if (!read_ok) {
    report_read_error(o, err);
    return 2;
  }
  // Only what reached the file counts as converted.
  if (!out.flush()) return 2;  // the caller reports it
  const Located& first = intake.set ? intake : outlet;
  if (!first.set) return 0;
  clear_progress(o);
  std::fprintf(err, "pgcodec: %s at byte offset %zu%s\n", first.error.message().c_str(), first.offset,
               o.name_input ? (" in " + o.input_name).c_str() : "");
  return 1;
}

int run_check(const ConvertOptions& o, std::FILE* in, Output& out, std::FILE* err) {
  const Codec& from = *o.from;
  std::vector<char> utf8(*from.max_decoded_size(kChunk + 16));
  std::size_t errors = 0;
  // --max-errors: lines still allowed; the second group is cut when spooled.
  const std::size_t before = o.stats ? o.stats->errors : 0;
  const std::size_t budget = o.max_errors == 0 ? static_cast<std::size_t>(-1)
                             : o.max_errors > before ? o.max_errors - before : 0;
  std::size_t spooled = 0;
  bool more = false;  // an error beyond the budget was seen
  Spool outlet;  // errors giving the text out, listed after the intake's
  bool spool_ok = true;
  auto line = [&](const Error& e, std::size_t offset) {
    const char* kind =
        e.kind == ErrorKind::InvalidByteSequence ? "invalid byte sequence" : "no equivalent";
    if (o.json) {
      nlohmann::json j;
      if (o.name_input) j["file"] = o.input_name;
      j.update({{"offset", offset}, {"kind", kind}, {"sqlstate", e.sqlstate()},
                {"bytes", hex_bytes(e)}, {"message", e.message()}});
      return j.dump() + "\n";
    }
    return (o.name_input ? o.input_name + ":" : std::string()) + std::to_string(offset) + ": " + kind + " [" +
           e.sqlstate() + "]: " + e.message() + "\n";
  };
  bool full = budget == 0;  // the first group alone has used the budget

  const bool read_ok = for_each_block(in, o.progress, [&](std::string_view block, std::size_t base, bool eof) -> std::size_t {
    std::size_t start = 0;  // where the current error-free stretch begins
    auto check_outlet = [&](std::size_t end) {
      if (!o.to || end <= start) return;
      const std::string_view stretch = block.substr(start, end - start);
      const Result d = from.decode(stretch, utf8, ErrorMode::Strict);
      InputOffsets offsets(from, stretch);
      o.to->for_each_encode_error(std::string_view(utf8.data(), d.written), [&](const Error& e) {
        if (errors + spooled >= budget) {
          more = true;  // its place is after every intake error: past the limit
          return;
        }
        ++spooled;
        if (spool_ok) spool_ok = outlet.add(line(e, base + start + offsets(e.offset)));
      });
    };
    const auto c = from.for_each_decode_error(block, [&](const Error& e) {
      if (full) {
        more = true;
        return;
      }
      check_outlet(e.offset);
      out.write(line(e, base + e.offset));
      start = e.offset + e.skip;
      if (++errors == budget) full = true;
    }, eof);
    if (!full) check_outlet(c.consumed);
    // Once the first group fills the budget, nothing later can be listed: one
    // more error seen (or the end) settles whether the limit cut anything.
    if (full && (more || eof)) return kStop;
    return out.ok() && spool_ok ? c.consumed : kStop;
  });
  if (!read_ok) {
    report_read_error(o, err);
    return 2;
  }
  // The second group's lines that fit after the first group's.
  const std::size_t room = full ? 0 : std::min(spooled, budget - errors);
  if (room < spooled) more = true;
  if (!spool_ok || !outlet.drain(out, room)) {
    std::fprintf(err, "pgcodec: cannot hold the output-side errors in a temporary file: %s\n",
                 std::strerror(errno));
    return 2;
  }
  if (!out.flush()) return 2;  // the caller reports it
  errors += room;
  if (o.stats) {
    o.stats->errors += errors;
    o.stats->stopped_early = o.stats->stopped_early || more;
  }
  return errors || more ? 1 : 0;
}

int run_inputs(bool convert, ConvertOptions o, std::span<const InputFile> inputs, Output& out, std::FILE* err) {
  RunStats stats;
  o.stats = &stats;
  o.name_input = inputs.size() > 1;
  int rc = 0;
  std::size_t done = 0;
  for (const InputFile& i : inputs) {
    o.input_name = i.name;
    if (o.progress) o.progress->set_base(done);
    const int r = convert ? run_convert(o, i.f, out, err) : run_check(o, i.f, out, err);
    done += i.size;
    rc = std::max(rc, r);
    // A strict convert stops at its first error, check at --max-errors, and
    // both at a read or write error.
    if (r == 2 || (convert && r == 1) || (!convert && o.max_errors && stats.errors >= o.max_errors)) break;
  }
  if (rc == 2) return 2;
  if (convert && o.skip && (stats.dropped_invalid || stats.dropped_unmapped)) {
    clear_progress(o);
    std::fprintf(err, "pgcodec: dropped %zu invalid byte sequence%s and %zu character%s with no equivalent in encoding \"%s\"\n",
                 stats.dropped_invalid, stats.dropped_invalid == 1 ? "" : "s", stats.dropped_unmapped,
                 stats.dropped_unmapped == 1 ? "" : "s", std::string(info(o.to->encoding()).name).c_str());
    return 1;
  }
  if (!convert && o.max_errors && stats.errors >= o.max_errors && stats.stopped_early) {
    clear_progress(o);
    std::fprintf(err, "pgcodec: stopped after %zu errors (--max-errors)\n", stats.errors);
  }
  return rc;
}

std::string encoding_list(bool json) {
  std::ostringstream s;
  if (json) {
    auto arr = nlohmann::json::array();
    for (const EncodingInfo& e : encodings()) {
      nlohmann::json j;
      j["id"] = to_int(e.id);
      j["name"] = e.name;
      j["server"] = e.server;
      j["max_char_length"] = e.max_char_length;
      j["aliases"] = std::vector<std::string>(e.aliases.begin(), e.aliases.end());
      arr.push_back(std::move(j));
    }
    s << arr.dump(2) << "\n";
    return s.str();
  }
  s << std::left << std::setw(3) << "id" << " " << std::setw(15) << "name" << " " << std::setw(6) << "kind"
    << " max aliases\n";
  for (const EncodingInfo& e : encodings()) {
    std::string aliases;
    for (std::string_view a : e.aliases) {
      if (!aliases.empty()) aliases += ",";
      aliases += a;
    }
    s << std::left << std::setw(3) << to_int(e.id) << " " << std::setw(15) << e.name << " " << std::setw(6)
      << (e.server ? "server" : "client") << " " << std::setw(3) << e.max_char_length << " " << aliases << "\n";
  }
  return s.str();
}

}  // namespace pgcodec::cli
