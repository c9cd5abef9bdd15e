#include <pgcodec/encoding.hpp>

#include <cstdio>

int main() {
  auto e = pgcodec::lookup("Shift-JIS");
  if (!e || pgcodec::info(*e).name != "SJIS" || pgcodec::encodings().size() != 42) {
    std::puts("consumer: unexpected registry answer");
    return 1;
  }
  std::puts("consumer: Shift-JIS resolves to SJIS");
  return 0;
}
