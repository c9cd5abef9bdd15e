// str objects straight from the library: decode_str builds a str with one
// pass of the library's decoder into the str's own data (Codec::
// decode_units), encode_str encodes a str's own data (Codec::encode_units).
// The module holds no table of its own and never goes through UTF-8.
//
// A str stores every character in 1, 2 or 4 bytes, the narrowest that holds
// its widest (PEP 393), and must be made in that kind. Input of ASCII
// bytes, or of an encoding with nothing above U+00FF (LATIN1), says its
// kind: the str is made first and the library decodes straight into it. Up
// to 256 bytes otherwise decode_str decodes on the stack (UCS-2, or UTF-32
// first where the encoding has four-byte characters) and makes the str
// once, in the kind its widest character needs (decode_small). Up to 32
// KiB, UTF-8 says its kind by its largest byte: the str is made in that
// kind and decoded into at once (decode_in_kind), as is GB18030 in the kind
// its first 64 bytes suggest. Up to 32 KiB, where another encoding has
// four-byte characters (EUC_TW, MULE_INTERNAL): its first 256 bytes
// are decoded on the stack into UTF-32, and the str is made for the rest
// in the kind they need; the library stops with
// Status::Wider before a character above that kind, and at each stop
// decode_str makes the str of the kind the next character needs, copies
// what is done so far widened, and goes on: each input byte is decoded
// once, and the prefix is copied at most three times (ASCII -> Latin-1 ->
// UCS-2 -> UCS-4). The str is allocated for one character per input byte
// (the most there can be) and shrunk at the end. UTF-8 from 1 MiB
// (decode_counted): the str made at the length and in the kind the bytes
// say, decoded into at once. From 32 KiB otherwise
// (decode_chained): into blocks of code units, each in the kind the text
// needs so far, then the str at its exact size, the blocks copied in once
// (a str allocated for the most characters there can be took fresh pages
// from the kernel at every call: see kChainDecode); the blocks of a long
// input come from one mapping of their own (BlockMemory). A single-byte
// encoding's str has one character a byte: from 257 bytes it is made in
// UCS-2 at that exact size and decoded into, narrowed after where nothing
// needed more (decode_in_kind), as is a two- or three-byte CJK
// encoding's below 32 KiB. Data of 8 MiB and more is put on huge pages
// (prefer_huge_pages).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "pgcodec_py.hpp"

namespace pgcodec::python {
namespace {

UnitForm form_of(Py_UCS4 maxchar) {
  return maxchar <= 0xFF ? UnitForm::Latin1 : maxchar <= 0xFFFF ? UnitForm::Ucs2 : UnitForm::Utf32;
}

// PyUnicode_New, its data on huge pages where it is large enough (see
// prefer_huge_pages).
PyObject* new_str(std::size_t n, Py_UCS4 maxchar) {
  PyObject* str = PyUnicode_New(static_cast<Py_ssize_t>(n), maxchar);
  if (str) prefer_huge_pages(PyUnicode_DATA(str), n * static_cast<std::size_t>(PyUnicode_KIND(str)));
  return str;
}

// Copies n code units of From into To, widened or narrowed (narrowed, every
// unit fits in To). With SSE2 (every x86-64 has it) 8 or 16 units a step:
// a loop a unit at a time was a third of the binding's own time in a 1 KB
// BIG5 decode (perf: str_of's narrowing copy and maxchar_of's OR).
template <class From, class To>
void convert_units(const From* f, To* t, std::size_t n) {
  if constexpr (sizeof(From) == sizeof(To)) {
    std::memcpy(t, f, n * sizeof(To));
    return;
  }
  std::size_t i = 0;
#if defined(__SSE2__)
  const auto load = [f](std::size_t at) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(f + at)); };
  const auto store = [t](std::size_t at, __m128i v) { _mm_storeu_si128(reinterpret_cast<__m128i*>(t + at), v); };
  const __m128i z = _mm_setzero_si128();
  // A 32-bit unit below 2^16 as a signed 16-bit one, which packs_epi32 keeps.
  const auto low16 = [](__m128i v) { return _mm_srai_epi32(_mm_slli_epi32(v, 16), 16); };
  if constexpr (sizeof(From) == 1 && sizeof(To) == 2) {
    for (; n - i >= 16; i += 16) {
      const __m128i v = load(i);
      store(i, _mm_unpacklo_epi8(v, z));
      store(i + 8, _mm_unpackhi_epi8(v, z));
    }
  } else if constexpr (sizeof(From) == 1 && sizeof(To) == 4) {
    for (; n - i >= 16; i += 16) {
      const __m128i v = load(i), lo = _mm_unpacklo_epi8(v, z), hi = _mm_unpackhi_epi8(v, z);
      store(i, _mm_unpacklo_epi16(lo, z));
      store(i + 4, _mm_unpackhi_epi16(lo, z));
      store(i + 8, _mm_unpacklo_epi16(hi, z));
      store(i + 12, _mm_unpackhi_epi16(hi, z));
    }
  } else if constexpr (sizeof(From) == 2 && sizeof(To) == 4) {
    for (; n - i >= 8; i += 8) {
      const __m128i v = load(i);
      store(i, _mm_unpacklo_epi16(v, z));
      store(i + 4, _mm_unpackhi_epi16(v, z));
    }
  } else if constexpr (sizeof(From) == 2 && sizeof(To) == 1) {
    for (; n - i >= 16; i += 16) store(i, _mm_packus_epi16(load(i), load(i + 8)));  // each unit <= 0xFF
  } else if constexpr (sizeof(From) == 4 && sizeof(To) == 2) {
    for (; n - i >= 8; i += 8) store(i, _mm_packs_epi32(low16(load(i)), low16(load(i + 4))));
  } else if constexpr (sizeof(From) == 4 && sizeof(To) == 1) {
    for (; n - i >= 16; i += 16)  // each unit <= 0xFF, which both packs keep
      store(i, _mm_packus_epi16(_mm_packs_epi32(load(i), load(i + 4)), _mm_packs_epi32(load(i + 8), load(i + 12))));
  }
#endif
  for (; i < n; ++i) t[i] = static_cast<To>(f[i]);
}

// Copies n characters of kind fk (1, 2 or 4 bytes each) into kind tk,
// which is as wide or wider.
void copy_widened(const void* f, int fk, void* t, int tk, std::size_t n) {
  if (fk == tk) {
    std::memcpy(t, f, n * static_cast<std::size_t>(fk));
  } else if (fk == PyUnicode_1BYTE_KIND && tk == PyUnicode_2BYTE_KIND) {
    convert_units(static_cast<const Py_UCS1*>(f), static_cast<Py_UCS2*>(t), n);
  } else if (fk == PyUnicode_1BYTE_KIND) {
    convert_units(static_cast<const Py_UCS1*>(f), static_cast<Py_UCS4*>(t), n);
  } else {
    convert_units(static_cast<const Py_UCS2*>(f), static_cast<Py_UCS4*>(t), n);
  }
}

