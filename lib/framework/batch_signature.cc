#include "schedkit/framework/batch_signature.h"

#include <algorithm>
#include <string>
#include <utility>

#include "schedkit/base/str_cat.h"

namespace schedkit::framework {

void BatchSignatureBuilder::Add(std::string_view key, std::string value) {
  for (auto& [k, v] : fragments_) {
    if (k == key) {
      v = std::move(value);
      return;
    }
  }
  fragments_.emplace_back(std::string(key), std::move(value));
}

std::string BatchSignatureBuilder::Finish() && {
  std::sort(fragments_.begin(), fragments_.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string out;
  for (const auto& [k, v] : fragments_) schedkit::StrAppend(&out, k.size(), ":", k, v.size(), ":", v);
  return out;
}

}  // namespace schedkit::framework
