// A scratch directory for the perf tests' inputs and fake oracles, removed
// when the test ends.
#ifndef SCHEDKIT_TESTS_PERF_SCRATCH_DIR_H_
#define SCHEDKIT_TESTS_PERF_SCRATCH_DIR_H_

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <catch2/catch.hpp>

namespace schedkit::perf::testing {

struct ScratchDir {
  ScratchDir() {
    char t[] = "/tmp/schedkit-perf-test-XXXXXX";
    REQUIRE(mkdtemp(t) != nullptr);
    path = t;
  }
  ~ScratchDir() { std::filesystem::remove_all(path); }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  // Writes `text` to `name` in the directory; returns its path.
  std::string Write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name) << text;
    return (path / name).string();
  }
  // The same, for a shell script the test runs (a fake schedkit-oracle).
  std::string WriteScript(const std::string& name, const std::string& text) const {
    const std::string file = Write(name, text);
    std::filesystem::permissions(file, std::filesystem::perms::owner_all);
    return file;
  }
  // A fake schedkit-oracle that copies the --cluster and --timeline files it
  // is given into $CAPTURE (as cluster.json and timeline.json) and prints
  // `summary` as its output's summary.
  std::string WriteCapturingOracle(const std::string& summary) const {
    return WriteScript("fake-oracle",
                       "#!/bin/sh\n"
                       "while [ $# -gt 0 ]; do case \"$1\" in\n"
                       "  --cluster) cp \"$2\" \"$CAPTURE/cluster.json\"; shift ;;\n"
                       "  --timeline) cp \"$2\" \"$CAPTURE/timeline.json\"; shift ;;\n"
                       "esac; shift; done\n"
                       "echo '{\"pods\": [], \"summary\": " +
                           summary + "}'\n");
  }

  std::filesystem::path path;
};

}  // namespace schedkit::perf::testing

#endif  // SCHEDKIT_TESTS_PERF_SCRATCH_DIR_H_
