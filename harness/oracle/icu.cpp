#include "oracle/icu.hpp"

#include <unicode/ucnv.h>
#include <unicode/ucnv_err.h>

#include <stdexcept>
#include <vector>

namespace pgcodec::oracle {

using harness::Outcome;
using harness::OutcomeKind;
namespace {

// The callbacks record why ICU stopped and leave the error set, so the
// conversion stops at the first problem of any kind.
struct Stop {
  UConverterCallbackReason reason = UCNV_RESET;
  bool hit = false;
};

void to_u_stop(const void* ctx, UConverterToUnicodeArgs*, const char*, int32_t,
               UConverterCallbackReason reason, UErrorCode*) {
  if (reason > UCNV_IRREGULAR) return;  // reset/close/clone: not an error
  auto* s = static_cast<Stop*>(const_cast<void*>(ctx));
  if (!s->hit) {
    s->hit = true;
    s->reason = reason;
  }
}

void from_u_stop(const void* ctx, UConverterFromUnicodeArgs*, const UChar*, int32_t, UChar32,
                 UConverterCallbackReason reason, UErrorCode*) {
  if (reason > UCNV_IRREGULAR) return;
  auto* s = static_cast<Stop*>(const_cast<void*>(ctx));
  if (!s->hit) {
    s->hit = true;
    s->reason = reason;
  }
}

OutcomeKind kind_of(UConverterCallbackReason r) {
  return r == UCNV_UNASSIGNED ? OutcomeKind::NoEquivalent : OutcomeKind::InvalidByteSequence;
}

}  // namespace

struct IcuConverter::Impl {
  UConverter* cnv = nullptr;
  UConverter* utf8 = nullptr;
  Stop stop;
};

IcuConverter::IcuConverter(const std::string& name) : impl_(std::make_unique<Impl>()) {
  UErrorCode err = U_ZERO_ERROR;
  impl_->cnv = ucnv_open(name.c_str(), &err);
  if (U_FAILURE(err) || !impl_->cnv)
    throw std::runtime_error("ICU cannot open converter \"" + name + "\": " + u_errorName(err));
  impl_->utf8 = ucnv_open("UTF-8", &err);
  ucnv_setFallback(impl_->cnv, false);
  ucnv_setToUCallBack(impl_->utf8, &to_u_stop, &impl_->stop, nullptr, nullptr, &err);
  ucnv_setFromUCallBack(impl_->utf8, &from_u_stop, &impl_->stop, nullptr, nullptr, &err);
  ucnv_setToUCallBack(impl_->cnv, &to_u_stop, &impl_->stop, nullptr, nullptr, &err);
  ucnv_setFromUCallBack(impl_->cnv, &from_u_stop, &impl_->stop, nullptr, nullptr, &err);
  if (U_FAILURE(err)) throw std::runtime_error(std::string("ICU: ") + u_errorName(err));
}

IcuConverter::~IcuConverter() {
  ucnv_close(impl_->cnv);
  ucnv_close(impl_->utf8);
}

namespace {
// Converts with ucnv_convertEx through a pivot; returns the bytes written
// and whether it failed.
Outcome convert(UConverter* to, UConverter* from, Stop& stop, std::string_view in) {
  ucnv_reset(to);
  ucnv_reset(from);
  stop = Stop{};
  thread_local std::vector<char> out;
  thread_local std::vector<UChar> pivot(1024);
  out.resize(in.size() * 4 + 16);
  UChar* ps = pivot.data();
  UChar* pt = pivot.data();
  char* target = out.data();
  const char* source = in.data();
  UErrorCode err = U_ZERO_ERROR;
  ucnv_convertEx(to, from, &target, out.data() + out.size(), &source, in.data() + in.size(),
                 pivot.data(), &ps, &pt, pivot.data() + pivot.size(), true, true, &err);
  Outcome o;
  if (U_FAILURE(err) || stop.hit) {
    o.kind = stop.hit ? kind_of(stop.reason) : OutcomeKind::Unspecified;
    return o;
  }
  o.output.assign(out.data(), static_cast<std::size_t>(target - out.data()));
  return o;
}
}  // namespace

Outcome IcuConverter::decode(std::string_view bytes) {
  return convert(impl_->utf8, impl_->cnv, impl_->stop, bytes);
}

Outcome IcuConverter::encode(std::string_view utf8) {
  return convert(impl_->cnv, impl_->utf8, impl_->stop, utf8);
}

}  // namespace pgcodec::oracle
