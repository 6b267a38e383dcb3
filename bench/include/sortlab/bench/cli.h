// The command line of sortlab-bench, shared with `sortlab --bench`: the same flags, the same
// table, files and exit codes. `program` names the binary in messages ("sortlab-bench: error:
// ..."); argv must not hold anything but the bench's own flags (the app removes its --bench).
#pragma once

#include <sortlab/bench/options.h>

#include <string>
#include <vector>

namespace sortlab::bench {

int benchMain(int argc, char** argv, const std::string& program);

// The same flags, parsed into Options without running anything (the app's script action
// bench-run). Throws BenchError (exit 2) with the message benchMain would print.
Options parseBenchOptions(const std::vector<std::string>& args);

} // namespace sortlab::bench
