// sortlab: the desktop app. Opens a GLFW window, creates the Vulkan device (renderer/), hands it
// to the sort library (sortlab::Context::adopt), starts the sort worker, and runs the frame loop.
// With --step/--screenshot/--dump-state/--script it runs those actions and exits.
//
// With --record FILE it records the sort into FILE without a window.
//
// Exit codes: 0 ok; 1 validation messages with --validation; 2 usage error (a malformed file given);
// 3 no display, no Vulkan, no suitable device, or a sort error.
#include <sortlab/app/app.h>
#include <sortlab/app/bench_worker.h>
#include <sortlab/app/options.h>
#include <sortlab/app/platform.h>
#include <sortlab/app/recording.h>
#include <sortlab/app/script.h>
#include <sortlab/app/sort_worker.h>
#include <sortlab/app/view_common.h>

#include <sortlab/renderer/fonts.h>
#include <sortlab/renderer/renderer.h>

#include <sortlab/bench/cli.h>

#include <sortlab/context.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_vulkan.h>
#include <imgui_internal.h> // ImGuiSettingsHandler: the theme in imgui.ini

#include <atomic>
#include <cfloat>
#include <cstring>
#include <ctime>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace {

// Frames still to draw. Input, window changes and the workers' results set it; an idle window
// (nothing playing, no GPU work, no input) draws nothing at all. A few frames per event let ImGui
// settle hover and focus states. main() owns the one instance; GLFW's callbacks reach it through
// the window's user pointer, the workers' wake-ups through their lambdas.
struct Redraw {
    static constexpr int kFramesPerEvent = 4;
    std::atomic<int> frames{kFramesPerEvent};
    void event() { frames = kFramesPerEvent; }
    // One frame (the benchmark's progress): on lavapipe every frame takes CPU from the sort being timed.
    void once() {
        int f = frames.load();
        while (f < 1 && !frames.compare_exchange_weak(f, 1)) {
        }
    }
};

void redrawWindow(GLFWwindow* w) {
    if (auto* redraw = static_cast<Redraw*>(glfwGetWindowUserPointer(w))) redraw->event();
}

// Installed before ImGui's GLFW backend, which calls them from its own callbacks (chaining).
void installRedrawCallbacks(GLFWwindow* w, Redraw& redraw) {
    glfwSetWindowUserPointer(w, &redraw);
    glfwSetCursorPosCallback(w, [](GLFWwindow* w, double, double) { redrawWindow(w); });
    glfwSetMouseButtonCallback(w, [](GLFWwindow* w, int, int, int) { redrawWindow(w); });
    glfwSetScrollCallback(w, [](GLFWwindow* w, double, double) { redrawWindow(w); });
    glfwSetKeyCallback(w, [](GLFWwindow* w, int, int, int, int) { redrawWindow(w); });
    glfwSetCharCallback(w, [](GLFWwindow* w, unsigned int) { redrawWindow(w); });
    glfwSetWindowFocusCallback(w, [](GLFWwindow* w, int) { redrawWindow(w); });
    glfwSetCursorEnterCallback(w, [](GLFWwindow* w, int) { redrawWindow(w); });
    glfwSetWindowRefreshCallback(w, [](GLFWwindow* w) { redrawWindow(w); });
    glfwSetFramebufferSizeCallback(w, [](GLFWwindow* w, int, int) { redrawWindow(w); });
    glfwSetWindowContentScaleCallback(w, [](GLFWwindow* w, float, float) { redrawWindow(w); });
}

double threadCpuMs() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) * 1e-6;
}

int fail(const std::string& msg, int code) {
    std::fprintf(stderr, "sortlab: error: %s\n", msg.c_str());
    return code;
}

// GLFW's description of its last error ("" if none).
std::string glfwErrorText() {
    const char* description = nullptr;
    glfwGetError(&description);
    return description ? description : "";
}

void styleFor(float scale, sortlab::app::Theme theme) {
    sortlab::app::setTheme(theme);
    ImGuiStyle& st = ImGui::GetStyle();
    st.WindowRounding = 4;
    st.FrameRounding = 3;
    st.ScaleAllSizes(scale);
}

