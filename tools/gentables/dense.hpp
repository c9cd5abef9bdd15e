// The library's dense tables (src/tables/dense.hpp) as the generator derives
// them from the run tables, writes them, and checks them against the runs.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "tables/dense.hpp"
#include "tables/table.hpp"

namespace pgcodec::gen {

// Writes src/tables/generated/dense/<name>.cpp for one single-byte or
// multibyte encoding (nothing for UTF8 and SQL_ASCII, which have no table);
// returns the bytes written. `t` must be the complete table.
std::size_t write_dense_source(const std::string& dir, const detail::MappingTable& t,
                               const std::string& server_version, const std::string& command);
// Writes src/tables/generated/dense/dense_index.hpp declaring every dense table.
void write_dense_index(const std::string& dir, const std::string& server_version,
                       const std::string& command);

// Compares the dense tables compiled into the library with the runs `t`: every
// byte, every two-byte code, every three-byte code with high prefix bytes,
// every GB18030 four-byte code, every other four-byte code either form holds,
// every code point U+0080..U+10FFFF and every combined pair. Returns the
// differences (at most `limit` described in `out`) and adds their count.
std::size_t check_dense(const detail::MappingTable& t, std::vector<std::string>& out,
                        std::size_t limit);

}  // namespace pgcodec::gen