// Copies the first n characters of `from` into `to`, a str of a wider kind.
void copy_widened(PyObject* from, PyObject* to, std::size_t n) {
  copy_widened(PyUnicode_DATA(from), PyUnicode_KIND(from), PyUnicode_DATA(to), PyUnicode_KIND(to), n);
}

// Short input returns the library's Result as it is (no copy: see
// decode_small); long input releases the GIL around the call.
// The buffer's fields, not a UnitBuffer: the one passed to the library is
// built in the call's argument area, where a copy of a UnitBuffer just
// stored field by field stalled on store forwarding (perf: 39 % of an
// 8-byte decode_str).
Result run_decode(const Codec& c, std::string_view in, void* data, std::size_t capacity, UnitForm form,
                  char32_t limit, ErrorMode mode, bool final) {
  if (in.size() < kReleaseGil) return c.decode_units(in, {data, capacity, form, limit}, mode, final);
  Result r;
  Py_BEGIN_ALLOW_THREADS
  r = c.decode_units(in, {data, capacity, form, limit}, mode, final);
  Py_END_ALLOW_THREADS
  return r;
}

// Up to this many input bytes, decode_str decodes on the stack (into UCS-2
// or UTF-32: see decode_small) and makes the str once, of the kind its
// widest character needs: for short text one allocation and one narrowing
// copy cost less than the widening steps (each a new str) that a wide
// first character would take.
constexpr std::size_t kSmallDecode = 256;

// Below this many bytes, ASCII input (Latin-1 in LATIN1) whose bytes the
// library decodes to themselves is copied into its str after a memchr for
// NUL, without a call of the library: the call and the str made for it to
// fill cost 20 ns more than CPython's own latin-1 decode on 8 bytes (perf:
// argument set-up, the codec row's dispatch, the Result; 8 bytes of LATIN1:
// 49 -> 38 ns, CPython 34). From here the library's one-pass copy is the
// faster (1 KB: 81 ns against 103 for memchr and memcpy).
constexpr std::size_t kCopyDecode = 512;

// The OR of the code points is below 2^k exactly when their maximum is,
// which is all a str's kind depends on. Taken as the OR of the units'
// bytes, 16 at a time with SSE2, the last 16 (or 8) those that end at the
// end (the OR takes bytes twice alike), folded to one unit: every load
// starts a whole number of units from `units`.
template <class U>
Py_UCS4 maxchar_of(const U* units, std::size_t n) {
  const auto* p = reinterpret_cast<const unsigned char*>(units);
  const std::size_t bytes = n * sizeof(U);
  std::uint64_t bits = 0, w[2] = {};
  if (bytes >= 16) {
#if defined(__SSE2__)
    __m128i acc = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + bytes - 16));
    for (std::size_t i = 0; i + 16 < bytes; i += 16)
      acc = _mm_or_si128(acc, _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(w), acc);
    bits = w[0] | w[1];
#else
    for (std::size_t i = 0; i + 8 < bytes; i += 8) {
      std::memcpy(w, p + i, 8);
      bits |= w[0];
    }
    std::memcpy(w, p + bytes - 8, 8);
    bits |= w[0];
#endif
  } else if (bytes >= 8) {
    std::memcpy(w, p, 8);
    std::memcpy(w + 1, p + bytes - 8, 8);
    bits = w[0] | w[1];
  } else {
    std::memcpy(w, p, bytes);
    bits = w[0];
  }
  for (unsigned width = 64; width > 8 * sizeof(U); width /= 2) bits |= bits >> (width / 2);
  bits &= sizeof(U) == 4 ? 0xFFFFFFFFu : sizeof(U) == 2 ? 0xFFFFu : 0xFFu;
  return bits < 0x80 ? 0x7F : bits <= 0xFF ? 0xFF : bits <= 0xFFFF ? 0xFFFF : 0x10FFFF;
}

// Whether no byte of p[0, n) has a bit of `mask` (a pattern repeated in
// every 8 bytes, from p on): 32 bytes at a time as four words (a loop over
// bytes is not vectorized, and cost more than the decode here), stopping at
// the first block with one.
bool no_bits(const unsigned char* p, std::size_t n, std::uint64_t mask) {
  std::size_t i = 0;
  for (; n - i >= 32; i += 32) {
    // Four words loaded each on its own: one memcpy of 32 bytes into an
    // array, GCC 12 stored through the stack and read back (5 % of a 1 KB
    // WIN1252 decode's samples, in this loop's first turn or two).
    std::uint64_t a, b, c, d;
    std::memcpy(&a, p + i, 8);
    std::memcpy(&b, p + i + 8, 8);
    std::memcpy(&c, p + i + 16, 8);
    std::memcpy(&d, p + i + 24, 8);
    if ((a | b | c | d) & mask) return false;
  }
  std::uint64_t bits = 0;
  for (; n - i >= 8; i += 8) {
    std::uint64_t x;
    std::memcpy(&x, p + i, 8);
    bits |= x;
  }
  std::uint64_t tail = 0;  // the last bytes, where they fall in a word
  std::memcpy(&tail, p + i, n - i);
  return ((bits | tail) & mask) == 0;
}

// Whether n Latin-1 units (or bytes) are all ASCII.
bool all_ascii(const Py_UCS1* p, std::size_t n) { return no_bits(p, n, 0x8080808080808080ull); }

// Short input's two questions in one pass, a word at a time: whether every
// byte is ASCII, and whether one is NUL (a word x has a zero byte exactly
// when (x - 0x01..01) & ~x has a high bit set). The no_bits scan and a
// memchr for NUL, one after the other, cost 3 ns of an 8-byte decode.
struct ByteScan {
  bool ascii;
  bool nul;
};
ByteScan scan_bytes(const unsigned char* p, std::size_t n) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ull, kHigh = 0x8080808080808080ull;
  std::uint64_t bits = 0, zero = 0;
  const auto take = [&](std::uint64_t x) {
    bits |= x;
    zero |= (x - kOnes) & ~x;
  };
  // Every byte is looked at once or twice alike, with no loop over a tail
  // of n mod 8 bytes (a byte loop, in callgrind, of every short decode): 8
  // bytes at a time, the last 8 those that end at n; below 8, two 4-byte
  // words that overlap, or bytes 0, n / 2 and n - 1 (the rest of the word
  // 01s: ASCII, not NUL).
  if (n >= 8) {
    std::uint64_t x;
    for (std::size_t i = 0; i + 8 < n; i += 8) {
      std::memcpy(&x, p + i, 8);
      take(x);
    }
    std::memcpy(&x, p + n - 8, 8);
    take(x);
  } else if (n >= 4) {
    std::uint32_t a, b;
    std::memcpy(&a, p, 4);
    std::memcpy(&b, p + n - 4, 4);
    take(a | std::uint64_t{b} << 32);
  } else if (n) {
    take((kOnes & ~std::uint64_t{0xFFFFFF}) | p[0] | std::uint64_t{p[n / 2]} << 8 | std::uint64_t{p[n - 1]} << 16);
  }
  return {(bits & kHigh) == 0, (zero & kHigh) != 0};
}

