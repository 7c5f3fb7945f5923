#include "command_line/command_line.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/flags/commandlineflag.h"
#include "absl/flags/reflection.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"

namespace schedkit::command_line {
namespace {

// How users spell a flag: hyphens for underscores.
std::string Spelling(absl::string_view name) { return absl::StrReplaceAll(name, {{"_", "-"}}); }

[[noreturn]] void PrintHelp(const Program& program) {
  std::string out(program.usage);
  out += "\nflags:\n";
  std::vector<absl::CommandLineFlag*> flags;
  for (const auto& [name, flag] : absl::GetAllFlags()) {
    if (!flag->IsRetired()) flags.push_back(flag);
  }
  std::sort(flags.begin(), flags.end(),
            [](const absl::CommandLineFlag* a, const absl::CommandLineFlag* b) { return a->Name() < b->Name(); });
  for (const absl::CommandLineFlag* flag : flags) {
    absl::StrAppend(&out, "  --", Spelling(flag->Name()), "\n      ", flag->Help());
    const std::string def = flag->DefaultValue();
    if (!def.empty()) absl::StrAppend(&out, " (default: ", def, ")");
    out += "\n";
  }
  std::fputs(out.c_str(), stdout);
  std::exit(0);
}

}  // namespace

bool AbslParseFlag(absl::string_view text, Output* out, std::string* error) {
  if (text == "table" || text == "json") {
    *out = text == "table" ? Output::kTable : Output::kJson;
    return true;
  }
  *error = "must be table or json";
  return false;
}

std::string AbslUnparseFlag(Output o) { return o == Output::kTable ? "table" : "json"; }

std::string ProgramName(int argc, char** argv, std::string_view fallback) {
  if (argc < 1 || argv[0] == nullptr || argv[0][0] == '\0') return std::string(fallback);
  const std::string_view path(argv[0]);
  const size_t slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

void Fail(const Program& program, int code, std::string_view message) {
  const std::string line = std::string(program.name) + ": " + std::string(message) + "\n";
  std::fputs(line.c_str(), stderr);
  std::exit(code);
}

std::vector<std::string> Parse(const Program& program, int argc, char** argv) {
  std::vector<std::string> rest;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--") {
      rest.insert(rest.end(), argv + i + 1, argv + argc);
      break;
    }
    if (arg == "--help" || arg == "-h") PrintHelp(program);
    if (arg.size() < 2 || arg[0] != '-') {
      rest.push_back(arg);
      continue;
    }
    // --name=value, --name value, -name ...: Abseil accepts one dash too.
    const size_t dashes = arg[1] == '-' ? 2 : 1;
    const size_t eq = arg.find('=');
    const std::string spelled = arg.substr(0, eq);
    const std::string name = absl::StrReplaceAll(arg.substr(dashes, eq == std::string::npos ? eq : eq - dashes),
                                                 {{"-", "_"}});
    absl::CommandLineFlag* flag = absl::FindCommandLineFlag(name);
    if (flag == nullptr || flag->IsRetired()) {
      Fail(program, 2, absl::StrCat("unknown flag \"", spelled, "\" (--help lists them)"));
    }
    std::string value;
    if (eq != std::string::npos) {
      value = arg.substr(eq + 1);
    } else if (flag->IsOfType<bool>()) {
      value = "true";
    } else if (i + 1 < argc) {
      value = argv[++i];
    } else {
      Fail(program, 2, absl::StrCat(spelled, " needs a value"));
    }
    const auto repeatable = std::find_if(
        program.repeatable.begin(), program.repeatable.end(),
        [&](absl::Flag<std::vector<std::string>>* f) { return &absl::GetFlagReflectionHandle(*f) == flag; });
    if (repeatable != program.repeatable.end()) {
      std::vector<std::string> values = absl::GetFlag(**repeatable);
      values.push_back(value);
      absl::SetFlag(*repeatable, values);
      continue;
    }
    std::string error;
    if (!flag->ParseFrom(value, &error)) {
      Fail(program, 2, absl::StrCat(spelled, ": ", error));
    }
  }
  return rest;
}

}  // namespace schedkit::command_line