// The theme is kept in imgui.ini with the window layout, as
//   [sortlab][settings]
//   theme=light
// read on the first frame (ImGui loads the file then) unless --theme gave one, which wins; written
// whenever ImGui saves the file. --no-ini and scripted runs have no file, so neither happens.
void registerThemeSetting(bool givenOnCommandLine) {
    ImGuiSettingsHandler h;
    h.TypeName = "sortlab";
    h.TypeHash = ImHashStr("sortlab");
    // The one "[sortlab][settings]" entry: any non-null pointer stands for it.
    h.ReadOpenFn = [](ImGuiContext*, ImGuiSettingsHandler* self, const char* name) -> void* {
        return std::strcmp(name, "settings") == 0 ? self : nullptr;
    };
    if (givenOnCommandLine)
        h.ReadLineFn = [](ImGuiContext*, ImGuiSettingsHandler*, void*, const char*) {};
    else
        h.ReadLineFn = [](ImGuiContext*, ImGuiSettingsHandler*, void*, const char* line) {
            char name[16];
            if (std::sscanf(line, "theme=%15s", name) != 1) return;
            if (auto t = sortlab::app::parseTheme(name)) sortlab::app::setTheme(*t);
        };
    h.WriteAllFn = [](ImGuiContext*, ImGuiSettingsHandler* self, ImGuiTextBuffer* out) {
        const std::string name(sortlab::app::themeName(sortlab::app::theme()));
        out->appendf("[%s][settings]\ntheme=%s\n\n", self->TypeName, name.c_str());
    };
    ImGui::GetCurrentContext()->SettingsHandlers.push_back(h);
}

// sortlab --bench [sortlab-bench's flags]: the benchmark without a window (no display needed),
// the same code, output and exit codes as sortlab-bench; --export DIR writes the files. None:
// no --bench.
std::optional<int> headlessBench(int argc, char** argv) {
    for (int i = 1; i < argc; ++i)
        if (std::string(argv[i]) == "--bench") {
            std::vector<char*> rest;
            for (int k = 0; k < argc; ++k)
                if (k != i) rest.push_back(argv[k]);
            rest.push_back(nullptr);
            return sortlab::bench::benchMain(int(rest.size()) - 1, rest.data(), "sortlab");
        }
    return std::nullopt;
}

// Actions other than settings, steps and a lesson make a scripted run: no imgui.ini, no pointer,
// moves shown as they are, and the app exits when they are done. (A lesson alone is taught live.)
bool isScripted(const sortlab::app::Options& opt) {
    for (auto& a : opt.actions)
        if (a.verb != "step" && a.verb != "set" && a.verb != "lesson") return true;
    return false;
}

// GLFW and the window; none (and the exit code in *code) when there is no display or no window.
GLFWwindow* openWindow(const sortlab::app::Options& opt, int* code) {
    if (!glfwInit()) {
        *code = fail("cannot open a window: no display (" + glfwErrorText() +
                         "). Run it on a desktop, or under Xvfb: xvfb-run -a build/bin/sortlab ...",
                     3);
        return nullptr;
    }
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
    GLFWwindow* window = glfwCreateWindow(opt.width, opt.height, "sortlab", nullptr, nullptr);
    if (!window) {
        const std::string why = glfwErrorText();
        glfwTerminate();
        *code = fail("cannot create a window (" + why + ")", 3);
    }
    return window;
}

// ImGui's context, style, theme setting, fonts and backends (the redraw callbacks go first).
sortlab::Result<sortlab::gfx::Fonts> startImGui(GLFWwindow* window, sortlab::gfx::Renderer& r,
                                                const sortlab::app::Options& opt, bool scripted, Redraw& redraw) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    static const std::string iniFile = sortlab::app::settingsFile();
    io.IniFilename = opt.noIni || scripted ? nullptr : iniFile.c_str(); // scripted runs: the same layout every time
    float xs = 1, ys = 1;
    glfwGetWindowContentScale(window, &xs, &ys);
    const float scale = std::max(1.0f, std::max(xs, ys));
    styleFor(scale, opt.theme.value_or(sortlab::app::Theme::dark));
    registerThemeSetting(opt.theme.has_value());
    sortlab::gfx::Fonts fonts = sortlab::gfx::loadFonts(scale, sortlab::app::bundledFontDir());
    installRedrawCallbacks(window, redraw);
    SORTLAB_TRY(r.initImGui());
    return fonts;
}

