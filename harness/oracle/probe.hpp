// Asking the server: run PostgreSQL's convert() over many inputs, thousands
// per round trip, on several connections at once, and capture each input's
// own outcome (converted bytes or the SQLSTATE it raised).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "oracle/pq.hpp"

namespace pgcodec::oracle {

enum class Verdict : std::uint8_t { Ok, Invalid, NoEquivalent };

// One server answer. Outputs of one character (or two code points) fit the
// inline buffer; the generator fails loudly if one does not.
struct Probe {
  Verdict verdict = Verdict::Ok;
  std::uint8_t size = 0;
  std::uint8_t failed_step = 0;  // which convert() of the chain failed, from 1
  char bytes[13] = {};
  std::string_view output() const { return {bytes, size}; }
};

class ProbePool {
 public:
  ProbePool(const std::string& conninfo, int connections);
  ~ProbePool();
  ProbePool(const ProbePool&) = delete;
  ProbePool& operator=(const ProbePool&) = delete;

  // convert() each input along `chain` (e.g. {"SJIS", "UTF8"}, or
  // {"UTF8", "EUC_JP", "MULE_INTERNAL"}: successive convert() calls).
  // `input(i)` gives input i of n; the answers come back in order.
  std::vector<Probe> run(const std::vector<std::string>& chain, std::size_t n,
                         const std::function<std::string(std::size_t)>& input);

  const std::string& server_version() const noexcept { return version_; }
  std::uint64_t items_probed() const noexcept { return probed_; }

 private:
  std::vector<Connection> conns_;
  std::string version_;
  std::atomic<std::uint64_t> probed_{0};
};

}  // namespace pgcodec::oracle
