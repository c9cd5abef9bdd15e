// `pgcodec convert` and `pgcodec check`: streaming conversion between any
// two encodings through UTF-8, in constant memory.
#pragma once

#include <cstdio>
#include <string>

#include "pgcodec/codec.hpp"

namespace pgcodec::cli {

struct ConvertOptions {
  const Codec* from = nullptr;
  const Codec* to = nullptr;  // check: may be null (validate `from` only)
  ErrorMode mode = ErrorMode::Strict;
  bool json = false;  // check only
};

// Exit status: 0 success, 1 data errors.
int run_convert(const ConvertOptions& o, std::FILE* in, std::FILE* out, std::FILE* err);
int run_check(const ConvertOptions& o, std::FILE* in, std::FILE* out);

}  // namespace pgcodec::cli