// The kind a str of valid UTF-8 needs when its largest byte is `top`:
// below 0x80 ASCII, below 0xC4 (leads C2 and C3 only) Latin-1, below 0xF0
// (no four-byte lead) UCS-2, else UCS-4.
Py_UCS4 level_of_top(unsigned top) { return top < 0x80 ? 0x7Fu : top < 0xC4 ? 0xFFu : top < 0xF0 ? 0xFFFFu : 0x10FFFFu; }

// The kind a str of n bytes of UTF-8 needs, read off the bytes: its widest
// character is at most U+007F, U+00FF, U+FFFF or U+10FFFF as the largest
// byte is below 0x80, below 0xC4 (leads C2 and C3 only), below 0xF0, or
// not. Exact for valid UTF-8 (see decode_in_kind for the rest). The
// bytewise maximum, with SSE2 64 bytes a step, stopping at the first
// four-byte lead.
Py_UCS4 utf8_level(const unsigned char* p, std::size_t n) {
  unsigned top = 0;
  std::size_t i = 0;
#if defined(__SSE2__)
  const auto load = [p](std::size_t at) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at));
  };
  const __m128i f0 = _mm_set1_epi8(static_cast<char>(0xF0));
  __m128i hi = _mm_setzero_si128();
  for (; n - i >= 64; i += 64) {
    hi = _mm_max_epu8(hi, _mm_max_epu8(_mm_max_epu8(load(i), load(i + 16)),
                                       _mm_max_epu8(load(i + 32), load(i + 48))));
    // A lane at 0xF0 or above: max(lane, 0xF0) is the lane.
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(hi, f0), hi))) return 0x10FFFF;
  }
  alignas(16) unsigned char lanes[16];
  _mm_store_si128(reinterpret_cast<__m128i*>(lanes), hi);
  for (const unsigned char b : lanes) top = std::max<unsigned>(top, b);
#endif
  for (; i < n; ++i) top = std::max<unsigned>(top, p[i]);
  return level_of_top(top);
}

// The length and kind of the str that n bytes of valid UTF-8 decode to:
// one character a byte that is not a continuation byte (80..BF), the kind
// as utf8_level says, over all the bytes. With SSE2 64 bytes a step, the
// continuation bytes counted in byte lanes and summed (psadbw) every 63
// steps, before a lane can pass 255.
struct Utf8Shape {
  std::size_t chars;
  Py_UCS4 level;
};
Utf8Shape utf8_shape(const unsigned char* p, std::size_t n) {
  std::size_t continuation = 0;
  unsigned top = 0;
  std::size_t i = 0;
#if defined(__SSE2__)
  const auto load = [p](std::size_t at) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at));
  };
  const __m128i below_c0 = _mm_set1_epi8(-64);  // signed: 80..BF are below C0 and above 7F
  const __m128i zero = _mm_setzero_si128();
  __m128i hi = zero;
  while (n - i >= 64) {
    __m128i count = zero;
    for (std::size_t steps = std::min<std::size_t>((n - i) / 64, 63); steps; --steps, i += 64) {
      const __m128i a = load(i), b = load(i + 16), c = load(i + 32), d = load(i + 48);
      hi = _mm_max_epu8(hi, _mm_max_epu8(_mm_max_epu8(a, b), _mm_max_epu8(c, d)));
      // A continuation byte's lane of the comparison is -1: subtracted, +1.
      count = _mm_sub_epi8(count, _mm_add_epi8(_mm_add_epi8(_mm_cmplt_epi8(a, below_c0), _mm_cmplt_epi8(b, below_c0)),
                                               _mm_add_epi8(_mm_cmplt_epi8(c, below_c0), _mm_cmplt_epi8(d, below_c0))));
    }
    const __m128i sums = _mm_sad_epu8(count, zero);  // two 64-bit sums of eight lanes each
    continuation += static_cast<std::size_t>(_mm_cvtsi128_si64(sums)) +
                    static_cast<std::size_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums)));
  }
  alignas(16) unsigned char lanes[16];
  _mm_store_si128(reinterpret_cast<__m128i*>(lanes), hi);
  for (const unsigned char b : lanes) top = std::max<unsigned>(top, b);
#endif
  for (; i < n; ++i) {
    top = std::max<unsigned>(top, p[i]);
    continuation += (p[i] & 0xC0u) == 0x80u;
  }
  return {n - continuation, level_of_top(top)};
}

// A kind at least as wide as a str of n bytes of GB18030 needs: U+10FFFF
// where four bytes have the form of a four-byte code above U+FFFF (90..E3,
// 30..39, 81..FE, 30..39; two-byte codes and digits can take that form
// too, as in B5 DA 31 D5 C2 32, which decode_in_kind's narrowing
// corrects), else U+FFFF. SSE2, 16 positions a step, stopping at the
// first. decode_str reads the first 64 bytes only: real text shows its
// script early, a wider character after them widens the str, and a longer
// look stalled on the input's next lines (Chinese prose, 1 KB: 75 ns a
// decode with 256 bytes looked at, against the UCS-2 str made blind).
Py_UCS4 gb18030_level(const unsigned char* p, std::size_t n) {
  // Whether p[i..i+3] has the form.
  const auto four = [p](std::size_t i) {
    return p[i] - 0x90u <= 0x53u && p[i + 1] - 0x30u < 10u && p[i + 2] - 0x81u < 0x7Eu &&
           p[i + 3] - 0x30u < 10u;
  };
  std::size_t i = 0;
#if defined(__SSE2__)
  // Candidates first: positions whose second and fourth bytes are digits
  // (rare in CJK text, where leads are not), each then read whole.
  const __m128i zero = _mm_set1_epi8(0x30), nine = _mm_set1_epi8(9);
  const auto digits = [&](std::size_t at) {
    const __m128i d =
        _mm_sub_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at)), zero);
    return _mm_cmpeq_epi8(_mm_min_epu8(d, nine), d);
  };
  for (; n - i >= 19; i += 16) {
    auto m = static_cast<unsigned>(_mm_movemask_epi8(_mm_and_si128(digits(i + 1), digits(i + 3))));
    for (; m; m &= m - 1)
      if (four(i + static_cast<std::size_t>(__builtin_ctz(m)))) return 0x10FFFF;
  }
#endif
  for (; i + 3 < n; ++i)
    if (four(i)) return 0x10FFFF;
  return 0xFFFF;
}

