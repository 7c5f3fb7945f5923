// schedkit::StrCat / StrAppend: absl::StrCat that also takes std::string_view.
// Debian's Abseil 20220623 has its own absl::string_view that std::string_view
// does not convert to; these forward with the conversion done once, here.
#ifndef SCHEDKIT_BASE_STR_CAT_H_
#define SCHEDKIT_BASE_STR_CAT_H_

#include <string>
#include <string_view>
#include <type_traits>

#include "absl/strings/str_cat.h"

namespace schedkit {
namespace str_cat_internal {

template <typename T>
decltype(auto) Piece(const T& v) {
  if constexpr (std::is_convertible_v<const T&, std::string_view> &&
                !std::is_convertible_v<const T&, absl::string_view>) {
    const std::string_view s(v);
    return absl::string_view(s.data(), s.size());
  } else {
    return (v);
  }
}

}  // namespace str_cat_internal

template <typename... Args>
std::string StrCat(const Args&... args) {
  return absl::StrCat(str_cat_internal::Piece(args)...);
}

template <typename... Args>
void StrAppend(std::string* out, const Args&... args) {
  absl::StrAppend(out, str_cat_internal::Piece(args)...);
}

}  // namespace schedkit

#endif  // SCHEDKIT_BASE_STR_CAT_H_
