// Event notes as upstream's truncateMessage cuts them (NoteLengthLimit).
#include "scheduler/host_events.h"

#include <catch2/catch.hpp>
#include <string>

namespace schedkit::scheduler {
namespace {

TEST_CASE("TruncateEventNote keeps 1024 bytes, else 1020 and \" ...\"", "[scheduler][events]") {
  std::string buffer;
  const std::string exact(1024, 'a');
  CHECK(TruncateEventNote(exact, buffer) == exact);
  const std::string longer = std::string(1020, 'b') + "cdefg";
  const std::string_view cut = TruncateEventNote(longer, buffer);
  CHECK(cut.size() == 1024);
  CHECK(cut == std::string(1020, 'b') + " ...");
  CHECK(TruncateEventNote("short", buffer) == "short");
}

}  // namespace
}  // namespace schedkit::scheduler