// A new str of `alloc` characters in the kind n units need, holding them.
template <class U>
PyObject* str_of(const U* units, std::size_t n, std::size_t alloc) {
  PyObject* str = new_str(alloc, maxchar_of(units, n));
  if (!str) return nullptr;
  void* d = PyUnicode_DATA(str);
  switch (PyUnicode_KIND(str)) {
    case PyUnicode_1BYTE_KIND: convert_units(units, static_cast<Py_UCS1*>(d), n); break;
    case PyUnicode_2BYTE_KIND: convert_units(units, static_cast<Py_UCS2*>(d), n); break;
    default: convert_units(units, static_cast<Py_UCS4*>(d), n); break;
  }
  return str;
}

// The Result is returned, not assigned through a reference: constructed in
// place it is read field by field, while a copy of it right after the call
// loads 16 bytes that the library stored in smaller pieces a moment before
// (a store-forwarding stall: 12 % of an 8-byte decode in perf).
// Into UTF-32 at once where the encoding has four-byte characters (UTF8,
// GB18030, EUC_TW, MULE_INTERNAL; see Identity::short_into_utf32): UCS-2
// first took a second call of the library (and a widening copy) for any
// text with a character above U+FFFF, and the library's UTF-8 decoder is
// the faster into UTF-32 anyway. Measured, interleaved, against UCS-2
// first (release build, the benchmark's texts): GB18030 random 8 B 98 ->
// 65 ns, UTF8 mixed scripts 100 B 391 -> 274, UTF8 kanji 8 B 61 -> 52. The
// two-byte families stay UCS-2 first: into UTF-32 their 8-byte decodes
// took 7-10 ns more (EUC_KR 77 -> 82, BIG5 75 -> 86 in the benchmark).
Result decode_small(const Codec& c, std::string_view in, ErrorMode mode, bool final, PyObject*& str) {
  if (identity(c).short_into_utf32) {
    char32_t u32[kSmallDecode];
    const Result r = c.decode_units(in, {u32, in.size(), UnitForm::Utf32, 0x10FFFF}, mode, final);
    str = str_of(u32, r.written, r.written);
    return r;
  }
  char16_t u16[kSmallDecode];
  Result r = c.decode_units(in, {u16, in.size(), UnitForm::Ucs2, 0xFFFF}, mode, final);
  if (r.status != Status::Wider) {
    str = str_of(u16, r.written, r.written);
    return r;
  }
  // A character above U+FFFF (EUC_JIS_2004, SHIFT_JIS_2004's few): what
  // came before it widened, the rest decoded after it (not the whole input
  // again).
  char32_t u32[kSmallDecode];
  const std::size_t in_done = r.consumed, out_done = r.written;
  for (std::size_t i = 0; i < out_done; ++i) u32[i] = u16[i];
  r = c.decode_units(in.substr(in_done), {u32 + out_done, in.size() - out_done, UnitForm::Utf32, 0x10FFFF}, mode,
                     final);
  r.consumed += in_done;
  r.written += out_done;
  if (r.status == Status::Error) r.error.offset += in_done;
  str = str_of(u32, r.written, r.written);
  return r;
}

}  // namespace

Identity identities[encoding_count];

bool init_identities() {
  Py_UCS1 units[255];
  char bytes[255 * 4];
  for (int b = 1; b < 256; ++b) units[b - 1] = static_cast<Py_UCS1>(b);
  for (int e = 0; e < encoding_count; ++e) {
    const Codec& c = codec(static_cast<Encoding>(e));
    const auto encodes_to_itself = [&](std::size_t n) {
      const Result r = c.encode_units({units, n, UnitForm::Latin1}, bytes, ErrorMode::Strict);
      return r.ok() && r.written == n && std::memcmp(bytes, units, n) == 0;
    };
    Identity& id = identities[e];
    id.ascii_encodes = encodes_to_itself(127);
    id.latin1_encodes = encodes_to_itself(255);
    // Decoding: every byte 01..FF, replacements included, at most U+00FF.
    // In chunks of at most 64 bytes (a character cut at a chunk's end is
    // carried to the next, so the result is the one-shot decode's): a
    // multibyte encoding's AVX2 blocks start at 128 bytes, and a first call
    // of them builds the encoding's kernel tables (64-128 KiB), which an
    // import for all 42 encodings would build for every one.
    char32_t cps[255];
    std::memcpy(bytes, units, 255);
    Result d;
    for (std::size_t at = 0; d.ok() && at < 255;) {
      const std::size_t n = std::min<std::size_t>(64, 255 - at);
      const bool last = at + n == 255;
      const Result part = c.decode_units({bytes + at, n}, {cps + d.written, 255 - d.written, UnitForm::Utf32, 0x10FFFF},
                                         ErrorMode::Replace, last);
      d.status = part.status;
      d.written += part.written;
      at += part.consumed;
      d.consumed = at;
      if (!last && part.consumed == 0) break;  // no progress: not expected, and then no identity
    }
    id.latin1_decodes = d.ok() && d.written == 255 && maxchar_of(cps, d.written) <= 0xFF;
    const auto decodes_to_itself = [&](std::size_t n) {
      if (!d.ok() || d.written != 255) return false;
      for (std::size_t b = 0; b < n; ++b)
        if (cps[b] != b + 1) return false;
      return true;
    };
    id.ascii_decodes = decodes_to_itself(127);
    id.latin1_identity = decodes_to_itself(255);
    // SQL_ASCII's bytes decode as UTF-8: four bytes a character at most.
    id.short_into_utf32 =
        info(c.encoding()).max_char_length >= 4 || c.encoding() == Encoding::SQL_ASCII;
    for (const UnitForm f : {UnitForm::Latin1, UnitForm::Ucs2, UnitForm::Utf16, UnitForm::Utf32}) {
      const std::optional<std::size_t> k = c.max_encoded_units_size(1, f);
      if (!k || *k > 255) {
        PyErr_Format(PyExc_SystemError, "pgcodec: %s gives no bound for one code unit", c.name());
        return false;
      }
      id.encode_factor[static_cast<int>(f)] = static_cast<std::uint8_t>(*k);
    }
  }
  return true;
}

