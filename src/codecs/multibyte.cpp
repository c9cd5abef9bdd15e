// The multibyte encodings (EUC_*, SJIS, SHIFT_JIS_2004, BIG5, GBK, UHC,
// GB18030, JOHAB, and MULE_INTERNAL through its member encodings), driven by
// the structural rules and the generated run tables.
//
// The order of checks follows PostgreSQL's LocalToUtf()/UtfToLocal()
// (src/backend/utils/mb/conv.c) character by character, including how the
// combined-character lookahead of EUC_JIS_2004 and SHIFT_JIS_2004 reports
// errors in the character after the current one.
//
// Lookups are constant time, in the generated dense tables (tables/dense.hpp,
// constant data): rows indexed by the bytes of a code (decoding), two-level
// pages indexed by code point (encoding), GB18030's four-byte ranges by
// arithmetic on a rank index. Only the 25 combined pairs keep a binary search.
#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstring>
#include <new>
#include <type_traits>

#include "codec_table.hpp"
#include "codecs/ascii_copy.hpp"
#include "codecs/codec_ops.hpp"
#include "codecs/sinks.hpp"
#include "rules/grammar.hpp"
#include "rules/utf8.hpp"
#include "tables/dense.hpp"
#include "tables/table.hpp"

namespace pgcodec::detail {
namespace {

// Output cursor with capacity checks.
struct Out {
  std::span<char> buf;
  std::size_t w = 0;
  bool fits(std::size_t n) const { return buf.size() - w >= n; }
  void put(const void* p, std::size_t n) {
    copy_bytes(buf.data() + w, p, n);
    w += n;
  }
  void utf8(std::uint32_t cp) { w += write_utf8(buf.data() + w, cp); }
  void code(std::uint32_t c) { w += write_code(buf.data() + w, c); }
  // Copies the ASCII run at in[i] (all encodings pass it through) as far as
  // it fits; false when the output filled up first.
  bool ascii(const kernels::Kernel& k, const unsigned char* in, std::size_t n, std::size_t& i) {
    const std::size_t run = k.ascii_run(in + i, n - i);
    const std::size_t take = fits(run) ? run : buf.size() - w;
    put(in + i, take);
    i += take;
    return take == run;
  }
};

// Sets what a conversion returns. `r` is the function's own return value
// (named return value: built in place, never copied; a copy of a Result
// whose fields were just stored one by one stalls on store forwarding, 20
// ns of an 8-byte call).
void finish(Result& r, std::size_t i, const Out& o) {
  r.consumed = i;
  r.written = o.w;
}

// The kernels read a DecodeRow as kernels::TwoByteTables describes it.
static_assert(sizeof(DecodeRow) == 8 && offsetof(DecodeRow, base) == 0 && offsetof(DecodeRow, lo) == 4 &&
              offsetof(DecodeRow, hi) == 5);

// What the block step needs of an encoding beyond its tables. The high
// bytes that are characters on their own (SJIS's half-width katakana
// A1..DF): one range lo..hi of `one`, or none (lo > hi); `blocks` is false
// where they are not one range, and the block step is not for that
// encoding. lead_ok[b & 0x7F]: high byte b has two-byte codes (EUC_JP's 8F
// leads only three-byte ones); trail_ok[t]: t is the second byte of some
// two-byte code (GB18030's 30..39 only of four-byte ones). With them the
// kernel stops before such a character without reading the tables.
struct BlockInfo {
  unsigned lo = 1, hi = 0;
  bool blocks = true;
  const std::uint16_t* ss3_rows = nullptr;  // kernels::TwoByteTables
  bool short_rows = true;  // row_bytes holds every row (true of all 13 tables): the kernel's condition
  alignas(64) std::uint8_t lead_ok[128] = {};
  alignas(64) std::uint8_t trail_ok[256] = {};
  alignas(64) std::uint8_t row_bytes[4 * 128] = {};  // kernels::TwoByteTables
};

// A table of `size` uint16 entries for encoding e, filled by fill(entries)
// on the first call and kept for the process in slots[e] (a thread that
// loses the race to publish its copy frees it and takes the winner's);
// null when the allocation fails. For the kernels' one-read tables
// (pair_values, bmp_entries_of), built only for an encoding whose blocks
// run.
std::atomic<unsigned> tables_built{0};  // (kernel_tables_built)

template <class Fill>
const std::uint16_t* lazy_table(std::atomic<const std::uint16_t*> (&slots)[encoding_count], Encoding e,
                                std::size_t size, Fill fill) noexcept {
  std::atomic<const std::uint16_t*>& slot = slots[static_cast<std::size_t>(to_int(e))];
  if (const std::uint16_t* built = slot.load(std::memory_order_acquire)) return built;
  auto* fresh = new (std::nothrow) std::uint16_t[size];
  if (!fresh) return nullptr;
  fill(fresh);
  const std::uint16_t* expected = nullptr;
  if (!slot.compare_exchange_strong(expected, fresh, std::memory_order_acq_rel)) {
    delete[] fresh;
    return expected;
  }
  tables_built.fetch_add(1, std::memory_order_relaxed);
  return fresh;
}

// kernels::TwoByteTables::pair_values (64 KiB; 128 with SS3 codes): the
// value of each lead byte and second byte, and, where the encoding has SS3
// codes (ss3_rows: EUC_JP, EUC_JIS_2004), of each 8F b1 b2 by b1 and b2,
// for the AVX2 kernel: one gather a character where the lead's row and
// then the value were two dependent ones, and an SS3 code's three (on the
// AVX2 Zen 3 they were most of the kernel's samples, perf).
const std::uint16_t* pair_values_of(Encoding e, const MultibyteDense& d, const std::uint16_t* ss3_rows) noexcept {
  static std::atomic<const std::uint16_t*> slots[encoding_count];
  const std::size_t size = ss3_rows ? 65536 : 32768;
  return lazy_table(slots, e, size, [&](std::uint16_t* v) {
    std::fill(v, v + size, std::uint16_t{0});
    for (unsigned b = 0x80; b < 0x100; ++b) {
      const DecodeRow& row = d.two[b];
      for (unsigned t = row.lo; t <= row.hi; ++t) v[(b & 0x7Fu) << 8 | t] = dense_row_value(d, row, t);
      if (!ss3_rows) continue;
      const DecodeRow& row3 = d.rows[ss3_rows[b]];
      for (unsigned t = row3.lo; t <= row3.hi; ++t) v[32768 + ((b & 0x7Fu) << 8 | t)] = dense_row_value(d, row3, t);
    }
  });
}

// kernels::Gb18030Runs::low (128 KiB): the code point of each linear index
// of a four-byte code below 65536 (GB18030's four-byte codes of the BMP,
// 81 30 81 30 .. 84 31 A4 39), 0 where no run holds it, for the run kernel:
// random text over the repertoire has such a code every hundred bytes or
// so, and each stopped the kernel (the family's loop then took it with a
// search of the runs, and the kernel started again). Built at the kernel's
// first call in the encoding with 128 bytes or more left (lazy_table); null
// when the allocation fails (the kernel then stops at them).
const std::uint16_t* gb18030_low_of(Encoding e, const MultibyteDense& d) noexcept {
  static std::atomic<const std::uint16_t*> slots[encoding_count];
  return lazy_table(slots, e, 65536, [&](std::uint16_t* v) {
    for (std::uint32_t linear = 0; linear < 65536; ++linear) {
      const LinearRun* r = linear_find(d.decode_linear, linear, [](const LinearRun& x) { return x.linear; });
      const std::uint32_t cp = r ? r->cp + (linear - r->linear) : 0;
      v[linear] = cp <= 0xFFFF ? static_cast<std::uint16_t>(cp) : std::uint16_t{0};
    }
  });
}

const BlockInfo& block_info_of(Encoding e) noexcept {
  static const auto all = [] {
    std::array<BlockInfo, encoding_count> a{};
    for (int k = 0; k < encoding_count; ++k) {
      const MultibyteDense* d = codec_row(static_cast<Encoding>(k)).tables.multibyte;
      if (!d) continue;
      BlockInfo& s = a[static_cast<std::size_t>(k)];
      for (unsigned b = 0x80; b < 0x100; ++b) {
        const DecodeRow& row = d->two[b];
        if (row.lo <= row.hi) {
          s.lead_ok[b & 0x7Fu] = 1;
          for (unsigned t = row.lo; t <= row.hi; ++t) s.trail_ok[t] = 1;
          // lo, hi, base mod 2^16 (low byte, high byte); an empty row is lo 1, hi 0.
          s.row_bytes[b & 0x7Fu] = row.lo;
          s.row_bytes[128 + (b & 0x7Fu)] = row.hi;
          s.row_bytes[256 + (b & 0x7Fu)] = static_cast<std::uint8_t>(row.base);
          s.row_bytes[384 + (b & 0x7Fu)] = static_cast<std::uint8_t>(row.base >> 8);
          s.short_rows &= static_cast<std::uint32_t>(row.base + row.hi) < 65536u;
        } else {
          s.row_bytes[b & 0x7Fu] = 1;  // lo 1 > hi 0: no trail is in the row
        }
        if (!d->one[b & 0x7Fu]) continue;
        if (s.lo > s.hi) {
          s.lo = s.hi = b;
        } else if (b == s.hi + 1) {
          s.hi = b;
        } else {
          s.blocks = false;
        }
      }
      // SS3: three-byte codes that all start with 8F (EUC_JP, EUC_JIS_2004),
      // where 8F is no other byte of any code and leads no two-byte one, so
      // that it is a three-byte lead wherever it is in valid text.
      const std::uint16_t* first = d->nodes + d->root[3] * 256u;
      bool ss3 = d->root[3] != 0 && d->root[4] == 0 && first[0x8F] != 0 && !s.trail_ok[0x8F] &&
                 !s.lead_ok[0x8F & 0x7Fu] && !d->one[0x8F & 0x7Fu] && d->decode_linear.run_count == 0;
      for (unsigned b = 0; b < 256 && ss3; ++b) ss3 = b == 0x8F || first[b] == 0;
      const std::uint16_t* rows = d->nodes + first[0x8F] * 256u;
      for (unsigned b = 0; b < 256 && ss3; ++b) {
        const DecodeRow& r = d->rows[rows[b]];
        ss3 = (rows[b] == 0 || b != 0x8F) && !(r.lo <= 0x8F && 0x8F <= r.hi);
      }
      if (ss3) s.ss3_rows = rows;
    }
    return a;
  }();
  return all[static_cast<std::size_t>(to_int(e))];
}

// Bit i: byte i of the 64 at p is above 0x7F (high), is 0 (zero), is in
// lo..lo + span (single; pass none = true for no range).
struct Classes64 {
  std::uint64_t high = 0, zero = 0, single = 0;
};

inline Classes64 classify64(const unsigned char* p, unsigned lo, unsigned span, bool none) noexcept {
  Classes64 c;
#if defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128();
  const __m128i vlo = _mm_set1_epi8(static_cast<char>(lo));
  const __m128i vspan = _mm_set1_epi8(static_cast<char>(span));
  for (int k = 0; k < 4; ++k) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
    const __m128i off = _mm_sub_epi8(x, vlo);
    const auto bits = [](__m128i m) { return std::uint64_t{static_cast<std::uint16_t>(_mm_movemask_epi8(m))}; };
    c.high |= bits(x) << (16 * k);
    c.zero |= bits(_mm_cmpeq_epi8(x, zero)) << (16 * k);
    c.single |= bits(_mm_cmpeq_epi8(_mm_min_epu8(off, vspan), off)) << (16 * k);
  }
#else
  for (unsigned k = 0; k < 64; ++k) {
    c.high |= std::uint64_t{p[k] >> 7} << k;
    c.zero |= std::uint64_t{p[k] == 0} << k;
    c.single |= std::uint64_t{((p[k] - lo) & 0xFFu) <= span} << k;
  }
#endif
  if (none) c.single = 0;
  return c;
}

// Whether a table's decode value v is one character the sink may store:
// an entry (not 0), a code point of its own (not an index into the wide
// entries) and within the sink's limit. Without a branch.
inline bool storable(unsigned v, char32_t limit) noexcept {
  return (v != 0) & (v - kWideFirst >= unsigned{kWideEnd - kWideFirst}) & (v <= limit);
}

// Output room decode_block64 needs: 63 characters of at most 3 UTF-8 bytes
// (values of the 16-bit tables), stored 4 bytes at a time; or 63 units.
template <class S>
inline constexpr std::size_t kBlockRoom = S::kUtf8 ? 63 * 3 + 1 : 63;

// The fast loop's block step where the kernel has no two_byte_decode
// (kernels/two_byte.hpp, which says why blocks): the characters of the 64
// bytes at p[fi] found from bit masks (kernels::lead_bytes), then each,
// whatever its kind, decoded by the same branch-free step (ASCII as itself,
// a single by `one`, a lead and its trail by `two`). Stops where the kernel
// stops (a NUL, a code with no two-byte entry: a three- or four-byte code,
// an error, a wide entry, a code point above the sink's limit), for the
// fast loop to take on; returns the new fi (fw advanced), fi itself for a
// block of ASCII (the ASCII kernel's run is faster). Needs 64 bytes of
// input and kBlockRoom<S> of output. About 4 % faster than the fast loop
// alone on unlearnt Chinese and Korean text (BIG5, EUC_KR 64 KiB into a
// str); without gathers it is bound by its ~40 instructions a character.
template <class S>
std::size_t decode_block64(const unsigned char* p, std::size_t fi, typename S::Unit* ob, std::size_t& fw,
                           const std::uint16_t* one, const TwoByteRows& two, const BlockInfo& sh,
                           char32_t limit) noexcept {
  const unsigned char* const q = p + fi;
  const Classes64 c = classify64(q, sh.lo, sh.hi - sh.lo, sh.lo > sh.hi);
  if ((c.high | c.zero) == 0) return fi;
  const std::uint64_t lead = kernels::lead_bytes(c.high & ~c.single);
  const std::uint64_t trail = lead << 1;
  // Characters starting before byte 63 (a lead there has its trail in the
  // next block) and before the first NUL.
  const unsigned stop = static_cast<unsigned>(__builtin_ctzll(c.zero | (std::uint64_t{1} << 63)));
  std::uint64_t m = ~trail & ((std::uint64_t{1} << stop) - 1);
  std::size_t w = fw;
  while (m) {
    const auto at = static_cast<unsigned>(__builtin_ctzll(m));
    const unsigned b = q[at], b1 = q[at + 1];
    // Masks (all ones or zero), not bools: with bools GCC brings branches back.
    const unsigned is_lead = 0u - static_cast<unsigned>((lead >> at) & 1u);
    const unsigned high = 0u - (b >> 7);
    const unsigned v1 = one[b & 0x7Fu] & high & ~is_lead;
    const DecodeRow& row = two.two[b];
    const unsigned in = is_lead & (0u - static_cast<unsigned>((b1 >= row.lo) & (b1 <= row.hi)));
    const unsigned v = (b & ~high) | v1 | (two.values[(row.base + b1) & in] & in);  // values[0]: read, dropped
    if (!storable(v, limit)) {
      fw = w;
      return fi + at;
    }
    if constexpr (S::kUtf8) {
      // v < 0x10000 and no surrogate: 1, 2 or 3 bytes, chosen by masks.
      const unsigned two_bytes = 0u - static_cast<unsigned>(v >= 0x80u);
      const unsigned three_bytes = 0u - static_cast<unsigned>(v >= 0x800u);
      const unsigned u2 = (0xC0u | (v >> 6)) | ((0x80u | (v & 0x3Fu)) << 8);
      const unsigned u3 = (0xE0u | (v >> 12)) | ((0x80u | ((v >> 6) & 0x3Fu)) << 8) | ((0x80u | (v & 0x3Fu)) << 16);
      const std::uint32_t word = (v & ~two_bytes) | (u2 & two_bytes & ~three_bytes) | (u3 & three_bytes);
      std::memcpy(ob + w, &word, 4);  // little-endian: the first byte first
      w += 1 - two_bytes - three_bytes;  // 1 + (0 or 1) + (0 or 1), masks being -1
    } else {
      ob[w] = static_cast<typename S::Unit>(v);
      ++w;
    }
    m &= m - 1;
  }
  fw = w;
  return fi + stop + static_cast<unsigned>((trail >> stop) & 1u);
}

// When the blocks are worth trying. A block that took fewer than 32 bytes
// or units (where three- and four-byte codes are common: EUC_JP's JIS X
// 0212, GB18030's four-byte codes) wastes its work, and such text would
// stop every block after a few characters (random EUC_JP decoded at a
// third of the speed): the next 1 Ki go character by character, twice as
// many after each further such stop (up to 64 Ki), until a block goes
// well again.
struct Backoff {
  std::size_t from = 0, wait = 1024;
  explicit Backoff(bool blocks) noexcept : from(blocks ? 0 : ~std::size_t{0}) {}
  bool due(std::size_t i) const noexcept { return i >= from; }
  void took(std::size_t at, std::size_t now) noexcept {
    if (now - at < 32) {
      from = now + wait;
      wait = wait < 65536 ? 2 * wait : wait;
    } else {
      wait = 1024;
    }
  }
};

// The fast loop's blocks: the kernel's two_byte_decode, or decode_block64
// where it has none. Out of line, so that the fast loop's registers stay
// its own (inlined, the character-by-character loop ran 11 % slower on
// text the blocks do not take).
// The encoding's BlockInfo is looked up at the first step, not when the
// decoder starts: input shorter than a block never steps (perf: the lookup
// and the call were 5 % of an 8-byte EUC_KR decode).
template <class S>
struct Blocks {
  const MultibyteDense& d;
  const Encoding enc;
  const BlockInfo* info_ = nullptr;
  const std::uint16_t* pair_values_ = nullptr;  // looked up at the kernel's first call
  Backoff backoff{true};
  Blocks(const MultibyteDense& dense, Encoding e) noexcept : d(dense), enc(e) {}

