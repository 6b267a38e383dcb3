// The app's UI state and its frame: panels (controls, array, network, radix, explanation,
// check), keyboard shortcuts, presentation mode and help. Everything it draws comes from the
// StepData the sort worker published (GPU buffers read back by SortJob::capture).
#pragma once

#include <sortlab/app/bench_worker.h>
#include <sortlab/app/lesson.h>
#include <sortlab/app/loaded_results.h>
#include <sortlab/app/lookback_replay.h>
#include <sortlab/app/recording.h>
#include <sortlab/app/settings.h>
#include <sortlab/app/sort_worker.h>
#include <sortlab/app/transition.h>

#include <sortlab/renderer/fonts.h>
#include <sortlab/plot/plot.h>

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

struct GLFWwindow;

namespace sortlab::app {

// The benchmark panel's form (one configuration per sweep; `bench-run` in a script may give
// sortlab-bench's lists) and what the panel shows.
struct BenchUi {
    bool open = false;
    std::vector<std::string> algos = {"oddeven", "radix4", "onesweep", "std"}; // --algo names
    KeyType type = KeyType::u32;
    bool keyValue = false;
    Order order = Order::ascending;
    Distribution dist = Distribution::uniform;
    int loExp = 10, hiExp = 18; // sizes 2^loExp .. 2^hiExp
    int reps = 5;
    int warmupMs = 1000;
    bool check = true;
    int seed = 1;
    int bandwidthMode = 0; // 0: the known figure for the device, 1: none, 2: typed in
    float bandwidthGBs = 1000;
    uint64_t breakdownN = 0; // 0: the largest with per-step times
    int yAxis = 0;           // 0 auto (log when the points span more than 30x), 1 linear, 2 log
    std::string exportDir = "sortlab-bench";
    std::string exportMessage; // the last export's files, or why it failed
    bool exportFailed = false;
    std::string loadPath;    // the "Load results" field
    std::string loadMessage; // what the last load added, or why it failed ("FILE: what")
    bool loadFailed = false;
    std::optional<size_t> hoveredRow; // the figure row of the throughput plot's point under the mouse last frame