namespace {

// After Status::Wider at in_done: the widest code point a str needs for
// the character that stopped the decoder, as a str's maximum (0xFF,
// 0xFFFF, 0x10FFFF). Its one code point, or both of a pair
// (EUC_JIS_2004 / SHIFT_JIS_2004 86 63 is U+00E6 U+0300, and only the
// second is wider). Decoded into room for one code point first, so a pair
// shows as OutputFull with nothing written; the next character's code
// point must not widen the str (a str of a kind wider than its widest
// character is not a valid str). A character is at most 4 bytes: the
// probe reads no more than 8 (a long input would cost the decoder's set-up
// for nothing), as a final input when more follows (its first character is
// whole).
Py_UCS4 level_of_next(const Codec& c, std::string_view in, std::size_t in_done, ErrorMode mode, bool final) {
  char32_t next[2] = {0, 0};
  const std::string_view ahead = in.substr(in_done, 8);
  const bool ahead_final = final || ahead.size() < in.size() - in_done;
  const Result probe = c.decode_units(ahead, {next, 1, UnitForm::Utf32, 0x10FFFF}, mode, ahead_final);
  Py_UCS4 wanted = next[0];
  if (probe.written == 0) {
    c.decode_units(ahead, {next, 2, UnitForm::Utf32, 0x10FFFF}, mode, ahead_final);
    wanted = std::max(next[0], next[1]);
  }
  return wanted <= 0xFF ? 0xFF : wanted <= 0xFFFF ? 0xFFFF : 0x10FFFF;
}

// Long input is decoded into blocks of at most kBlockUnits code units,
// each in the narrowest form the text needs so far (ASCII, Latin-1, UCS-2,
// UTF-32), and the str is made at its exact length and kind afterwards, the
// blocks copied (widened where narrower) into it. Decoding straight into a
// str allocated for the most characters there can be (one a byte) and
// shrunk afterwards cost more: above the allocator's mmap threshold each
// call got fresh pages from the kernel for a str twice the size it ended
// at, and the shrunk str, when freed, taught glibc's threshold only the
// smaller size. On a 1 MiB SJIS decode that was 280 page faults a call,
// 40 % of its time (perf stat); the blocks and an exact str are memory the
// allocator hands back and reuses.
constexpr std::size_t kChainDecode = 32 * 1024;  // input bytes from which decode_str decodes into blocks
constexpr std::size_t kBlockUnits = 32 * 1024;   // 32, 64 or 128 KiB a block
constexpr std::size_t kMinWindow = 1024;         // a block with less room left: the next

struct Block {
  char* data;
  std::size_t units;
  Py_UCS4 level;  // 0x7F (ASCII), 0xFF, 0xFFFF or 0x10FFFF
};

// Where one decode's blocks come from. Up to kRegionFrom input bytes, the
// allocator (PyMem_RawMalloc, which needs no GIL). From there, one private
// mapping with room for every block there can be, on huge pages where the
// system has them, handed back whole at the end: blocks from the heap were
// faulted in afresh at nearly every call once another large object had been
// made and freed between two calls (CPython's own decode in the benchmark,
// any program's own data in use): glibc trims the heap top back to the
// kernel, and 16 MiB of EUC_JP took 9,250 faults a call against CPython's
// 4,650 (getrusage), most of its time on this machine.
class BlockMemory {
 public:
  BlockMemory(std::size_t input, std::size_t max_blocks) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (input >= kRegionFrom) {
      const std::size_t size = max_blocks * kBlockUnits * 4;
      void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (p != MAP_FAILED) {
        region_ = static_cast<char*>(p);
        size_ = size;
        madvise(p, size, MADV_HUGEPAGE);  // advice only: refused, the pages come 4 KiB at a time
      }
    }
#else
    (void)input;
    (void)max_blocks;
#endif
  }
  BlockMemory(const BlockMemory&) = delete;
  BlockMemory& operator=(const BlockMemory&) = delete;
  ~BlockMemory() {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (region_) munmap(region_, size_);
#endif
    for (char* b : heap_) PyMem_RawFree(b);
  }
  // `bytes` (at most a block's) of new memory; nullptr when there is none.
  char* get(std::size_t bytes) {
    if (region_) {
      if (size_ - used_ < bytes) return nullptr;
      char* b = region_ + used_;
      used_ += bytes;
      return b;
    }
    auto* b = static_cast<char*>(PyMem_RawMalloc(bytes));
    if (b) heap_.push_back(b);
    return b;
  }

 private:
  static constexpr std::size_t kRegionFrom = 4u << 20;
  char* region_ = nullptr;
  std::size_t size_ = 0, used_ = 0;
  std::vector<char*> heap_;
};

int kind_of(Py_UCS4 level) {
  return level <= 0xFF ? PyUnicode_1BYTE_KIND : level <= 0xFFFF ? PyUnicode_2BYTE_KIND : PyUnicode_4BYTE_KIND;
}

// Decodes `in` into blocks (room for `blocks` reserved by the caller: at
// most the number decode_chained reserves are needed). Each call of the
// library gets a window of the input no longer than the room left in its
// block, as a chunk (a character cut off at its end goes to the next
// window): the decoders' fast paths need room for as many units as there
// are input bytes, which the window's length guarantees. No Python call:
// it runs without the GIL. `nomem` when a block could not be allocated.
Result decode_blocks(const Codec& c, std::string_view in, ErrorMode mode, bool final, BlockMemory& mem,
                     std::vector<Block>& blocks, bool& nomem) {
  const std::size_t n = in.size();
  std::size_t in_done = 0, out_done = 0, room = 0;
  Py_UCS4 level = 0x7F;
  Result r;
  for (;;) {
    if (blocks.empty() || blocks.back().level != level || room < std::min(kMinWindow, n - in_done)) {
      char* data = blocks.size() == blocks.capacity()
                       ? nullptr
                       : mem.get(kBlockUnits * static_cast<std::size_t>(kind_of(level)));
      if (!data) {
        nomem = true;
        return r;
      }
      blocks.push_back({data, 0, level});
      room = kBlockUnits;
    }
    Block& b = blocks.back();
    // At most one unit a byte (a pair: two code points for two bytes).
    const std::size_t window = std::min(room, n - in_done);
    const bool last = in_done + window == n;
    const Result part =
        c.decode_units(in.substr(in_done, window),
                       {b.data + b.units * static_cast<std::size_t>(kind_of(level)), room, form_of(level), level},
                       mode, last ? final : false);
    b.units += part.written;
    room -= part.written;
    const std::size_t base = in_done;
    in_done += part.consumed;
    out_done += part.written;
    if (part.status == Status::OutputFull || (part.status == Status::Ok && !last)) {
      if (part.status == Status::OutputFull) room = 0;  // the next block
      continue;
    }
    if (part.status == Status::Wider) {
      const Py_UCS4 wider = level_of_next(c, in, in_done, mode, final);
      if (wider <= level) {  // no progress possible: a library fault
        r.status = Status::Wider;
        return r;
      }
      level = wider;
      continue;
    }
    r.status = part.status;
    r.consumed = in_done;
    r.written = out_done;
    if (part.status == Status::Error) {
      r.error = part.error;
      r.error.offset += base;
    }
    return r;
  }
}

