// The kinds schedkit models: what its decoder reads from files and dumps, and
// what its scheduler holds, lists and watches (those whose traits do not say
// otherwise). Each kind's header (schedkit/api/v1/<kind>.h) declares it;
// schedkit/api/v1/kinds.h lists them. This header names none, so that code
// that takes any kind compiles no kind's generated code.
//
//   KindSet kinds = BuiltinKinds();
//   kinds.Add<MyCrd>();   // or Registry::AddKind for a plugin's kind
//
// Thread-safe.
#ifndef SCHEDKIT_API_BUILTIN_KINDS_H_
#define SCHEDKIT_API_BUILTIN_KINDS_H_

#include "schedkit/api/kind.h"

namespace schedkit::api {

// In v1::BuiltinKindTypes' order.
const KindSet& BuiltinKinds();

}  // namespace schedkit::api

#endif  // SCHEDKIT_API_BUILTIN_KINDS_H_
