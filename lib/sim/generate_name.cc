#include "sim/generate_name.h"

#include <cstdint>

#include "schedkit/base/str_cat.h"

namespace schedkit::sim {

std::string GenerateNameSuffix(std::string_view seed, int n) {
  static constexpr std::string_view kAlphabet = "bcdfghjklmnpqrstvwxz2456789";
  uint64_t h = 1469598103934665603ULL;  // FNV-1a
  for (char c : schedkit::StrCat(seed, "#", n)) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ULL;
  }
  std::string out;
  for (int i = 0; i < 5; ++i) {
    out.push_back(kAlphabet[h % kAlphabet.size()]);
    h /= kAlphabet.size();
  }
  return out;
}

}  // namespace schedkit::sim
