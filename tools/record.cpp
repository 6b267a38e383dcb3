// sortlab-record: `sortlab --record FILE` without the window's libraries. It takes sortlab's command
// line (the settings, --device, --validation; --record FILE is needed), runs the sort step by step
// on the device, reads every step back and writes the recording (docs/app.md, "Recordings"). It
// links sortlab_app_core (no GLFW, ImGui or X11), libstdc++ and libgcc statically, and opens
// libvulkan.so.1 at run time, so it runs on the GPU machines, which have no display libraries.
#include <sortlab/app/options.h>
#include <sortlab/app/recording.h>

#include <cstdio>

int main(int argc, char** argv) {
    using namespace sortlab;
    bool exitNow = false;
    auto opt = app::parseOptions(argc, argv, &exitNow);
    if (!opt) {
        std::fprintf(stderr, "sortlab-record: error: %s\n", opt.error().message.c_str());
        return 2;
    }
    if (exitNow) return 0;
    if (opt->record.empty()) {
        std::fprintf(stderr, "sortlab-record: error: --record FILE is needed (and the settings: --algo, --n, ...)\n");
        return 2;
    }
    return app::recordCommand(*opt, "sortlab-record");
}
