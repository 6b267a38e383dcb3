// sortlab-bench: benchmarks and checks the GPU sorts of sortlab against each other and against
// std::sort, and traces their step path. The command line lives in src/cli.cpp (shared with
// `sortlab --bench`): cases.cpp runs the cases, report.cpp prints the table and writes --json,
// trace.cpp writes --trace, export.cpp writes --export.
#include <sortlab/bench/cli.h>

int main(int argc, char** argv) {
    return sortlab::bench::benchMain(argc, argv, "sortlab-bench");
}
