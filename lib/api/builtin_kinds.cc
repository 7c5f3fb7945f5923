#include "schedkit/api/builtin_kinds.h"

#include "schedkit/api/v1/kinds.h"

namespace schedkit::api {
namespace {

template <typename... Kinds>
KindSet KindSetOf(std::tuple<Kinds...>*) {
  return KindSet{&KindOf<Kinds>()...};
}

}  // namespace

const KindSet& BuiltinKinds() {
  static const KindSet* const kinds = new KindSet(KindSetOf(static_cast<v1::BuiltinKindTypes*>(nullptr)));
  return *kinds;
}

}  // namespace schedkit::api