    bench::Options toOptions() const;
    void fromOptions(const bench::Options& o);
    plot::FigureOptions figureOptions() const;
};

// What the views keep from one frame to the next (ViewContext::views): the array view's zoom,
// the network diagram's scroll, and the memos that spare an idle frame the work of the last one.
struct ViewState {
    // The array view's zoom: the keys [first, first + count) fill the plot (count 0: all of them),
    // for the job of this generation (a new input shows all keys again; script `zoom`).
    struct Zoom {
        uint64_t generation = UINT64_MAX;
        uint64_t first = 0, count = 0;
    } zoom;
    // The array view's memo of a zoomed range too long for bars: its density (density.h, one
    // bucket per pixel column), for this snapshot, range and width.
    struct LocalStrip {
        std::shared_ptr<const Snapshot> snapshot;
        uint64_t first = 0, count = 0;
        uint32_t columns = 0;
        std::shared_ptr<const Density> density;
    } localStrip;
    // The array view's memo of the strips drawn last (two while one fades into the next): each
    // one's rectangles relative to the plot's corner, for this density and plot size, with the
    // colour of their top and bottom edges. An idle frame (the mouse moves, a tooltip shows)
    // redraws them without merging the buckets again.
    struct StripPicture {
        std::shared_ptr<const Density> density;
        uint32_t columns = 0;
        float width = -1, plotH = -1;
        std::vector<ImVec2> corners; // top-left, bottom-right of each rectangle
        std::vector<ImU32> colours;  // top, bottom of each rectangle
        int theme = -1;              // the theme of those colours
        uint64_t used = 0;           // the frame it was drawn last (the older one makes room)
    };
    std::array<StripPicture, 2> stripPictures;
    uint64_t stripFrames = 0;
    // The network diagram: the step it last scrolled to (it scrolls the current step into view
    // once, when the step changes, and leaves the scroll bar to the user after that).
    size_t networkScrolledFor = SIZE_MAX;
    // The radix view's memo of the lookback replay: the records and statistics of this snapshot's
    // log, read once per snapshot (a frame only picks the digit and the event).
    std::shared_ptr<const Snapshot> replayFor;
    std::optional<LookbackReplay> replay;
};

// The UI state that the panels, the views and the scripts share, in one struct: App owns the one
// instance (App::ui()); the views see it through ViewContext (read-only, but for
// ViewContext::views and the probe and the click they report). What only App's own functions read
// (the last viewport, the benchmark figure's cache, the frame times) are App's members.
struct UiState {
    SortSettings settings;
    bool playing = false;
    float speed = 4.0f;     // steps per second while playing
    double lastAdvance = 0; // glfwGetTime() of the last automatic step
    // A step drawn as a move (app/include/sortlab/app/transition.h): how long one takes at the
    // default speed (0: steps jump; the speed control scales it), the move on screen and how far it
    // has got this frame, and a fraction it is held at (headless --transition-at, script move-at).
    float moveSeconds = 0.6f;
    std::optional<Transition> move;
    float moveFraction = 1.0f;
    std::optional<float> frozenMove;
    bool presentation = false; // large fonts, thick lines
    bool help = false;
    bool check = false;
    bool showArray = true, showNetwork = true, showExplain = true, showRadix = true, showCheck = true;
    BenchUi bench;
    int jumpTo = 0;
    std::string status; // one line for the status bar (errors, hints)
    // The Controls panel's own keys: the text being typed, and why the last "use" was refused
    // (file:line:column and what is wrong); the input in use stays until keys that read are used.
    std::array<char, 4096> keysEdit{};
    std::string keysError;
    bool keysUse = false; // a script typed keys into the field: open it and press "Use these keys"
    // The Controls panel's n and seed fields: what is being typed (they follow the settings while
    // no item is active; Enter or leaving the field applies them).
    uint64_t nEdit = 0, seedEdit = 1;
    // The radix view's replay of a OneSweep pass's lookback: the digit and how far it has got (a
    // new step or input shows the whole pass again).
    LookbackReplayChoice replay;
    // The lesson being taught (docs/lessons.md): its stop, and the question's state.
    struct LessonUi {
        std::optional<Lesson> lesson;
        size_t stop = 0;
        bool pending = false;   // the stop's settings are applied; its step comes once the plan is there
        size_t shownStep = 0;   // the step the stop shows
        bool answering = false; // the step after the question is running
        bool answered = false;
        // How the question is being answered: a number typed in, "show me", or (headless runs)
        // with the GPU's answer or a wrong one (the GPU's answer + 1).
        enum class Mode : uint8_t { typed, showMe, right, wrong } mode = Mode::typed;
        std::optional<int64_t> given; // the class's answer (none: "show me"); -1 can be typed
        std::optional<Answer> answer; // the GPU's, with how it got it
        std::string result;           // the feedback in words, or why there is none
        std::array<char, 32> answerEdit{};
        int choice = 0;          // the Lessons menu's built-in lesson
        int scrollFrames = 0;    // frames left in which the views scroll to what the stop points at
        bool stopPinned = false; // the pinned key was pinned by a stop (it ends with that stop), not the teacher
        bool longText = false;   // the explanation's long form (a lesson shows the short one)
        // The stop before this one replayed a recording (where this one runs live, its banner says so).
        bool previousReplayed = false;
        // Whether the stop's highlight, question and feedback were inside the window in every
        // screenshot of the stop (none: the stop has no such thing, or no screenshot yet).
        std::optional<bool> seenHighlight, seenQuestion, seenFeedback, seenSubject, seenNarration;
        // The parts of the views the stop is about now (lessonSubjects): those its @subject names
        // must be drawn; inferred ones must be on screen where a view draws them.
        uint32_t subjects = 0, subjectsNamed = 0;
        // The network layers (0-based) the stop names (lessonLayers), for the network of `layersOfN`
        // keys: each must be on screen, not scrolled away nor under the pinned keys.
        std::vector<uint32_t> layers;
        size_t layersOfStop = SIZE_MAX;
        uint64_t layersOfN = 0;
        // Why the sort did not step on: a question is open (Right, >, Play): answer or "Show me" first.
        std::string hint;
        // The labels the views drew in each screenshot of the stop (App::labelsJson).
        nlohmann::json labelShots = nlohmann::json::array();
    } lesson;
    // What this frame drew of the lesson's highlight, question and feedback, and whether all of it
    // lay inside its panel's visible area and the window (views call noteVisible).
    struct Probe {
        bool highlight = false, highlightVisible = false;
        bool question = false, questionVisible = true;
        bool feedback = false, feedbackVisible = true;
        bool narration = false, narrationVisible = true;
        uint32_t subjectDrawn = 0; // the SubjectKinds a view drew (bit i: kind i)
        bool subjectVisible = true;
        bool layersDrawn = false, layersVisible = true;  // the stop's layers (LessonUi::layers)
        unsigned highlightWindow = 0, subjectWindow = 0; // the ImGui windows that noted them last
        // What the views showed of the state: the step the array view drew (a OneSweep replay
        // before its end shows the pass's input), and the bits of the histogram on show (none: -1).
        int64_t arrayStep = -1;
        int histogramLo = -1, histogramHi = -1;
        // Every number and name the array, network and radix views wrote this frame (drawLabel,
        // noteLabel in view_common.h): its window, text, rectangle, and the part of the window that
        // shows; and the labels a view had no room for. Checked by app_check labels.
        struct Label {
            std::string window, text;
            ImVec2 min, max, clipMin, clipMax;
            bool scrolls = false;  // the window scrolls up and down (a label may be cut at its top or bottom)
            bool scrollsX = false; // the window scrolls sideways (a label may be cut at its left or right)
        };
        std::vector<Label> labels;
        std::vector<std::string> missingLabels;
    };
    mutable Probe probe; // written by the views as they draw
    // A click on a key (the array view): pin the key now at this index, or (none) unpin.
    mutable std::optional<std::optional<uint64_t>> pinClick;
    Probe lastProbe; // the last whole frame's
    // Recordings: a run whose settings give a recording's run is replayed from it unless `live`
    // (the lesson's "Run it live"); why the last one asked for was refused; the menu's dialog.
    bool live = false;
    std::string recordingError;
    std::vector<std::string> recordingNotes; // the lesson's recordings that were not found
    bool recordingDialog = false;
    std::array<char, 1024> recordingPath{};
    Highlight highlight; // what the current stop points at
    ViewState views;     // what the views keep between frames
};

class App {
public:
    App(GLFWwindow* window, SortWorker& worker, BenchWorker& bench, const DeviceInfo& device, gfx::Fonts fonts,
        std::string deviceName);

