#include "oracle/oracle.hpp"

#include <algorithm>

#include "core/model.hpp"
#include "oracle/icu.hpp"
#include "oracle/names.hpp"
#include "oracle/python.hpp"
#include "pgcodec/codec.hpp"

namespace pgcodec::oracle {

namespace {

// Runs a pgcodec conversion function over every input with a reused buffer.
template <class Convert>
void run_each(std::span<const std::string> in, std::vector<Outcome>& out, bool decoding,
              const Codec& c, Convert&& convert) {
  out.resize(in.size());
  std::vector<char> buf;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const auto cap = decoding ? c.max_decoded_size(in[i].size()) : c.max_encoded_size(in[i].size());
    buf.resize(std::max<std::size_t>(cap.value_or(in[i].size() * 4), 1));
    const Result r = convert(in[i], std::span<char>(buf));
    out[i] = harness::from_result(r, std::string_view(buf.data(), buf.size()));
  }
}

class Cached final : public Reference {
 public:
  explicit Cached(Encoding e) : c_(codec(e)) {}
  std::string name() const override { return "pgcodec-cached"; }
  void run(Direction d, std::span<const std::string> in, std::vector<Outcome>& out) override {
    const bool dec = d == Direction::Decode;
    run_each(in, out, dec, c_, [&](std::string_view s, std::span<char> b) {
      return dec ? c_.decode(s, b) : c_.encode(s, b);
    });
  }

 private:
  const Codec& c_;
};

class ByName final : public Reference {
 public:
  explicit ByName(Encoding e) : c_(codec(e)), name_(info(e).name) {}
  std::string name() const override { return "pgcodec-by-name"; }
  void run(Direction d, std::span<const std::string> in, std::vector<Outcome>& out) override {
    const bool dec = d == Direction::Decode;
    run_each(in, out, dec, c_, [&](std::string_view s, std::span<char> b) {
      return dec ? pgcodec::decode(name_, s, b) : pgcodec::encode(name_, s, b);
    });
  }

 private:
  const Codec& c_;
  std::string name_;
};

class Tables final : public Reference {
 public:
  explicit Tables(Encoding e) : m_(harness::model(e)) {}
  std::string name() const override { return "pgcodec-tables"; }
  void run(Direction d, std::span<const std::string> in, std::vector<Outcome>& out) override {
    out.resize(in.size());
    for (std::size_t i = 0; i < in.size(); ++i)
      out[i] = d == Direction::Decode ? m_.decode(in[i]) : m_.encode(in[i]);
  }

 private:
  const harness::TableModel& m_;
};

class Icu final : public Reference {
 public:
  explicit Icu(std::string name) : name_(std::move(name)), cnv_(name_) {}
  std::string name() const override { return "icu-" + name_; }
  void run(Direction d, std::span<const std::string> in, std::vector<Outcome>& out) override {
    out.resize(in.size());
    for (std::size_t i = 0; i < in.size(); ++i)
      out[i] = d == Direction::Decode ? cnv_.decode(in[i]) : cnv_.encode(in[i]);
  }

 private:
  std::string name_;
  IcuConverter cnv_;
};

class Python final : public Reference {
 public:
  explicit Python(const std::string& codec) : codec_(codec) {}
  std::string name() const override { return "python-" + codec_.name(); }
  void run(Direction d, std::span<const std::string> in, std::vector<Outcome>& out) override {
    codec_.run(d == Direction::Decode, in, out);
  }

 private:
  PythonCodec codec_;
};

}  // namespace

std::unique_ptr<Reference> pgcodec_cached(Encoding e) { return std::make_unique<Cached>(e); }
std::unique_ptr<Reference> pgcodec_by_name(Encoding e) { return std::make_unique<ByName>(e); }
std::unique_ptr<Reference> pgcodec_tables(Encoding e) { return std::make_unique<Tables>(e); }

std::unique_ptr<Reference> icu_reference(Encoding e) {
  const std::string_view name = reference_names(e).icu;
  if (name.empty()) return nullptr;
  return std::make_unique<Icu>(std::string(name));
}

std::vector<PythonChoice> python_choices(Encoding e) {
  const ReferenceNames& i = reference_names(e);
  std::vector<PythonChoice> out;
  auto add = [&](std::string_view requested, const char* driver) {
    if (requested.empty()) return;
    const std::string canon = python_codec_name(std::string(requested));
    if (canon.empty()) return;  // Python has no such codec (asyncpg's "euc_tw")
    auto it = std::find_if(out.begin(), out.end(), [&](auto& c) { return c.codec == canon; });
    if (it == out.end()) it = out.insert(out.end(), PythonChoice{canon, {}});
    if (driver) it->used_by.emplace_back(driver);
  };
  add(i.python_psycopg3, "psycopg3");
  add(i.python_psycopg2, "psycopg2");
  add(i.python_asyncpg, "asyncpg");
  for (auto o : i.python_others) add(o, nullptr);
  return out;
}

std::unique_ptr<Reference> python_reference(const std::string& codec) {
  return std::make_unique<Python>(codec);
}

}  // namespace pgcodec::oracle
