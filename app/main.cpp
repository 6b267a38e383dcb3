// sortlab: the desktop app. Opens a GLFW window, creates the Vulkan device (renderer/), hands it
// to the sort library (sortlab::Context::adopt), starts the sort worker, and runs the frame loop.
// With --step/--screenshot/--dump-state/--script it runs those actions and exits.
//
// Exit codes: 0 ok; 1 validation messages with --validation; 2 usage error; 3 no display, no
// Vulkan, no suitable device, or a sort error.
#include <sortlab/app/app.h>
#include <sortlab/app/bench_worker.h>
#include <sortlab/app/options.h>
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

namespace sortlab::app {
GLFWwindow* gMainWindow = nullptr;
}

namespace {

std::string gGlfwError;

// Frames still to draw. Input, window changes and the worker's results set it; an idle window
// (nothing playing, no GPU work, no input) draws nothing at all. A few frames per event let ImGui
// settle hover and focus states.
std::atomic<int> gRedraw{4};
constexpr int kFramesPerEvent = 4;
void redraw() {
    gRedraw = kFramesPerEvent;
}
// One frame (the benchmark's progress): on lavapipe every frame takes CPU from the sort being timed.
void redrawOnce() {
    int frames = gRedraw.load();
    while (frames < 1 && !gRedraw.compare_exchange_weak(frames, 1)) {
    }
}

// Installed before ImGui's GLFW backend, which calls them from its own callbacks (chaining).
void installRedrawCallbacks(GLFWwindow* w) {
    glfwSetCursorPosCallback(w, [](GLFWwindow*, double, double) { redraw(); });
    glfwSetMouseButtonCallback(w, [](GLFWwindow*, int, int, int) { redraw(); });
    glfwSetScrollCallback(w, [](GLFWwindow*, double, double) { redraw(); });
    glfwSetKeyCallback(w, [](GLFWwindow*, int, int, int, int) { redraw(); });
    glfwSetCharCallback(w, [](GLFWwindow*, unsigned int) { redraw(); });
    glfwSetWindowFocusCallback(w, [](GLFWwindow*, int) { redraw(); });
    glfwSetCursorEnterCallback(w, [](GLFWwindow*, int) { redraw(); });
    glfwSetWindowRefreshCallback(w, [](GLFWwindow*) { redraw(); });
    glfwSetFramebufferSizeCallback(w, [](GLFWwindow*, int, int) { redraw(); });
    glfwSetWindowContentScaleCallback(w, [](GLFWwindow*, float, float) { redraw(); });
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
bool gThemeGiven = false;
void registerThemeSetting(bool givenOnCommandLine) {
    gThemeGiven = givenOnCommandLine;
    static int entry; // the one "[sortlab][settings]" entry
    ImGuiSettingsHandler h;
    h.TypeName = "sortlab";
    h.TypeHash = ImHashStr("sortlab");
    h.ReadOpenFn = [](ImGuiContext*, ImGuiSettingsHandler*, const char* name) -> void* {
        return std::strcmp(name, "settings") == 0 ? &entry : nullptr;
    };
    h.ReadLineFn = [](ImGuiContext*, ImGuiSettingsHandler*, void*, const char* line) {
        char name[16];
        if (gThemeGiven || std::sscanf(line, "theme=%15s", name) != 1) return;
        if (auto t = sortlab::app::parseTheme(name)) sortlab::app::setTheme(*t);
    };
    h.WriteAllFn = [](ImGuiContext*, ImGuiSettingsHandler* self, ImGuiTextBuffer* out) {
        const std::string name(sortlab::app::themeName(sortlab::app::theme()));
        out->appendf("[%s][settings]\ntheme=%s\n\n", self->TypeName, name.c_str());
    };
    ImGui::GetCurrentContext()->SettingsHandlers.push_back(h);
}

} // namespace

int main(int argc, char** argv) {
    using namespace sortlab;
    // sortlab --bench [sortlab-bench's flags]: the benchmark without a window (no display needed),
    // the same code, output and exit codes as sortlab-bench; --export DIR writes the files.
    for (int i = 1; i < argc; ++i)
        if (std::string(argv[i]) == "--bench") {
            std::vector<char*> rest;
            for (int k = 0; k < argc; ++k)
                if (k != i) rest.push_back(argv[k]);
            rest.push_back(nullptr);
            return bench::benchMain(int(rest.size()) - 1, rest.data(), "sortlab");
        }
    bool exitNow = false;
    auto parsed = app::parseOptions(argc, argv, &exitNow);
    if (!parsed) return fail(parsed.error().message, 2);
    if (exitNow) return 0;
    app::Options opt = std::move(parsed.value());
    bool scripted = false;
    for (auto& a : opt.actions)
        if (a.verb != "step" && a.verb != "set" && a.verb != "lesson") scripted = true; // (a lesson alone: taught live)

    glfwSetErrorCallback([](int, const char* d) { gGlfwError = d ? d : ""; });
    if (!glfwInit())
        return fail("cannot open a window: no display (" + gGlfwError +
                        "). Run it on a desktop, or under Xvfb: xvfb-run -a build/bin/sortlab ...",
                    3);
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
    GLFWwindow* window = glfwCreateWindow(opt.width, opt.height, "sortlab", nullptr, nullptr);
    if (!window) {
        glfwTerminate();
        return fail("cannot create a window (" + gGlfwError + ")", 3);
    }
    app::gMainWindow = window;

    int code = 0;
    {
        gfx::RendererOptions ro;
        ro.device = opt.device;
        ro.validation = opt.validation;
        ro.vsync = opt.vsync;
        auto renderer = gfx::Renderer::create(window, ro);
        if (!renderer) {
            glfwDestroyWindow(window);
            glfwTerminate();
            return fail(renderer.error().message, 3);
        }
        gfx::Renderer& r = *renderer.value();

        AdoptInfo ai;
        ai.instance = r.instance();
        ai.physicalDevice = r.physicalDevice();
        ai.device = r.device();
        ai.queue = r.queue();
        ai.queueFamily = r.queueFamily();
        ai.queueMutex = &r.queueMutex();
        auto ctx = Context::adopt(ai);
        if (!ctx) return fail(ctx.error().message, 3);
        // The benchmark panel's own Context on the same device and queue (each Context has one
        // owning thread; the renderer's queue mutex serialises their submissions with the frames).
        auto benchCtx = Context::adopt(ai);
        if (!benchCtx) return fail(benchCtx.error().message, 3);

        IMGUI_CHECKVERSION();
        ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        if (opt.noIni || scripted) io.IniFilename = nullptr; // scripted runs: the same layout every time
        float xs = 1, ys = 1;
        glfwGetWindowContentScale(window, &xs, &ys);
        const float scale = std::max(1.0f, std::max(xs, ys));
        styleFor(scale, opt.theme.value_or(app::Theme::dark));
        registerThemeSetting(opt.theme.has_value());
        gfx::Fonts fonts = gfx::loadFonts(scale);
        installRedrawCallbacks(window);
        if (auto ok = r.initImGui(); !ok) return fail(ok.error().message, 3);

        {
            app::SortWorker worker(*ctx.value(), [] {
                redraw();
                glfwPostEmptyEvent();
            });
            app::BenchWorker benchWorker(*benchCtx.value(), [] {
                redrawOnce();
                glfwPostEmptyEvent();
            });
            app::App application(window, worker, benchWorker, benchCtx.value()->info(), fonts, r.deviceName());
            application.setPresentation(opt.presentation);
            if (scripted) application.ui().moveSeconds = 0; // scripts see each step as it is (move-seconds)
            if (opt.check) application.setCheck(true);
            application.applySettings(opt.settings);
            application.setLoadedResults(std::move(opt.loaded)); // --load-results (the panel opens)
            std::unique_ptr<app::ScriptRunner> script;
            if (!opt.actions.empty()) {
                script = std::make_unique<app::ScriptRunner>(opt.actions, application, worker, benchWorker);
                script->device = r.deviceName();
            }

            while (!glfwWindowShouldClose(window)) {
                const bool active = application.ui().playing || application.animating() || worker.view().busy ||
                                    (script && !script->done()) ||
                                    ImGui::GetIO().WantTextInput; // the text cursor blinks
                if (script && script->done() && scripted) break;
                if (active || gRedraw > 0)
                    glfwPollEvents();
                else
                    glfwWaitEvents(); // idle: sleep until an event (or the worker) asks for a frame
                if (!active && gRedraw <= 0) continue;

                int w = 0, h = 0;
                glfwGetFramebufferSize(window, &w, &h);
                if (w == 0 || h == 0) { // minimised: draw nothing until restored
                    glfwWaitEventsTimeout(0.25);
                    continue;
                }
                // The GPU may still be busy with a long sort step queued before our last frame.
                if (!r.frameReady(scripted)) {
                    glfwWaitEventsTimeout(0.005);
                    continue;
                }

                if (gRedraw > 0) --gRedraw;
                std::string capture = script ? script->beforeFrame() : std::string(); // may write a dump
                if (script && script->done() && script->exitCode() != 0) break;
                const double t0 = threadCpuMs();
                ImGui_ImplVulkan_NewFrame();
                ImGui_ImplGlfw_NewFrame();
                // Scripted runs: no pointer (the Xvfb pointer would hover a view and show a tooltip).
                // (A script's `mouse X Y` puts it somewhere on purpose: hover tooltips.)
                if (scripted)
                    ImGui::GetIO().MousePos = script && script->mouse ? ImVec2(script->mouse->x, script->mouse->y)
                                                                      : ImVec2(-FLT_MAX, -FLT_MAX);
                ImGui::NewFrame();
                application.frame();
                ImGui::Render();
                const double tBuilt = threadCpuMs();
                const ImVec4 desktop = app::vec4(app::palette().desktop); // the theme, behind the panels
                r.setClearColour(desktop.x, desktop.y, desktop.z);
                auto ok = r.render(ImGui::GetDrawData(), capture);
                const double cpu = threadCpuMs() - t0;
                const double buildCpu = tBuilt - t0;
                if (!ok) {
                    code = fail(ok.error().message, 3);
                    break;
                }
                if (capture.empty())
                    application.recordFrameCpu(cpu, buildCpu);
                else
                    application.noteScreenshot(); // the lesson's visibility, as that frame shows it
                if (script) {
                    script->validationMessages = r.validationMessageCount();
                    script->afterFrame(cpu, buildCpu);
                }
            }
            if (script && script->exitCode() != 0) code = fail(script->message(), script->exitCode());
        } // the workers stop: they own the sort jobs
        ctx.value().reset();
        benchCtx.value().reset();
        r.shutdownImGui();
        ImGui::DestroyContext();
        if (code == 0 && opt.validation && r.validationMessageCount() > 0) {
            std::fprintf(stderr, "sortlab: %zu validation message(s)\n", r.validationMessageCount());
            code = 1;
        }
    }
    glfwDestroyWindow(window);
    glfwTerminate();
    return code;
}
