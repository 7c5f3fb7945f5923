// The command-line front of schedkit's programs (schedkit-sim,
// schedkit-perf). Their flags are Abseil flags, defined with ABSL_FLAG in the
// program's main file (type, default, help, and the parsing of each value);
// this maps argv onto them with the programs' conventions:
//   --flag value and --flag=value; hyphens in place of the flag name's
//   underscores (--init-pods sets init_pods); bool flags bare (--explain) or
//   with =true/=false; list flags that a repeated use appends to (--cluster
//   a --cluster b); --help (or -h) prints the usage and every flag with its
//   help and default, then exits 0.
// Bad usage exits 2 with one line naming the flag, as the programs' other
// bad input does (absl::ParseCommandLine would exit 1, the programs' code for
// internal errors).
//
//   ABSL_FLAG(std::vector<std::string>, cluster, {}, "files or directories ...");
//   command_line::Program program{"schedkit-sim", kUsage, {&FLAGS_cluster}};
//   std::vector<std::string> rest = command_line::Parse(program, argc, argv);
//
// Call once, from main, before any thread reads a flag.
#ifndef SCHEDKIT_LIB_COMMAND_LINE_COMMAND_LINE_H_
#define SCHEDKIT_LIB_COMMAND_LINE_COMMAND_LINE_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/flags/flag.h"

namespace schedkit::command_line {

struct Program {
  // For messages: "schedkit-sim: ..."; a program built on a main names
  // itself from argv[0] (ProgramName).
  std::string name;
  // The synopsis --help prints above the flags, and bad usage points to.
  std::string usage;
  // List flags that a repeated use appends to, rather than replaces.
  std::vector<absl::Flag<std::vector<std::string>>*> repeatable;
};

// Sets the program's flags from argv[1..]. Returns the arguments that are not
// flags (and everything after a bare "--"), in order.
std::vector<std::string> Parse(const Program& program, int argc, char** argv);

// --output's values, shared by the programs: a table for people, JSON for
// tools.
enum class Output { kTable, kJson };
bool AbslParseFlag(absl::string_view text, Output* out, std::string* error);
std::string AbslUnparseFlag(Output o);

// argv[0]'s base name, or `fallback` when argv has none.
std::string ProgramName(int argc, char** argv, std::string_view fallback);

// Prints "<program>: <message>" on stderr and exits with `code`.
[[noreturn]] void Fail(const Program& program, int code, std::string_view message);

}  // namespace schedkit::command_line

#endif  // SCHEDKIT_LIB_COMMAND_LINE_COMMAND_LINE_H_