    // Builds this frame's UI (between ImGui::NewFrame and ImGui::Render).
    void frame();

    UiState& ui() { return ui_; }
    void applySettings(const SortSettings& s); // new input
    // Shows a step; false (and the lesson's hint says why) when a lesson's open question is about it.
    bool goTo(size_t step);
    void stepBy(int delta); // the Right (+1) and Left (-1) arrow keys: step the sort on or back
    void setCheck(bool on);
    void setPresentation(bool on) { ui_.presentation = on; }
    void toggleFullscreen();
    void setWindowSize(int width, int height); // (script `size`)
    // What the window draws beyond the state (--dump-state): "drawn_index", for each key of the
    // state a move starts from (no move: the state shown), the index it is drawn at; "move".
    nlohmann::json viewState() const;
    // The labels the last frame's views drew (UiState::Probe::labels): {"labels": [{"window",
    // "text", "rect": [x0, y0, x1, y1], "shown": the window's visible area, "scrolls"}],
    // "missing": [...]}.
    nlohmann::json labelsJson() const;
    // A move is playing (the window draws every frame until it ends).
    bool animating() const { return ui_.move.has_value() && !ui_.frozenMove; }
    // Frame statistics (CPU time of building + recording a frame on the main thread).
    void recordFrameCpu(double ms, double buildMs);
    double frameCpuMs() const { return frameCpuAvg_; }
    double frameBuildCpuMs() const { return frameBuildAvg_; }
    const std::vector<AlgoStatus>& algorithms() const { return algos_; }
    const std::string& deviceName() const { return deviceName_; }
    // The benchmark panel: a sweep with these options (the panel opens), and an export of the
    // results shown (results.json, results.csv, plot.png, plot.svg in dir): "" or why not.
    void startBench(const bench::Options& options);
    // Lessons: open one (a built-in name or a file; "" or why not), go to a stop, answer its
    // question (none: "show me", the GPU's answer), and whether a stop or an answer is still coming.
    std::string openLesson(const std::string& nameOrFile);
    void goToStop(size_t stop);
    void answerStop(std::optional<int64_t> given, UiState::LessonUi::Mode mode = UiState::LessonUi::Mode::typed);
    // Called after a frame that a screenshot captured: the stop's visibility takes that frame's.
    void noteScreenshot();
    bool lessonBusy() const { return ui_.lesson.lesson && (ui_.lesson.pending || ui_.lesson.answering); }
    // One JSON line about the current stop (its question, the answers, the keys before and after).
    std::string lessonRecord() const;
    std::string exportBench(const std::string& dir);
    // Recordings (recording.h): open a file (the File menu, a script): "" or why not, which the
    // window shows (live state kept); a recording to replay whenever the settings give its run
    // (--open-recording, a lesson's @recording); a live run instead of the replay (or back).
    std::string openRecording(const std::string& path);
    void addRecording(std::shared_ptr<const Recording> r);
    void setLive(bool on);
    std::shared_ptr<const Recording> recordingFor(const SortSettings& s) const;
    // Results measured elsewhere (loaded_results.h), drawn beside the sweep's: loads a file ("" or
    // "FILE: what"; the panel opens and shows either, and a failure keeps what was loaded), takes
    // those loaded at start-up (--load-results), and the lines they draw now (--dump-state).
    std::string loadResults(const std::string& path);
    void setLoadedResults(LoadedResults loaded);
    std::vector<LoadedLine> loadedLines();
    // Where the throughput plot drew the point of this algorithm at this n in the last frame
    // (scripts hover it with `bench-hover ALGO N`).
    std::optional<ImVec2> benchPoint(const std::string& algo, uint64_t n) const;

private:
    void handleKeys(const SortWorker::View& v);
    void updateMove(const SortWorker::View& v); // starts, advances and ends the move between two steps
    std::shared_ptr<const StepData> shown_;     // the state the views drew last
    void advancePlayback(const SortWorker::View& v);
    void drawControls(const SortWorker::View& v); // the Controls panel: its sections below
    void drawSortControls(SortSettings& s, bool& changed);
    void drawInputControls(SortSettings& s, const SortWorker::View& v, bool& changed);
    void drawPlaybackControls(const SortWorker::View& v);
    void drawViewToggles(const SortWorker::View& v);
    void drawPlanSummary(const SortWorker::View& v, const SortSettings& s);
    void drawViewMenu(const SortWorker::View& v);                                   // the Controls panel's menu bar
    void drawKeysField(SortSettings& s, bool& changed);                             // the Controls panel's own keys
    void drawTileChoice(SortSettings& s, const SortWorker::View& v, bool& changed); // radix sorts' tile
    void drawStatusBar(const SortWorker::View& v);
    void drawRecordingDialog();
    void drawLessonRecording(const SortWorker::View& v);
    std::vector<std::shared_ptr<const Recording>> recordings_;
    mutable std::optional<std::pair<SortSettings, std::shared_ptr<const Recording>>> matchMemo_; // recordingFor's
    void drawHelp();
    void updateLesson(const SortWorker::View& v); // the stop's step once its plan is there; answers
    void reachStop(const SortWorker::View& v);
    void drawLessonFooter(const Lesson& lesson, const LessonStop& stop, bool busy);
    void drawLessonTiming(const SortWorker::View& v);
    void drawLessonPanel(const SortWorker::View& v);
    void drawLessonMenu();
    void drawBenchPanel();
    void drawBenchRunControls(const BenchWorker::State& st, float buttonW, bool compact);
    void drawBenchSetup(const BenchWorker::State& st, float leftW);
    void drawBenchExport(const BenchWorker::State& st, float leftW);
    void drawBenchLoad(float leftW);
    void drawBenchResults(const BenchWorker::State& st);
    void drawBenchThroughput(plot::Canvas& canvas, const plot::Figure& f, const plot::Style& style, ImVec2 size);
    const plot::Figure& benchFigure(const BenchWorker::State& st);
    bool radixAvailable(const SortWorker::View& v) const;
    std::optional<SortWorker::View> replayedPassInput(const SortWorker::View& v) const;
    enum class Panel { controls, check, array, main, explain, bench };
    SortWorker::View lessonView_; // the view the last answer was computed from (lessonRecord)
    void place(Panel p, const char* title);
    ImVec2 lastViewport_{0, 0};
    bool viewportResized_ = false;

    GLFWwindow* window_;
    SortWorker& worker_;
    BenchWorker& bench_;
    const DeviceInfo& device_;
    // Results loaded from files, drawn beside the sweep's.
    LoadedResults loaded_;
    // The figure of the results shown (the sweep's rows, then the loaded ones), rebuilt when they
    // or the bandwidth choice change.
    plot::Figure figure_;
    size_t figureLive_ = 0; // figure_.rows[0, figureLive_) are the sweep's
    uint64_t figureGeneration_ = UINT64_MAX, figureLoaded_ = UINT64_MAX;
    std::string figureKey_;
    struct PlotPoint {
        std::string algo;
        uint64_t n = 0;
        ImVec2 at;
    };
    std::vector<PlotPoint> plotPoints_; // the last frame's throughput plot
    gfx::Fonts fonts_;
    std::string deviceName_;
    std::vector<AlgoStatus> algos_;
    UiState ui_;
    double frameCpuAvg_ = 0, frameBuildAvg_ = 0;
    std::array<double, 120> frameCpu_{}, frameBuild_{};
    size_t frameCpuNext_ = 0;
    int windowedPos_[2] = {100, 100}, windowedSize_[2] = {1600, 1000};
};

} // namespace sortlab::app