  bool first_pair_values() noexcept {
    pair_values_ = pair_values_of(enc, d, info_->ss3_rows);
    return pair_values_ != nullptr;
  }

  // Whether step is worth calling at fi: not where fewer bytes than a
  // block are left (step would take none), nor while backing off.
  bool due(std::size_t fi, std::size_t n) const noexcept { return n - fi >= 64 && backoff.due(fi); }

  // The blocks from fi on; returns the new fi (fw advanced). A block of
  // ASCII counts as a short one (Backoff): the ASCII kernel's runs take it
  // faster.
  [[gnu::noinline]] std::size_t step(const kernels::Kernel& k, const unsigned char* p, std::size_t n,
                                     std::size_t fi, typename S::Unit* ob, std::size_t cap, std::size_t& fw,
                                     char32_t limit) noexcept {
    if (!info_) {
      info_ = &block_info_of(enc);
      if (!info_->blocks) {
        backoff = Backoff(false);
        return fi;
      }
    }
    const BlockInfo& info = *info_;
    const std::size_t at = fi;
    // At least two blocks' worth: a short text that the blocks stop in
    // early (random EUC_JP of 100 bytes) pays the kernel's set-up for
    // nothing, 15 % of the call.
    if (k.two_byte_decode) {
      if (info.short_rows && n - fi >= 128 && (pair_values_ || !k.two_byte_flat_tables || first_pair_values())) {
        const kernels::TwoByteTables tables{d.one,        info.row_bytes, d.values,      info.lo, info.hi,
                                            info.lead_ok, info.trail_ok,  info.ss3_rows, d.rows,  pair_values_};
        std::size_t wrote = 0;
        fi += k.two_byte_decode(tables, p + fi, n - fi, ob + fw, cap - fw,
                                S::kUtf8 ? 0 : sizeof(typename S::Unit), limit, wrote);
        fw += wrote;
      }
    } else if (n - fi >= 64 && cap - fw >= kBlockRoom<S>) {
      fi = decode_block64<S>(p, fi, ob, fw, d.one, TwoByteRows{d.two, d.values}, info, limit);
    }
    backoff.took(at, fi);
    return fi;
  }
};

// One decoder for every output: UTF-8 (decode) and each code unit form
// (decode_units), through the sink S (codecs/sinks.hpp).
template <class S>
Result decode_to(const CodecRow& row, std::string_view in, S sink, typename S::Unit* const ob,
                 const std::size_t cap, ErrorMode mode, bool final, const kernels::Kernel& k) noexcept {
  const MultibyteDense& d = *row.tables.multibyte;
  const Encoding enc = row.encoding;
  const bool fast = k.table_shortcuts;
  const char32_t limit = sink.limit();
  const auto* p = reinterpret_cast<const unsigned char*>(in.data());
  const std::size_t n = in.size();
  std::size_t i = 0, w = 0;
  Result r;
  // Stores the code points of one character (cp2 == 0: one), or says why
  // not: Status::Wider or Status::OutputFull.
  auto put = [&](std::uint32_t cp1, std::uint32_t cp2) -> bool {
    if (cp1 > limit || cp2 > limit) {
      r.status = Status::Wider;
      return false;
    }
    if (cap - w < S::units(cp1) + (cp2 ? S::units(cp2) : 0)) {
      r.status = Status::OutputFull;
      return false;
    }
    w += S::store(ob + w, cp1);
    if (cp2) w += S::store(ob + w, cp2);
    return true;
  };
  auto fail = [&](ErrorKind kind, std::size_t skip) -> bool {
    if (mode == ErrorMode::Strict) {
      r.status = Status::Error;
      r.error = make_error(kind, enc, Encoding::UTF8, in, i, skip);
      return true;
    }
    if (!put(0xFFFD, 0)) return true;
    i += skip;
    return false;
  };
  while (i < n) {
    if (fast) {
      // The common case in a loop of its own, over locals only (a store
      // through char* may alias anything, so the tables' members and the
      // variables the lambdas above capture would be reloaded after every
      // store): ASCII, and two-byte codes with an entry, which by
      // construction of the tables are well-formed characters of exactly two
      // bytes (the generator records only sequences the structural rules
      // accept as one character), so they need no further checks. Anything
      // else goes to the general step below, one character, and back here.
      const TwoByteRows two{d.two, d.values};
      const std::uint16_t* const one = d.one;
      // Three-byte codes (EUC_JP's JIS X 0212, 8F xx xx; EUC_TW's, EUC_JIS_
      // 2004's), where no two-byte code matched: an entry is a whole
      // character too (Dense.ThreeByteEntriesAreWholeCharacters checks
      // every one against the grammar).
      const ThreeByteCodes three(d);
      const bool has_linear = d.decode_linear.run_count != 0;
      LinearRun last_run{0, 0, 0};  // GB18030: the run of the last four-byte code
      // GB18030 into UTF-32: the kernel's loop over ASCII and the codes of
      // the last run (the supplementary planes), where it has one; the loop
      // below takes each character it stops before, if it can.
      kernels::Gb18030RunDecodeFn run_decode = nullptr;
      kernels::Gb18030Runs runs{0, 0, 0, nullptr};
      bool low_looked_up = false;  // runs.low, at the kernel's first call
      if constexpr (std::is_same_v<S, Utf32Sink>) {
        if (has_linear && k.gb18030_run_decode) {
          const LinearRun& top = d.decode_linear.runs[d.decode_linear.run_count - 1];
          runs = {top.linear, top.cp, top.length, nullptr};
          if (top.length && top.cp + (top.length - 1) <= limit) run_decode = k.gb18030_run_decode;
        }
      }
      Blocks<S> blocks(d, enc);
      std::size_t fi = i, fw = w;
      while (fi < n) {
        // The blocks, unless the last ones stopped early (Blocks::step).
        if (blocks.due(fi, n)) {
          fi = blocks.step(k, p, n, fi, ob, cap, fw, limit);
          if (fi == n) break;
        }
        const unsigned b = p[fi];
        if (b - 1u < 0x7Fu) {
          if (!copy_ascii_units(k, p, n, fi, ob, cap, fw)) break;
          continue;
        }
        if (b == 0) break;
        // A high byte that is a character on its own (SJIS's half-width
        // katakana A1..DF): the table has it only where the structural
        // rules make it one.
        if (const std::uint16_t v1 = one[b & 0x7Fu];
            v1 != 0 && !(v1 >= kWideFirst && v1 < kWideEnd) && v1 <= limit && cap - fw >= 4) {
          fw += S::store(ob + fw, v1);
          ++fi;
          continue;
        }
        if (n - fi < 2) break;
        const std::uint16_t v = two(b, p[fi + 1]);
        if (!v && has_linear && n - fi >= 4) {
          // GB18030's four-byte codes, computed from ranges (as PostgreSQL
          // does): the grammar is the byte ranges checked here, and every
          // four-byte code of GB18030 is in a run or has no equivalent.
          // Text over the whole repertoire is mostly four-byte codes (the
          // supplementary planes are one run) between spaces and
          // punctuation: a loop of their own takes those codes and ASCII,
          // the run of the last code tried first; anything else goes back
          // to the loop above. (Choosing between ASCII and a four-byte code
          // with masks, without a branch, was 20 % slower: each character's
          // position then waits for the previous character's loads.)
          const std::size_t from = fi;
          while (n - fi >= 4 && cap - fw >= 4) {
            if constexpr (std::is_same_v<S, Utf32Sink>) {
              if (run_decode && n - fi >= 16 && cap - fw >= kernels::kGb18030RunRoom) {  // (less: a few characters)
                // (Its BMP table from 128 bytes on, as the two-byte blocks'
                // tables: Python's import decodes 64 bytes at a time.)
                if (!low_looked_up && n - fi >= 128) {
                  runs.low = gb18030_low_of(enc, d);
                  low_looked_up = true;
                }
                std::size_t wrote = 0;
                fi += run_decode(runs, p + fi, n - fi, ob + fw, cap - fw, wrote);
                fw += wrote;
                if (n - fi < 4 || cap - fw < 4) break;
              }
            }
            const unsigned c1 = p[fi], c2 = p[fi + 1], c3 = p[fi + 2], c4 = p[fi + 3];
            const std::uint32_t lin = gb18030_linear_of(c1, c2, c3, c4);
            const bool ascii = c1 - 1u < 0x7Fu;
            const bool four = (c1 - 0x81u <= 0x7Du) & (c2 - 0x30u <= 9u) & (c3 - 0x81u <= 0x7Du) & (c4 - 0x30u <= 9u);
            if (four && lin - last_run.linear >= last_run.length) {  // another run, or none
              const LinearRun* run = linear_find(d.decode_linear, lin, [](const LinearRun& x) { return x.linear; });
              if (!run) break;
              last_run = *run;
            }
            if (!(ascii | four)) break;
            const std::uint32_t cp = ascii ? c1 : last_run.cp + (lin - last_run.linear);
            if (cp > limit) break;
            fw += S::store(ob + fw, cp);
            fi += ascii ? 1 : 4;
          }
          if (fi == from) break;
          continue;
        }
        if (!v && n - fi >= 3) {
          const std::uint16_t v3 = three(b, p[fi + 1], p[fi + 2]);
          if (!v3 || (v3 >= kWideFirst && v3 < kWideEnd) || cap - fw < 4 || v3 > limit) break;
          fw += S::store(ob + fw, v3);
          fi += 3;
          continue;
        }
        if (!v || (v >= kWideFirst && v < kWideEnd) || cap - fw < 4 || v > limit) break;
        fw += S::store(ob + fw, v);  // SHIFT_JIS_2004's 81 5F and 81 B0 decode to ASCII
        fi += 2;
      }
      i = fi;
      w = fw;
      if (i == n) break;
    }
    if (p[i] - 1u < 0x7Fu) {  // an ASCII run
      if (copy_ascii_units(k, p, n, i, ob, cap, w)) continue;
      r.status = Status::OutputFull;
      break;
    }
    if (p[i] == 0) {
      if (fail(ErrorKind::InvalidByteSequence, 1)) break;
      continue;
    }
    const int l = verify_char(enc, p + i, n - i);
    if (l < 0) {
      if (!final && cut_off_by_end(enc, p + i, n - i)) break;
      if (fail(ErrorKind::InvalidByteSequence, 1)) break;
      continue;
    }
    const auto len = static_cast<std::size_t>(l);
    std::uint32_t cp1 = 0, cp2 = 0;
    if (!dense_decode(d, p + i, len, cp1, cp2)) {
      if (fail(ErrorKind::NoEquivalent, len)) break;
      continue;
    }
    if (!put(cp1, cp2)) break;
    i += len;
  }
  r.consumed = i;
  r.written = w;
  return r;
}

Result decode(const CodecRow& row, std::string_view in, std::span<char> out, ErrorMode mode,
              bool final, const kernels::Kernel& k) noexcept {
  return decode_to(row, in, Utf8Sink{}, out.data(), out.size(), mode, final, k);
}

Result decode_units(const CodecRow& row, std::string_view in, const UnitBuffer& out, ErrorMode mode,
                    bool final, const kernels::Kernel& k) noexcept {
  return with_unit_sink(out, [&](auto sink, auto* ob, std::size_t cap) {
    return decode_to(row, in, sink, ob, cap, mode, final, k);
  });
}

// The distinct second code points of an encoding's pairs (U+0300, U+0301,
// U+02E5, U+02E9, U+309A in both encodings that have pairs) and a mask of
// their low 6 bits, worked out once per encoding: doing it on every call was
// most of an 8-byte encode's time (perf).
struct Seconds {
  std::uint32_t cp[32];
  std::size_t count = 0;
  std::uint64_t bits = 0;
  bool fits = true;  // false: more than 32, which encode_prefix is not for
};

const Seconds& seconds_of(Encoding e) noexcept {
  static const auto all = [] {
    std::array<Seconds, encoding_count> a{};
    for (int k = 0; k < encoding_count; ++k) {
      const MultibyteDense* d = codec_row(static_cast<Encoding>(k)).tables.multibyte;
      if (!d) continue;
      Seconds& s = a[static_cast<std::size_t>(k)];
      for (std::uint32_t p = 0; p < d->pair_count && s.fits; ++p) {
        const std::uint32_t cp2 = d->pairs[p].cp2;
        if (std::find(s.cp, s.cp + s.count, cp2) != s.cp + s.count) continue;
        if (s.count == std::size(s.cp)) {
          s.fits = false;
          break;
        }
        s.cp[s.count++] = cp2;
        s.bits |= std::uint64_t{1} << (cp2 & 63u);
      }
    }
    return a;
  }();
  return all[static_cast<std::size_t>(to_int(e))];
}

Result encode(const CodecRow& row, std::string_view in, std::span<char> out, ErrorMode mode,
              const kernels::Kernel& k) noexcept {
  const MultibyteDense& d = *row.tables.multibyte;
  const Encoding enc = row.encoding;
  const bool fast = k.table_shortcuts;
  const auto* p = reinterpret_cast<const unsigned char*>(in.data());
  const std::size_t n = in.size();
  const bool combined = d.pair_count != 0;
  const Seconds* const sec = combined ? &seconds_of(enc) : nullptr;
  Out o{out};
  std::size_t i = 0;
  Result r;
  // Reports an error at `at`, or in Replace mode writes '?' and moves past it.
  auto fail = [&](ErrorKind kind, std::size_t at, std::size_t skip, std::size_t quote_avail) -> bool {
    if (mode == ErrorMode::Strict) {
      r.status = Status::Error;
      r.error = make_error(kind, Encoding::UTF8, enc, in.substr(0, at + quote_avail), at, skip);
      i = at;
      return true;
    }
    if (!o.fits(1)) {
      r.status = Status::OutputFull;
      return true;
    }
    o.put("?", 1);
    i = at + skip;
    return false;
  };
  while (i < n) {
    if (fast) {
      // The common case in a loop of its own, over locals only (see decode):
      // ASCII, and three-byte UTF-8 characters, all of CJK, whose code
      // point has a code in the pages (of two bytes as a rule; one, three
      // or four too, as the units' fast path below takes them). ASCII is
      // never part of a combined character. In an encoding with combined
      // characters (EUC_JIS_2004, SHIFT_JIS_2004) a three-byte one is taken
      // here only where the lookahead below cannot matter: it is the last,
      // or the next is ASCII other than NUL, or a valid three-byte
      // character that is no pair's second (`sec`: of those, U+309A has
      // three bytes). Leaving this loop at every non-ASCII character made
      // their encode 4.5 times SJIS's time.
      const CodePages pages{d.page_of, d.page_count, d.pages};
      char* const ob = o.buf.data();
      const std::size_t cap = o.buf.size();
      std::size_t fi = i, fw = o.w;
      while (fi < n) {
        const unsigned c0 = p[fi];
        if (c0 - 1u < 0x7Fu) {
          if (!copy_ascii(k, p, n, fi, ob, cap, fw)) break;
          continue;
        }
        if ((c0 & 0xF0u) != 0xE0u || n - fi < 3 || cap - fw < 4) break;
        const unsigned c1 = p[fi + 1], c2 = p[fi + 2];
        const auto valid3 = [](unsigned b0, unsigned b1, unsigned b2) {
          return (b1 & 0xC0u) == 0x80u && (b2 & 0xC0u) == 0x80u && (b0 != 0xE0 || b1 >= 0xA0) &&
                 (b0 != 0xED || b1 < 0xA0);
        };
        if (!valid3(c0, c1, c2)) break;
        if (combined && n - fi > 3 && p[fi + 3] - 1u >= 0x7Fu) {
          const unsigned d0 = p[fi + 3];
          if ((d0 & 0xF0u) != 0xE0u || n - fi < 6 || !valid3(d0, p[fi + 4], p[fi + 5])) break;
          const std::uint32_t next = ((d0 & 0x0Fu) << 12) | ((p[fi + 4] & 0x3Fu) << 6) | (p[fi + 5] & 0x3Fu);
          if (((sec->bits >> (next & 63u)) & 1u) && std::find(sec->cp, sec->cp + sec->count, next) != sec->cp + sec->count)
            break;
        }
        const std::uint32_t cp = ((c0 & 0x0Fu) << 12) | ((c1 & 0x3Fu) << 6) | (c2 & 0x3Fu);
        const std::uint32_t code = pages(cp);
        if (code >= 0x8000u) {  // two bytes, as a rule
          ob[fw] = static_cast<char>(code >> 8);
          ob[fw + 1] = static_cast<char>(code & 0xFF);
          fw += 2;
        } else if (code - 1u < 0xFFu) {  // one byte (SJIS's half-width katakana)
          ob[fw++] = static_cast<char>(code);
        } else if (code >= kWideCodeFirst) {  // three or four (JIS X 0212 and 0213's plane 2, EUC_TW)
          fw += write_code(ob + fw, d.wide_codes[code - kWideCodeFirst]);
        } else {
          break;  // none: GB18030's four-byte runs, or no code
        }
        fi += 3;
      }
      i = fi;
      o.w = fw;
      if (i == n) break;
    }
    if (p[i] - 1u < 0x7Fu) {  // an ASCII run
      if (o.ascii(k, p, n, i)) continue;
      r.status = Status::OutputFull;
      break;
    }
    const std::size_t l = p[i] ? utf8_multibyte_length(p + i, n - i) : 0;
    if (!l) {
      if (fail(ErrorKind::InvalidByteSequence, i, 1, n - i)) break;
      continue;
    }
    const std::uint32_t cp = utf8_decode_multibyte(p + i, l);
    std::uint32_t code = 0;
    if (combined && n - i > l) {
      // UtfToLocal looks at the next character before converting this one.
      const std::size_t j = i + l;
      const auto l2 = static_cast<std::size_t>(char_length(Encoding::UTF8, p + j, n - j));
      if (n - j < l2) {
        // The next character is cut off: PostgreSQL reports *this* one as
        // invalid, quoting its bytes up to what is left after it. Replace
        // mode converts this one on its own and replaces the next
        // (docs/semantics.md: only what is malformed or unmappable is
        // replaced).
        if (mode == ErrorMode::Strict) {
          fail(ErrorKind::InvalidByteSequence, i, 1, n - j);
          break;
        }
      } else if (!utf8_legal(p + j, l2, n - j)) {
        if (mode == ErrorMode::Strict) {
          r.status = Status::Error;
          r.error = make_error(ErrorKind::InvalidByteSequence, Encoding::UTF8, enc, in, j, 1);
          break;
        }
        // Replace mode: convert this character normally; the next round
        // replaces the bad one.
      } else if (l2 > 1 &&
                 dense_encode_pair(d, cp, utf8_decode_multibyte(p + j, l2), code)) {
        if (!o.fits(code_length(code))) {
          r.status = Status::OutputFull;
          break;
        }
        o.code(code);
        i = j + l2;
        continue;
      }
    }
    if (!dense_encode(d, cp, code)) {
      if (fail(ErrorKind::NoEquivalent, i, l, n - i)) break;
      continue;
    }
    if (!o.fits(code_length(code))) {
      r.status = Status::OutputFull;
      break;
    }
    o.code(code);
    i += l;
  }
  finish(r, i, o);
  return r;
}

// The page entry (CodePages) of every code point below U+10000, one array of
// 65536 (128 KiB) per encoding, for the encode kernel: one read a character
// where page_of and then the page are two dependent ones. On the AVX2 Zen 3
// that halved the kernel's time on 1 KB of Korean, Chinese and Japanese
// (its two gathers a step were half of the samples, perf). Built on the
// first block of the first encode in the encoding (lazy_table); null when
// the allocation fails (the kernel then reads the pages).
const std::uint16_t* bmp_entries_of(Encoding e, const MultibyteDense& d) noexcept {
  static std::atomic<const std::uint16_t*> slots[encoding_count];
  return lazy_table(slots, e, 65536, [&](std::uint16_t* v) {
    const CodePages pages{d.page_of, d.page_count, d.pages};
    for (std::uint32_t cp = 0; cp < 65536; ++cp) v[cp] = pages(cp);
  });
}

// GB18030's four-byte codes of the BMP for the encode kernel
// (kernels::TwoByteEncodeTables::bmp_linear, 128 KiB): 1 + the linear index
// of each code point's code where no page holds one and a run does, 0
// elsewhere (NUL, ASCII, surrogates, two-byte codes). Random GB18030 text is
// mostly four-byte codes, which stopped the kernel at every one (the family's
// loop then took each with a mispredicted branch at every change from
// ASCII). Null for an encoding without such runs, or where U+10000 and up
// are not one run (the kernel takes them from supplementary_linear).
const std::uint16_t* bmp_linear_of(Encoding e, const MultibyteDense& d) noexcept {
  if (!d.encode_linear.run_count) return nullptr;
  const LinearRun* supplementary = linear_find(d.encode_linear, 0x10000, [](const LinearRun& x) { return x.cp; });
  if (!supplementary || supplementary->cp != 0x10000 || supplementary->length != 0x100000) return nullptr;
  static std::atomic<const std::uint16_t*> slots[encoding_count];
  return lazy_table(slots, e, 65536, [&](std::uint16_t* v) {
    const CodePages pages{d.page_of, d.page_count, d.pages};
    for (std::uint32_t cp = 0; cp < 65536; ++cp) {
      v[cp] = 0;
      if (cp < 0x80 || cp - 0xD800u < 0x800u || pages(cp)) continue;
      const LinearRun* r = linear_find(d.encode_linear, cp, [](const LinearRun& x) { return x.cp; });
      const std::uint32_t linear = r ? r->linear + (cp - r->cp) : 0xFFFFu;
      if (linear < 0xFFFFu) v[cp] = static_cast<std::uint16_t>(linear + 1);
    }
  });
}

// encode_units' fast path: what encode() (above) does for a character,
// read from code units: ASCII other than NUL as itself, any other character
// by its table code (dense_encode: pages, wide codes, GB18030's four-byte
// runs). What is no character (NUL, a surrogate, a unit above U+10FFFF),
// has no code or finds no room stops it, for the block path to report or
// replace. With combined characters (EUC_JIS_2004, SHIFT_JIS_2004) encode()
// looks at the next character first: a character is taken here only when
// that look cannot matter, that is when a next character exists, is no
// second half of any pair (`seconds`: U+0300, U+0301, U+02E5, U+02E9,
// U+309A) and is a character (encode() reports a malformed next one before
// this one); the last unit is always left to the block path (which holds
// it back in a chunk of a longer text).
template <bool kCombined, class Unit>
std::size_t encode_prefix(Encoding enc, const MultibyteDense& d, const Unit* u, std::size_t i, std::size_t n,
                          char* ob, std::size_t cap, std::size_t& w, bool final, const Seconds* sec,
                          const kernels::Kernel& k) noexcept {
  const CodePages pages{d.page_of, d.page_count, d.pages};
  // The kernel's blocks (not for Latin-1 units, which CJK text never is),
  // tried again after at most 16 characters of the loop below.
  const kernels::TwoByteEncodeFn blocks = sizeof(Unit) > 1 ? k.two_byte_encode : nullptr;
  const std::uint64_t second_bits = kCombined ? sec->bits : 0;
  const std::uint32_t* const seconds = kCombined ? sec->cp : nullptr;
  const std::size_t second_count = kCombined ? sec->count : 0;
  kernels::TwoByteEncodeTables block_tables{d.page_of, d.page_count, d.pages, d.wide_codes,
                                            seconds,   static_cast<unsigned>(second_count)};
  Backoff backoff(blocks != nullptr);
  LinearRun last_run{0, 0, 0};  // GB18030: the run of the last four-byte code
  std::size_t fw = w;
  while (i < n) {
    // The common case in a compact loop: ASCII, any code a page entry gives,
    // and GB18030's four-byte ranges, with room for four bytes a character
    // checked once per run. The general step below spreads over so many
    // branches that its taken jumps, not its loads, bounded it at about 2 ns
    // a character. No surrogate, NUL or unit above U+10FFFF has a page entry
    // or a range; they, and what has no code, go to the general step.
    // (Computing both cases and choosing without a branch was slower: each
    // store's position then waits for the previous character's two loads.)
    if (d.page_count) {
      if (blocks && backoff.due(i) && n - i >= 32) {
        if (!block_tables.bmp && k.two_byte_flat_tables) {
          block_tables.bmp = bmp_entries_of(enc, d);
          if (block_tables.bmp && (block_tables.bmp_linear = bmp_linear_of(enc, d)))
            block_tables.supplementary_linear =
                linear_find(d.encode_linear, 0x10000, [](const LinearRun& x) { return x.cp; })->linear;
        }
        const std::size_t at = i;
        std::size_t wrote = 0;
        i += blocks(block_tables, u + i, n - i, sizeof(Unit), ob + fw, cap - fw, wrote);
        fw += wrote;
        backoff.took(at, i);
        if (i == n) break;
      }
      std::size_t stop = std::min(kCombined ? n - 1 : n, i + (cap - fw) / 4);
      if (blocks) stop = std::min(stop, std::max(i + 16, backoff.from));
      const std::uint32_t last_page = d.page_count - 1;
      // Locals: a store through ob (a char) could alias d's members, and the
      // compiler would load them again after every character.
      const std::uint16_t* const page_of = d.page_of;
      const std::uint16_t* const page_data = d.pages;
      const std::uint32_t* const wide_codes = d.wide_codes;
      while (i < stop) {
        const std::uint32_t cp = u[i];
        if constexpr (kCombined) {
          // The next unit is a character and no second of a pair (see below).
          const std::uint32_t next = u[i + 1];
          if (!(next - 1u < 0xD7FFu || next - 0xE000u < 0x102000u) || ((second_bits >> (next & 63u)) & 1u)) break;
        }
        if (cp - 1u < 0x7Fu) {
          ob[fw++] = static_cast<char>(cp);
          ++i;
          continue;
        }
        const std::uint32_t pg = cp >> 8;
        const std::uint32_t e = pg <= last_page ? page_of[pg] : 0u;
        const std::uint32_t v = e ? page_data[(e - 1u) * 256u + (cp & 0xFFu)] : 0u;
        if (v >= 0x8000u) {  // two bytes, the common case
          ob[fw] = static_cast<char>(v >> 8);
          ob[fw + 1] = static_cast<char>(v & 0xFFu);
          fw += 2;
        } else if (v - 1u < 0xFFu) {  // a one-byte code (SJIS's half-width katakana)
          ob[fw++] = static_cast<char>(v);
        } else if (v >= kWideCodeFirst) {  // three or four bytes (JIS X 0212, GB18030)
          fw += write_code(ob + fw, wide_codes[v - kWideCodeFirst]);
        } else {
          // No page entry: GB18030's four-byte ranges, or no code. NUL, a
          // surrogate (a UTF-16 unit: its pair is the block path's) and a
          // unit above U+10FFFF go to the general step, which stops for them.
          // (dense_encode_entry says the same for all of these cases; called
          // here it made the loop four times slower on SJIS kana: perf.)
          // The run of the last such character is tried first (the
          // supplementary planes are one run).
          if (cp - 0x80u >= 0x10FF80u || cp - 0xD800u < 0x800u) break;
          if (cp - last_run.cp >= last_run.length) {
            const LinearRun* run = linear_find(d.encode_linear, cp, [](const LinearRun& x) { return x.cp; });
            if (!run) break;
            last_run = *run;
          }
          const std::uint32_t code = __builtin_bswap32(gb18030_code(last_run.linear + (cp - last_run.cp)));
          std::memcpy(ob + fw, &code, 4);  // little-endian, swapped: the first byte first
          fw += 4;
        }
        ++i;
      }
      if (i == n) break;
    }
    const std::uint32_t cp = u[i];
    // With combined characters a chunk's last unit waits for the block path
    // (it is held back, ASCII included, as encode_partial holds it back);
    // the text's last combines with nothing after it.
    if (kCombined && i + 1 == n && !final) break;
    if (cp - 1u < 0x7Fu) {  // ASCII: never part of a combined character
      if (fw == cap) break;
      ob[fw++] = static_cast<char>(cp);
      ++i;
      continue;
    }
    if (cp == 0 || cp - 0xD800u < 0x800u || cp > 0x10FFFFu) break;
    if (kCombined && i + 1 < n) {
      const std::uint32_t next = u[i + 1];
      if (next == 0 || next - 0xD800u < 0x800u || next > 0x10FFFFu) break;
      // A mask of the seconds' low 6 bits turns most characters away
      // before the loop (kanji and kana are no second code point).
      if ((second_bits >> (next & 63u)) & 1u) {
        bool second = false;
        for (std::size_t s = 0; s < second_count; ++s) second |= next == seconds[s];
        if (second) break;
      }
    }
    std::uint32_t code = pages(cp);
    if (code >= 0x8000u) {  // two bytes, the common case
      if (cap - fw < 2) break;
      ob[fw] = static_cast<char>(code >> 8);
      ob[fw + 1] = static_cast<char>(code & 0xFF);
      fw += 2;
      ++i;
      continue;
    }
    // The page entry already read says the rest (a wide code, a one-byte
    // code, GB18030's four-byte runs, or no code).
    if (!dense_encode_entry(d, cp, static_cast<std::uint16_t>(code), code) || cap - fw < code_length(code)) break;
    fw += write_code(ob + fw, code);
    ++i;
  }
  w = fw;
  return i;
}

std::size_t encode_units_prefix(const CodecRow& row, const UnitText& in, std::size_t i, std::span<char> out,
                                std::size_t& w, bool final, const kernels::Kernel& k) noexcept {
  const MultibyteDense& d = *row.tables.multibyte;
  if (!k.table_shortcuts) return i;
  if (d.pair_count == 0) {
    return with_units(in, [&](const auto* u) {
      return encode_prefix<false>(row.encoding, d, u, i, in.length, out.data(), out.size(), w, final, nullptr, k);
    });
  }
  const Seconds& sec = seconds_of(row.encoding);
  if (!sec.fits) return i;  // more than this loop is for: the block path
  return with_units(in, [&](const auto* u) {
    return encode_prefix<true>(row.encoding, d, u, i, in.length, out.data(), out.size(), w, final, &sec, k);
  });
}

}  // namespace

unsigned kernel_tables_built() noexcept { return tables_built.load(std::memory_order_relaxed); }

// A byte may decode to U+FFFD (3 bytes), a two-byte character to two code
// points (6 bytes); a two-byte UTF-8 character may encode to four bytes
// (GB18030).
const CodecOps multibyte_ops = {&decode, &encode, &decode_units, 3, 2, &encode_units_prefix};

}  // namespace pgcodec::detail