// decode_str for long input (see kChainDecode): the blocks, then the str.
Result decode_chained(const Codec& c, std::string_view in, ErrorMode mode, bool final, PyObject*& str) {
  std::vector<Block> blocks;
  // A block is left with less than kMinWindow units of room (full to
  // within a unit of it when the library reports OutputFull, which a
  // window makes impossible), at a widening (three at most) or at the end:
  // half full is a generous bound.
  blocks.reserve(in.size() / (kBlockUnits / 2) + 8);
  BlockMemory mem(in.size(), blocks.capacity());
  bool nomem = false;
  Result r;
  if (in.size() < kReleaseGil) {
    r = decode_blocks(c, in, mode, final, mem, blocks, nomem);
  } else {
    Py_BEGIN_ALLOW_THREADS
    r = decode_blocks(c, in, mode, final, mem, blocks, nomem);
    Py_END_ALLOW_THREADS
  }
  if (nomem) {
    PyErr_NoMemory();
    return r;
  }
  if (r.status == Status::Wider) {
    PyErr_SetString(PyExc_SystemError, "pgcodec: the decoder stopped for a wider character that is not wider");
    return r;
  }
  // A block of a wider level starts with the character that needed it.
  Py_UCS4 level = 0x7F;
  for (const Block& b : blocks) level = std::max(level, b.level);
  str = new_str(r.written, level);
  if (str) {
    const int tk = PyUnicode_KIND(str);
    auto* to = static_cast<char*>(PyUnicode_DATA(str));
    for (const Block& b : blocks) {
      copy_widened(b.data, kind_of(b.level), to, tk, b.units);
      to += b.units * static_cast<std::size_t>(tk);
    }
  }
  return r;
}

// decode_str's second half: the rest of `in` from in_done into str (which
// holds out_done characters), widening str as the text needs. One named
// Result, returned on every path, so that it is built in the caller's
// return slot: copying a Result right after storing its fields one by one
// stalled on store forwarding (perf: a third of an 8-byte decode_str).
Result decode_rest(const Codec& c, std::string_view in, ErrorMode mode, bool final, PyObject*& str,
                   std::size_t in_done, std::size_t out_done) {
  const std::size_t n = in.size();
  Result r;
  Py_UCS4 maxchar = PyUnicode_MAX_CHAR_VALUE(str);
  for (;;) {
    const auto kind = static_cast<std::size_t>(PyUnicode_KIND(str));
    const Result part = run_decode(c, in.substr(in_done), static_cast<char*>(PyUnicode_DATA(str)) + out_done * kind,
                                   n - out_done, form_of(maxchar), maxchar, mode, final);
    const std::size_t base = in_done;
    in_done += part.consumed;
    out_done += part.written;
    if (part.status != Status::Wider) {
      r.status = part.status;
      r.consumed = in_done;
      r.written = out_done;
      if (part.status == Status::Error) {
        r.error = part.error;
        r.error.offset += base;
      }
      break;
    }
    maxchar = level_of_next(c, in, in_done, mode, final);
    if (maxchar <= PyUnicode_MAX_CHAR_VALUE(str)) {  // no progress possible: a library fault
      Py_DECREF(str);
      PyErr_SetString(PyExc_SystemError, "pgcodec: the decoder stopped for a wider character that is not wider");
      str = nullptr;
      return r;
    }
    PyObject* wider = new_str(n, maxchar);
    if (!wider) {
      Py_DECREF(str);
      str = nullptr;
      return r;
    }
    copy_widened(str, wider, out_done);
    Py_SETREF(str, wider);
  }
  if (out_done < n && PyUnicode_Resize(&str, static_cast<Py_ssize_t>(out_done)) < 0) {
    Py_XDECREF(str);
    str = nullptr;
  }
  return r;
}

// A str made in a kind its characters may not need (a guess, or a count
// that invalid input or a cut-off character made wrong) made again in the
// kind they do, which a str must have. no_bits stops at the first block
// with a character that needs the kind, as a rule the first.
void narrow(PyObject*& str) {
  const int kind = PyUnicode_KIND(str);
  const auto len = static_cast<std::size_t>(PyUnicode_GET_LENGTH(str));
  const auto* d = static_cast<const unsigned char*>(PyUnicode_DATA(str));
  const std::uint64_t above = kind == PyUnicode_4BYTE_KIND   ? 0xFFFF0000FFFF0000ull
                              : kind == PyUnicode_2BYTE_KIND ? 0xFF00FF00FF00FF00ull
                                                             : 0x8080808080808080ull;
  if (PyUnicode_MAX_CHAR_VALUE(str) > 0x7F && no_bits(d, len * static_cast<std::size_t>(kind), above)) {
    PyObject* narrow = kind == PyUnicode_4BYTE_KIND   ? str_of(reinterpret_cast<const Py_UCS4*>(d), len, len)
                       : kind == PyUnicode_2BYTE_KIND ? str_of(reinterpret_cast<const Py_UCS2*>(d), len, len)
                                                      : str_of(d, len, len);
    Py_SETREF(str, narrow);
  }
}

// decode_str from kSmallDecode bytes on, below kChainDecode where the
// kind is a guess: the str is made in the kind `level` at one character a
// byte and decoded into with one library call (decode_rest, which widens it
// at a wider character, to the kind that character needs, and shrinks it
// at the end), then narrowed if it was not widened and its characters need
// less, which a str must not be. The kind is: UTF-8's by its bytes
// (utf8_level; exact, `exact`, unless the input is invalid: an error,
// U+FFFD for it, a character cut off at the end of a chunk); GB18030's as
// its first bytes suggest (gb18030_level); and UCS-2 for the single-byte
// encodings but LATIN1 (whose str is Latin-1 from the start) and for the
// two- and three-byte CJK ones (JIS X 0213's plane 2 is above; no other
// character is).
// Through a head decoded on the stack first (into Latin-1 units, or UTF-32
// where the encoding has four-byte characters), the str made in the kind
// it needed, and the rest in a second call, a 1 KB single-byte decode cost
// twice the bytes' time of a long one (0.73 ns a byte against 0.37), a 1 KB
// two-byte one paid a second kernel set-up and a second tail of the
// family's loop, and 1 KB of the bench's UTF-8 kanji and kana took 833 ns,
// mixed scripts 1,070, GB18030 random over the repertoire 1,590 and Chinese
// prose 1,600; this way 685, 893, 1,345 and 1,455.
Result decode_in_kind(const Codec& c, std::string_view in, ErrorMode mode, bool final,
                      PyObject*& str, Py_UCS4 level, bool exact) {
  str = new_str(in.size(), level);
  if (!str) return Result{};
  Result r = decode_rest(c, in, mode, final, str, 0, 0);
  if (str && PyUnicode_MAX_CHAR_VALUE(str) == level &&
      !(exact && mode == ErrorMode::Strict && r.status == Status::Ok && r.consumed == in.size()))
    narrow(str);
  return r;
}

