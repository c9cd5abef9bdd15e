// Mapping tables as the generator builds them from server answers, and the
// generated C++ source that carries them into the library.
#pragma once

#include <string>
#include <vector>

#include "tables/table.hpp"

namespace pgcodec::gen {

struct BuiltTable {
  Encoding encoding{};
  detail::TableKind kind = detail::TableKind::Mapped;
  std::vector<detail::Run> decode, encode;
  std::vector<detail::Pair> decode_pairs, encode_pairs;
  std::vector<detail::LinearRun> decode_linear, encode_linear;

  detail::MappingTable view() const {
    return {encoding, kind, decode, decode_pairs, decode_linear, encode, encode_pairs,
            encode_linear, ""};
  }
};

// Collects single mappings and merges them into runs.
class TableBuilder {
 public:
  explicit TableBuilder(Encoding e);
  void add_decode(std::uint32_t code, std::uint32_t cp);
  void add_decode_pair(std::uint32_t code, std::uint32_t cp1, std::uint32_t cp2);
  void add_encode(std::uint32_t cp, std::uint32_t code);
  void add_encode_pair(std::uint32_t cp1, std::uint32_t cp2, std::uint32_t code);
  BuiltTable finish(detail::TableKind kind = detail::TableKind::Mapped);

 private:
  Encoding enc_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> dec_, enc_map_, dec_lin_, enc_lin_;
  std::vector<detail::Pair> dpairs_, epairs_;
};

// C++ identifier stem for an encoding's table ("sjis", "iso_8859_5").
std::string table_symbol(Encoding e);

// Writes src/tables/generated/<name>.cpp for one table; returns the bytes written.
std::size_t write_table_source(const std::string& dir, const BuiltTable& t,
                               const std::string& server_version, const std::string& command);
// Writes src/tables/generated/index.cpp naming every table.
void write_index_source(const std::string& dir, const std::string& server_version);

}  // namespace pgcodec::gen
