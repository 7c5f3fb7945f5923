// Internal: the five characters the API server appends to an object's
// metadata.generateName (its alphabet has no vowels), here from a hash of
// `seed` and `n` rather than at random, so that a simulation repeats. The
// conformance oracle derives the same names (tests/conformance/oracle).
#ifndef SCHEDKIT_LIB_SIM_GENERATE_NAME_H_
#define SCHEDKIT_LIB_SIM_GENERATE_NAME_H_

#include <string>
#include <string_view>

namespace schedkit::sim {

std::string GenerateNameSuffix(std::string_view seed, int n);

}  // namespace schedkit::sim

#endif  // SCHEDKIT_LIB_SIM_GENERATE_NAME_H_