// UTF-8 from kChainDecode bytes on: the str made at the length and in the
// kind the bytes say (utf8_shape, exact for valid UTF-8) and decoded into
// with one library call, the way a short text is; decode_chained's blocks
// and their copy into the str are for what the count does not foresee.
// Where the text decodes to fewer characters (an error, whose prefix the
// str then holds; a character cut off at the end of a chunk; invalid bytes
// replaced) the str is shrunk, and narrowed where it may be too wide; where
// to more, or to a wider one (U+FFFD in a Latin-1 str), the library stops,
// and the text goes through decode_chained from the start. Through the
// blocks, 16 MB of the bench's mixed scripts took 1.22 ns a byte against
// 0.73 at 1 MB: the blocks' fresh pages, then the str's, then the copy.
// Below kCountDecode the blocks are the faster: into an exact buffer the
// library's fast loop runs on cuts of the input a third of the room long
// for three-byte text (src/codecs/utf8.cpp's decode_to), and 64 KB of the
// bench's kanji and kana took 31.5 us this way against 29.4 (30.0 with
// room to spare: the count itself), the same at 1 MB, and 14 % less at 16
// MB (mixed scripts: 4 %, 8 % and 21 % less).
constexpr std::size_t kCountDecode = 1 << 20;
Result decode_counted(const Codec& c, std::string_view in, ErrorMode mode, bool final, PyObject*& str) {
  const Utf8Shape shape = utf8_shape(reinterpret_cast<const unsigned char*>(in.data()), in.size());
  str = new_str(shape.chars, shape.level);
  if (!str) return Result{};
  Result r = run_decode(c, in, PyUnicode_DATA(str), shape.chars, form_of(shape.level), shape.level, mode, final);
  if (r.status == Status::Ok && r.consumed == in.size() && r.written == shape.chars && mode == ErrorMode::Strict)
    return r;
  if ((r.status == Status::Ok || r.status == Status::Error) && r.written <= shape.chars) {
    if (r.written < shape.chars && PyUnicode_Resize(&str, static_cast<Py_ssize_t>(r.written)) < 0) {
      Py_XDECREF(str);
      str = nullptr;
      return r;
    }
    narrow(str);
    return r;
  }
  Py_CLEAR(str);
  return decode_chained(c, in, mode, final, str);
}

// The whole text in one library call into `str`, Latin-1 units up to
// `maxchar`, as a rule: decode_rest only for what it leaves (a NUL, an
// error, a wider character). Through decode_rest alone, a 1 KB LATIN1
// decode was 0.77x CPython's latin-1 (156 against 120 ns: its set-up and
// the Result passed up). The library's Result is built where the caller
// of decode_str reads it (the one named return value here, returned as it
// is up the chain): copied after the call, as a `return r` beside other
// returns did, its 16-byte loads met the library's 8-byte stores of a
// moment before (a store-forwarding stall: 39 % of decode_str_general's
// samples in perf, on the bench's 1 KB LATIN1 decode).
Result decode_whole(const Codec& c, std::string_view in, ErrorMode mode, bool final, PyObject*& str,
                    Py_UCS4 maxchar) {
  Result r = c.decode_units(in, {PyUnicode_DATA(str), in.size(), UnitForm::Latin1, maxchar}, mode, final);
  if (r.status != Status::Ok || r.written != in.size())
    r = decode_rest(c, in, mode, final, str, r.consumed, r.written);
  return r;
}

// decode_str past its short copy (below): out of line, so that the
// registers it saves are not set up for a copy (callgrind: decode_str took
// 118 instructions of an 8-byte copy).
[[gnu::noinline]] Result decode_str_general(const Codec& c, std::string_view in, ErrorMode mode, bool final,
                                            PyObject*& str, bool ascii);

// decode_str_general past the input that says its str's kind (ASCII, or
// LATIN1): out of line too, so that the stack heads' 1.5 KiB frame is not
// set up for that one library call (1 KB LATIN1 157 -> 145 ns, one
// process a build, alternating).
[[gnu::noinline]] Result decode_by_script(const Codec& c, std::string_view in, ErrorMode mode, bool final,
                                          PyObject*& str);

}  // namespace

Result decode_str(const Codec& c, std::string_view in, ErrorMode mode, bool final, PyObject*& str) {
  const std::size_t n = in.size();
  str = nullptr;
  if (n == 0) {
    str = PyUnicode_New(0, 0);
    return Result{};
  }
  if (n > static_cast<std::size_t>(PY_SSIZE_T_MAX) / 4) {
    PyErr_NoMemory();
    return Result{};
  }
  const auto* bytes = reinterpret_cast<const unsigned char*>(in.data());
  if (n >= kCopyDecode) return decode_str_general(c, in, mode, final, str, all_ascii(bytes, n));
  const ByteScan scan = scan_bytes(bytes, n);
  const Identity& id = identity(c);
  if (!scan.nul && (id.latin1_identity || (scan.ascii && id.ascii_decodes))) {
    // Short, and what the library decodes each of these bytes to is the
    // byte itself: the str is a copy, as encode() copies an ASCII str
    // (and any Latin-1 one to LATIN1). LATIN1 is asked first: short
    // Western text is ASCII in some pieces and not in others, and a branch
    // on that before the copy was mispredicted (8 B LATIN1 58 -> 47 ns,
    // 100 B 64 -> 56, alternating processes).
    str = PyUnicode_New(static_cast<Py_ssize_t>(n), scan.ascii ? 0x7F : 0xFF);
    if (!str) return Result{};
    std::memcpy(PyUnicode_DATA(str), in.data(), n);
    return Result{n, n};  // built in the caller's slot: a named Result was built aside and copied there
  }
  return decode_str_general(c, in, mode, final, str, scan.ascii);
}

