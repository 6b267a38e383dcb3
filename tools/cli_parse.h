// The command-line parse that sortlab-plot and sortlab-step-latency share (CLI11).
#pragma once

#include <CLI/CLI.hpp>

#include <cstdio>
#include <optional>
#include <string>

namespace sortlab::tools {

// Parses argv into `cli`. Returns the exit code to stop with: 0 after printing --help or --version, or
// fail(2, why) on a usage error; nothing when the program goes on.
template <class Fail> std::optional<int> parseCommandLine(CLI::App& cli, int argc, char** argv, Fail fail) {
    cli.set_version_flag("--version", cli.get_name() + " " SORTLAB_VERSION);
    try {
        cli.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        std::printf("%s", cli.help().c_str());
        return 0;
    } catch (const CLI::CallForVersion& e) {
        std::printf("%s\n", e.what());
        return 0;
    } catch (const CLI::ParseError& e) {
        return fail(2, std::string(e.what()) + " (see --help)");
    }
    return std::nullopt;
}

} // namespace sortlab::tools