// What the frame loop works with (runUi owns all of it).
struct Loop {
    GLFWwindow* window;
    sortlab::gfx::Renderer& r;
    sortlab::app::App& app;
    sortlab::app::SortWorker& worker;
    sortlab::app::ScriptRunner* script; // none without actions
    bool scripted;
    Redraw& redraw;
};

// Handles the window's events: polls them while there is something to draw, else sleeps until an
// event (or a worker) asks for a frame. True when a frame is to be drawn now.
bool waitForFrame(Loop& l) {
    const bool active = l.app.ui().playing || l.app.animating() || l.worker.view().busy ||
                        (l.script && !l.script->done()) || ImGui::GetIO().WantTextInput; // the text cursor blinks
    if (active || l.redraw.frames > 0)
        glfwPollEvents();
    else
        glfwWaitEvents(); // idle: sleep until an event (or the worker) asks for a frame
    if (!active && l.redraw.frames <= 0) return false;

    int w = 0, h = 0;
    glfwGetFramebufferSize(l.window, &w, &h);
    if (w == 0 || h == 0) { // minimised: draw nothing until restored
        glfwWaitEventsTimeout(0.25);
        return false;
    }
    // The GPU may still be busy with a long sort step queued before our last frame.
    if (!l.r.frameReady(l.scripted)) {
        glfwWaitEventsTimeout(0.005);
        return false;
    }
    return true;
}

// One frame: the script's next action, the UI built and rendered (a screenshot captured), its CPU
// time recorded. False when the loop is to stop: a failed action, or a render error (*code).
bool drawFrame(Loop& l, int* code) {
    if (l.redraw.frames > 0) --l.redraw.frames;
    std::string capture = l.script ? l.script->beforeFrame() : std::string(); // may write a dump
    if (l.script && l.script->done() && l.script->exitCode() != 0) return false;
    const double t0 = threadCpuMs();
    ImGui_ImplVulkan_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    // Scripted runs: no pointer (the Xvfb pointer would hover a view and show a tooltip).
    // (A script's `mouse X Y` puts it somewhere on purpose: hover tooltips.)
    if (l.scripted)
        ImGui::GetIO().MousePos =
            l.script && l.script->mouse ? ImVec2(l.script->mouse->x, l.script->mouse->y) : ImVec2(-FLT_MAX, -FLT_MAX);
    ImGui::NewFrame();
    l.app.frame();
    ImGui::Render();
    const double tBuilt = threadCpuMs();
    const ImVec4 desktop = sortlab::app::vec4(sortlab::app::palette().desktop); // the theme, behind the panels
    l.r.setClearColour(desktop.x, desktop.y, desktop.z);
    auto ok = l.r.render(ImGui::GetDrawData(), capture);
    const double cpu = threadCpuMs() - t0;
    const double buildCpu = tBuilt - t0;
    if (!ok) {
        *code = fail(ok.error().message, 3);
        return false;
    }
    if (capture.empty())
        l.app.recordFrameCpu(cpu, buildCpu);
    else
        l.app.noteScreenshot(); // the lesson's visibility, as that frame shows it
    if (l.script) {
        l.script->validationMessages = l.r.validationMessageCount();
        l.script->afterFrame(cpu, buildCpu);
    }
    return true;
}

// Frames until the window closes, a scripted run's actions are done, or an error. The exit code.
int frameLoop(Loop& l) {
    int code = 0;
    while (!glfwWindowShouldClose(l.window)) {
        if (l.script && l.script->done() && l.scripted) break;
        if (!waitForFrame(l)) continue;
        if (!drawFrame(l, &code)) break;
    }
    if (l.script && l.script->exitCode() != 0) code = fail(l.script->message(), l.script->exitCode());
    return code;
}

