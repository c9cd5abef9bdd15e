#include "oracle/probe.hpp"

#include <mutex>
#include <stdexcept>
#include <thread>

#include "core/text.hpp"

namespace pgcodec::oracle {
namespace {

// Tries a whole batch in one subtransaction (cheap when all succeed), and
// falls back to one subtransaction per input when any fails. Rows: input
// number, converted bytes or NULL, SQLSTATE or NULL, the message for
// SQLSTATEs other than the two conversion errors, and which convert() of the
// chain failed (1 = the first).
constexpr const char* kProbeFunction = R"sql(
CREATE FUNCTION pg_temp.pgcodec_probe(chain name[], items text)
RETURNS TABLE(i int, res bytea, state text, msg text, step int) LANGUAGE plpgsql AS $fn$
DECLARE
  inputs bytea[];
  outs bytea[];
  n int;
  k int;
  v bytea;
BEGIN
  inputs := ARRAY(SELECT decode(x, 'hex') FROM unnest(string_to_array(items, ',')) WITH ORDINALITY AS t(x, o) ORDER BY o);
  n := coalesce(array_length(inputs, 1), 0);
  BEGIN
    outs := inputs;
    FOR k IN 2 .. array_length(chain, 1) LOOP
      outs := ARRAY(SELECT convert(outs[j], chain[k - 1], chain[k]) FROM generate_series(1, n) AS j ORDER BY j);
    END LOOP;
    FOR k IN 1 .. n LOOP
      i := k; res := outs[k]; state := NULL; msg := NULL; step := NULL;
      RETURN NEXT;
    END LOOP;
    RETURN;
  EXCEPTION WHEN OTHERS THEN
    NULL;
  END;
  FOR k IN 1 .. n LOOP
    i := k; state := NULL; msg := NULL; step := 0;
    BEGIN
      v := inputs[k];
      FOR s IN 2 .. array_length(chain, 1) LOOP
        step := s - 1;
        v := convert(v, chain[s - 1], chain[s]);
      END LOOP;
      step := NULL;
      res := v;
    EXCEPTION WHEN OTHERS THEN
      res := NULL;
      state := SQLSTATE;
      IF SQLSTATE NOT IN ('22021', '22P05') THEN msg := SQLERRM; END IF;
    END;
    RETURN NEXT;
  END LOOP;
END
$fn$)sql";

constexpr std::size_t kBatch = 2048;


std::string chain_literal(const std::vector<std::string>& chain) {
  std::string s = "{";
  for (std::size_t i = 0; i < chain.size(); ++i) s += (i ? "," : "") + chain[i];
  return s + "}";
}

}  // namespace

ProbePool::ProbePool(const std::string& conninfo, int connections) {
  for (int i = 0; i < connections; ++i) {
    conns_.emplace_back(conninfo);
    conns_.back().exec("SET client_min_messages = warning");
    conns_.back().exec(kProbeFunction);
  }
  version_ = conns_.front().server_version();
  auto enc = conns_.front().exec("SELECT current_setting('server_encoding')");
  if (enc.get(0, 0) != "UTF8")
    throw std::runtime_error("the server's database encoding is " + std::string(enc.get(0, 0)) +
                             "; the generator needs a UTF8 database");
}

ProbePool::~ProbePool() = default;

std::vector<Probe> ProbePool::run(const std::vector<std::string>& chain, std::size_t n,
                                  const std::function<std::string(std::size_t)>& input) {
  std::vector<Probe> out(n);
  std::atomic<std::size_t> next{0};
  std::mutex err_mu;
  std::string error;
  const std::string chain_lit = chain_literal(chain);
  std::mutex input_mu;  // `input` need not be thread-safe

  auto worker = [&](Connection& conn) {
    std::vector<std::string> batch;
    for (;;) {
      const std::size_t first = next.fetch_add(kBatch);
      if (first >= n) return;
      const std::size_t count = std::min(kBatch, n - first);
      std::string items;
      items.reserve(count * 10);
      {
        std::lock_guard lock(input_mu);
        for (std::size_t k = 0; k < count; ++k) {
          if (k) items.push_back(',');
          items += harness::hex_digits(input(first + k));
        }
      }
      try {
        auto r = conn.exec("SELECT i, res, state, msg, step FROM pg_temp.pgcodec_probe($1, $2)",
                           {chain_lit, items});
        if (static_cast<std::size_t>(r.rows()) != count)
          throw std::runtime_error("probe returned " + std::to_string(r.rows()) + " rows for " +
                                   std::to_string(count) + " inputs");
        for (int row = 0; row < r.rows(); ++row) {
          const auto idx = first + static_cast<std::size_t>(std::stoul(std::string(r.get(row, 0)))) - 1;
          Probe& p = out[idx];
          if (r.is_null(row, 2)) {
            const std::string bytes = unhex_bytea(r.get(row, 1));
            if (bytes.size() > sizeof p.bytes)
              throw std::runtime_error("an answer of " + std::to_string(bytes.size()) +
                                       " bytes does not fit a probe");
            p.verdict = Verdict::Ok;
            p.size = static_cast<std::uint8_t>(bytes.size());
            bytes.copy(p.bytes, bytes.size());
          } else if (r.get(row, 2) == "22021" || r.get(row, 2) == "22P05") {
            p.verdict = r.get(row, 2) == "22021" ? Verdict::Invalid : Verdict::NoEquivalent;
            p.failed_step = static_cast<std::uint8_t>(std::stoi(std::string(r.get(row, 4))));
          } else {
            throw std::runtime_error("unexpected SQLSTATE " + std::string(r.get(row, 2)) +
                                     " converting along " + chain_lit + ": " +
                                     std::string(r.get(row, 3)));
          }
        }
        probed_ += count;
      } catch (const std::exception& e) {
        std::lock_guard lock(err_mu);
        if (error.empty()) error = e.what();
        next = n;
        return;
      }
    }
  };

  std::vector<std::thread> threads;
  for (auto& c : conns_) threads.emplace_back(worker, std::ref(c));
  for (auto& t : threads) t.join();
  if (!error.empty()) throw std::runtime_error(error);
  return out;
}

}  // namespace pgcodec::oracle