namespace {

Result decode_str_general(const Codec& c, std::string_view in, ErrorMode mode, bool final, PyObject*& str,
                          bool ascii) {
  const std::size_t n = in.size();
  if (identity(c).latin1_decodes || ascii) {
    // ASCII bytes, or an encoding with nothing above U+00FF (LATIN1): the
    // input says the str's kind (ASCII is itself in every encoding; the
    // library still checks it, NUL included), and the library decodes
    // straight into it. CPython's own latin-1 and ASCII decoders take the
    // same two steps, a scan then a copy.
    const Py_UCS4 maxchar = ascii ? 0x7F : 0xFF;
    str = new_str(n, maxchar);
    if (!str) return Result{};
    if (n < kReleaseGilCopy) return decode_whole(c, in, mode, final, str, maxchar);
    return decode_rest(c, in, mode, final, str, 0, 0);
  }
  return decode_by_script(c, in, mode, final, str);
}

Result decode_by_script(const Codec& c, std::string_view in, ErrorMode mode, bool final, PyObject*& str) {
  const std::size_t n = in.size();
  const auto* bytes = reinterpret_cast<const unsigned char*>(in.data());
  std::size_t in_done = 0, out_done = 0;
  const Identity& id = identity(c);
  if (n > kSmallDecode && n < kChainDecode) {
    if (c.encoding() == Encoding::UTF8)
      return decode_in_kind(c, in, mode, final, str, utf8_level(bytes, n), true);
    if (c.encoding() == Encoding::GB18030)
      return decode_in_kind(c, in, mode, final, str,
                            gb18030_level(bytes, std::min<std::size_t>(n, 64)), false);
  }
  if (n <= kSmallDecode) {
    return decode_small(c, in, mode, final, str);
  } else if (info(c.encoding()).max_char_length == 1 && c.encoding() != Encoding::SQL_ASCII) {
    // (SQL_ASCII is one byte a character to PostgreSQL, but its bytes
    // decode as UTF-8: several to one code point, up to U+10FFFF.) One
    // character a byte: the UCS-2 str has the right length from 32 KiB on
    // too.
    return decode_in_kind(c, in, mode, final, str, 0xFFFF, false);
  } else if (n >= kChainDecode) {
    return c.encoding() == Encoding::UTF8 && n >= kCountDecode ? decode_counted(c, in, mode, final, str)
                                                                : decode_chained(c, in, mode, final, str);
  } else if (!id.short_into_utf32) {
    return decode_in_kind(c, in, mode, final, str, 0xFFFF, false);
  } else {
    // Where the encoding has four-byte characters: the head (the first
    // kSmallDecode bytes, as a chunk: a character cut off at its end is
    // left to the rest) is decoded on the stack first, into UTF-32, and the
    // str starts in the kind the head needs: real text shows its script
    // early, so the str is rarely made twice. (Against tries into Latin-1
    // and UCS-2 units first, interleaved: 1 KB UTF8 mixed scripts 899 ->
    // 731 ns, GB18030 random 2194 -> 2104, UTF8 kanji the same.) An error
    // in it: the str of what precedes.
    const std::string_view head_in = in.substr(0, kSmallDecode);
    char32_t head4[kSmallDecode];
    const Result h = c.decode_units(head_in, {head4, kSmallDecode, UnitForm::Utf32, 0x10FFFF}, mode, false);
    if (h.status != Status::Ok) return decode_small(c, head_in, mode, false, str);
    str = str_of(head4, h.written, n);
    if (!str) return Result{};
    in_done = h.consumed;
    out_done = h.written;
  }
  return decode_rest(c, in, mode, final, str, in_done, out_done);
}

}  // namespace

UnitText units_of(PyObject* str) {
  const auto n = static_cast<std::size_t>(PyUnicode_GET_LENGTH(str));
  switch (PyUnicode_KIND(str)) {
    case PyUnicode_1BYTE_KIND: return {PyUnicode_DATA(str), n, UnitForm::Latin1};
    case PyUnicode_2BYTE_KIND: return {PyUnicode_DATA(str), n, UnitForm::Ucs2};
    default: return {PyUnicode_DATA(str), n, UnitForm::Utf32};
  }
}

UnitText slice(const UnitText& t, std::size_t from, std::size_t to) {
  const std::size_t z = t.form == UnitForm::Latin1 ? 1 : t.form == UnitForm::Utf32 ? 4 : 2;
  return {static_cast<const char*>(t.data) + from * z, to - from, t.form};
}

std::size_t utf8_offset(const UnitText& t, std::size_t at) {
  std::size_t b = 0;
  for (std::size_t i = 0; i < at; ++i) {
    Py_UCS4 u;
    if (t.form == UnitForm::Latin1) u = static_cast<const Py_UCS1*>(t.data)[i];
    else if (t.form == UnitForm::Ucs2) u = static_cast<const Py_UCS2*>(t.data)[i];
    else u = static_cast<const Py_UCS4*>(t.data)[i];
    b += u < 0x80 ? 1 : u < 0x800 ? 2 : u < 0x10000 ? 3 : 4;
  }
  return b;
}

std::size_t encode_bound(const Codec& c, const UnitText& t) {
  // Codec::max_encoded_units_size(length, form), which is length times its
  // value for one unit (see Identity::encode_factor).
  std::size_t bound;
  if (__builtin_mul_overflow(std::max<std::size_t>(t.length, 1),
                             std::size_t{identity(c).encode_factor[static_cast<int>(t.form)]}, &bound) ||
      bound > SIZE_MAX - 16)
    return SIZE_MAX;
  return bound;
}

namespace {
Result encode_without_gil(const Codec& c, const UnitText& t, char* out, std::size_t cap, ErrorMode mode,
                          bool final) {
  Result r;
  Py_BEGIN_ALLOW_THREADS
  r = c.encode_units(t, std::span<char>(out, cap), mode, final);
  Py_END_ALLOW_THREADS
  return r;
}
}  // namespace

Result encode_into(const Codec& c, const UnitText& t, char* out, std::size_t cap, ErrorMode mode, bool final,
                   std::size_t release_from) {
  // Initialised from the call, not assigned (see decode_small).
  const Result r = t.length < release_from ? c.encode_units(t, std::span<char>(out, cap), mode, final)
                                          : encode_without_gil(c, t, out, cap, mode, final);
  if (r.status == Status::OutputFull) {
    // encode_bound gave the room the library promises: never truncate quietly.
    PyErr_Format(PyExc_SystemError, "pgcodec: %s encoder ran out of its bounded output (%zu bytes for %zu units)",
                 c.name(), cap, t.length);
  }
  return r;
}

void prefer_huge_pages(void* data, std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (bytes < kHugePagesFrom) return;
  constexpr std::uintptr_t huge = 2u << 20;
  const auto from = (reinterpret_cast<std::uintptr_t>(data) + huge - 1) & ~(huge - 1);
  const auto to = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(huge - 1);
  // Advice only: where it is refused (no THP), the pages come as before.
  if (to > from) madvise(reinterpret_cast<void*>(from), to - from, MADV_HUGEPAGE);
#else
  (void)data;
  (void)bytes;
#endif
}

bool parse_errors(PyObject* arg, Errors* errors) {
  *errors = Errors{};
  if (!arg) return true;
  if (!PyUnicode_Check(arg)) {
    PyErr_Format(PyExc_TypeError, "errors must be a str, not %.100s", Py_TYPE(arg)->tp_name);
    return false;
  }
  if (PyUnicode_CompareWithASCIIString(arg, "strict") == 0) return true;
  if (PyUnicode_CompareWithASCIIString(arg, "replace") == 0) {
    errors->mode = ErrorMode::Replace;
    return true;
  }
  errors->handler_name = arg;  // looked up (codecs.lookup_error) at the first error
  return true;
}

bool parse_errors(PyObject* arg, ErrorMode* mode) {
  Errors e;
  if (!parse_errors(arg, &e)) return false;
  if (e.handler_name) {
    PyErr_Format(PyExc_ValueError, "unsupported errors value %R: this call supports 'strict' and 'replace'", arg);
    return false;
  }
  *mode = e.mode;
  return true;
}

}  // namespace pgcodec::python
