#include <sortlab/app/platform.h>

#include <cstdio>
#include <cstdlib>
#include <system_error>

#ifdef _WIN32
#include <windows.h>
#include <shlobj.h>
#endif

namespace sortlab::app {
namespace fs = std::filesystem;

#ifdef _WIN32

fs::path executableDir() {
    std::wstring buf(32768, L'\0');
    const DWORD len = GetModuleFileNameW(nullptr, buf.data(), DWORD(buf.size()));
    if (len == 0 || len >= buf.size()) return {};
    buf.resize(len);
    return fs::path(buf).parent_path();
}

std::string settingsFile() {
    PWSTR appData = nullptr;
    fs::path dir;
    if (SHGetKnownFolderPath(FOLDERID_RoamingAppData, KF_FLAG_CREATE, nullptr, &appData) == S_OK) dir = appData;
    CoTaskMemFree(appData);
    if (dir.empty()) return "imgui.ini"; // no profile folder: as elsewhere, the working directory
    dir /= "sortlab";
    std::error_code ec;
    fs::create_directories(dir, ec);
    const std::u8string utf8 = (dir / "imgui.ini").u8string(); // ImGui opens its file names as UTF-8
    return std::string(utf8.begin(), utf8.end());
}

fs::path bundledFontDir() {
    const fs::path dir = executableDir();
    return dir.empty() ? fs::path() : dir / "fonts";
}

void attachParentConsole() {
    auto missing = [](DWORD which) {
        const HANDLE h = GetStdHandle(which);
        return h == nullptr || h == INVALID_HANDLE_VALUE;
    };
    const bool out = missing(STD_OUTPUT_HANDLE), err = missing(STD_ERROR_HANDLE);
    if (!out && !err) return;                          // both redirected (a file, a pipe): they work as they are
    if (!AttachConsole(ATTACH_PARENT_PROCESS)) return; // started from Explorer or the Start menu
    if (out && std::freopen("CONOUT$", "w", stdout)) std::setvbuf(stdout, nullptr, _IONBF, 0);
    if (err && std::freopen("CONOUT$", "w", stderr)) std::setvbuf(stderr, nullptr, _IONBF, 0);
}

#else

fs::path executableDir() {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path() : exe.parent_path();
}

std::string settingsFile() {
    return "imgui.ini";
}

fs::path bundledFontDir() {
    return {};
}

void attachParentConsole() {}

#endif

} // namespace sortlab::app
