// pgcodec: the command-line face of the library. Subcommands grow with the
// project; this one knows the encoding registry.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <iomanip>
#include <iostream>

#include "pgcodec/encoding.hpp"

namespace {

using pgcodec::EncodingInfo;

std::string join(std::span<const std::string_view> v, const char* sep = ",") {
  std::string s;
  for (auto x : v) {
    if (!s.empty()) s += sep;
    s += x;
  }
  return s;
}

std::string or_dash(std::string_view s) { return s.empty() ? "-" : std::string(s); }

int cmd_list(bool json) {
  if (json) {
    auto arr = nlohmann::json::array();
    for (const EncodingInfo& e : pgcodec::encodings()) {
      nlohmann::json j;
      j["id"] = pgcodec::to_int(e.id);
      j["name"] = e.name;
      j["server"] = e.server;
      j["max_char_length"] = e.max_char_length;
      j["aliases"] = std::vector<std::string>(e.aliases.begin(), e.aliases.end());
      auto opt = [](std::string_view s) { return s.empty() ? nlohmann::json() : nlohmann::json(s); };
      j["python"] = {{"psycopg3", opt(e.python_psycopg3)},
                     {"psycopg2", opt(e.python_psycopg2)},
                     {"asyncpg", opt(e.python_asyncpg)},
                     {"others", std::vector<std::string>(e.python_others.begin(), e.python_others.end())}};
      j["icu"] = opt(e.icu);
      arr.push_back(std::move(j));
    }
    std::cout << arr.dump(2) << "\n";
    return 0;
  }
  std::cout << std::left << std::setw(3) << "id" << " " << std::setw(15) << "name" << " "
            << std::setw(6) << "kind" << " " << "max " << std::setw(15) << "psycopg3" << " "
            << std::setw(15) << "psycopg2" << " " << std::setw(15) << "asyncpg" << " "
            << std::setw(13) << "icu" << " aliases\n";
  for (const EncodingInfo& e : pgcodec::encodings()) {
    std::cout << std::left << std::setw(3) << pgcodec::to_int(e.id) << " " << std::setw(15)
              << e.name << " " << std::setw(6) << (e.server ? "server" : "client") << " "
              << std::setw(3) << e.max_char_length << " " << std::setw(15)
              << or_dash(e.python_psycopg3) << " " << std::setw(15) << or_dash(e.python_psycopg2)
              << " " << std::setw(15) << or_dash(e.python_asyncpg) << " " << std::setw(13)
              << or_dash(e.icu) << " " << join(e.aliases) << "\n";
  }
  return 0;
}

int cmd_resolve(const std::string& name) {
  if (auto e = pgcodec::lookup(name)) {
    std::cout << pgcodec::info(*e).name << "\n";
    return 0;
  }
  std::cerr << "pgcodec: \"" << name << "\" is not a PostgreSQL encoding name"
            << " (PostgreSQL would say: invalid value for parameter \"client_encoding\")\n"
            << "pgcodec: `pgcodec list` shows the encodings and their aliases\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "pgcodec: PostgreSQL encodings, converted exactly as the server converts them.\n\n"
      "Encoding names are resolved as PostgreSQL resolves them: every character that is\n"
      "not an ASCII letter or digit is dropped, the rest is lowercased and looked up\n"
      "among PostgreSQL's aliases, so \"Shift-JIS\", \"shift_jis\" and \"S.J.I.S\" all\n"
      "name SJIS.\n\n"
      "Exit status: 0 on success, 1 when the data has errors, 2 on bad usage or an\n"
      "unknown encoding name.",
      "pgcodec"};
  app.require_subcommand(1);
  bool json = false;
  auto* list = app.add_subcommand(
      "list",
      "List the 42 encodings: id, canonical name, server or client-only, maximum bytes per\n"
      "character, the Python codecs psycopg 3, psycopg2 and asyncpg use, the closest ICU\n"
      "converter and every alias PostgreSQL accepts.");
  list->add_flag("--json", json, "Print a JSON array, one object per encoding");
  std::string name;
  auto* resolve = app.add_subcommand(
      "resolve", "Print the canonical name of an encoding name or alias; exit 2 if unknown.");
  resolve->add_option("NAME", name, "An encoding name, in any spelling PostgreSQL accepts")
      ->required();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  if (*list) return cmd_list(json);
  if (*resolve) return cmd_resolve(name);
  return 2;
}
