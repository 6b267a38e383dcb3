// sortlab-bench: benchmarks and checks the GPU sorts of sortlab against each other and against
// std::sort, and traces their step path. The command line lives in cli.cpp (shared with
// `sortlab --bench`): cases.cpp runs the cases, report.cpp prints the table and writes --json,
// trace.cpp writes --trace, export.cpp writes --export.
#include "cli.h"

int main(int argc, char** argv) {
    return bench::benchMain(argc, argv, "sortlab-bench");
}