// The workers, the app and the script on the adopted Contexts, and the frame loop; the workers
// stop when it returns (they own the sort jobs).
int runUi(GLFWwindow* window, sortlab::gfx::Renderer& r, sortlab::Context& ctx, sortlab::Context& benchCtx,
          sortlab::gfx::Fonts fonts, sortlab::app::Options& opt, bool scripted, Redraw& redraw) {
    using namespace sortlab;
    app::SortWorker worker(ctx, [&redraw] {
        redraw.event();
        glfwPostEmptyEvent();
    });
    app::BenchWorker benchWorker(benchCtx, [&redraw] {
        redraw.once();
        glfwPostEmptyEvent();
    });
    app::App application(window, worker, benchWorker, benchCtx.info(), fonts, r.deviceName());
    application.setPresentation(opt.presentation);
    if (scripted) application.ui().moveSeconds = 0; // scripts see each step as it is (move-seconds)
    if (opt.check) application.setCheck(true);
    if (opt.recording) { // --open-recording: its run, replayed
        application.addRecording(opt.recording);
        opt.settings = opt.recording->settings;
    }
    application.applySettings(opt.settings);
    application.setLoadedResults(std::move(opt.loaded)); // --load-results (the panel opens)
    std::unique_ptr<app::ScriptRunner> script;
    if (!opt.actions.empty()) {
        script = std::make_unique<app::ScriptRunner>(opt.actions, application, worker, benchWorker);
        script->device = r.deviceName();
    }
    Loop loop{window, r, application, worker, script.get(), scripted, redraw};
    return frameLoop(loop);
}

// The start-up order (renderer, Context::adopt, ImGui, workers) and the shut-down in reverse, in
// the window. The exit code.
int runWindow(GLFWwindow* window, sortlab::app::Options& opt, bool scripted) {
    using namespace sortlab;
    gfx::RendererOptions ro;
    ro.device = opt.device;
    ro.validation = opt.validation;
    ro.vsync = opt.vsync;
    auto renderer = gfx::Renderer::create(window, ro);
    if (!renderer) return fail(renderer.error().message, 3);
    gfx::Renderer& r = *renderer.value();
    const AdoptInfo ai = r.adoptInfo();
    auto ctx = Context::adopt(ai);
    if (!ctx) return fail(ctx.error().message, 3);
    // The benchmark panel's own Context on the same device and queue (each Context has one
    // owning thread; the renderer's queue mutex serialises their submissions with the frames).
    auto benchCtx = Context::adopt(ai);
    if (!benchCtx) return fail(benchCtx.error().message, 3);
    Redraw redraw;
    auto fonts = startImGui(window, r, opt, scripted, redraw);
    if (!fonts) return fail(fonts.error().message, 3);

    int code = runUi(window, r, *ctx.value(), *benchCtx.value(), fonts.value(), opt, scripted, redraw);
    ctx.value().reset();
    benchCtx.value().reset();
    r.shutdownImGui();
    ImGui::DestroyContext();
    glfwSetWindowUserPointer(window, nullptr); // the redraw counter ends here
    if (code == 0 && opt.validation && r.validationMessageCount() > 0) {
        std::fprintf(stderr, "sortlab: %zu validation message(s)\n", r.validationMessageCount());
        code = 1;
    }
    return code;
}

} // namespace

int main(int argc, char** argv) {
    using namespace sortlab;
    app::attachParentConsole();
    if (auto code = headlessBench(argc, argv)) return *code;
    bool exitNow = false;
    auto parsed = app::parseOptions(argc, argv, &exitNow);
    if (!parsed) return fail(parsed.error().message, 2);
    if (exitNow) return 0;
    app::Options opt = std::move(parsed.value());
    if (!opt.record.empty()) return app::recordCommand(opt, "sortlab"); // no window, no GLFW
    const bool scripted = isScripted(opt);

    int code = 0;
    GLFWwindow* window = openWindow(opt, &code);
    if (!window) return code;
    code = runWindow(window, opt, scripted);
    glfwDestroyWindow(window);
    glfwTerminate();
    return code;
}
