// Uses the installed schedkit package: decode a node and read its quantities.
#include <cstdio>

#include "schedkit/api/decode.h"
#include "schedkit/api/quantity.h"

int main() {
  auto cluster = schedkit::api::Decode(
      R"({"kind":"Node","metadata":{"name":"n1"},"status":{"allocatable":{"cpu":"1500m"}}})");
  if (!cluster.ok() || cluster->objects.nodes_size() != 1) return 1;
  auto cpu = schedkit::api::ParseResourceQuantity(
      "cpu", cluster->objects.nodes(0).status().allocatable().at("cpu"));
  if (!cpu.ok() || *cpu != 1500) return 2;
  std::printf("consumer ok: node n1 has %lld millicores\n", static_cast<long long>(*cpu));
  return 0;
}
