#include "host.h"

#ifdef _WIN32
#include <windows.h>
#else
#include <dlfcn.h>
#include <unistd.h>
#endif

namespace sortlab::bench::host {

#ifdef _WIN32

namespace {
std::wstring wide(const std::string& utf8) {
    const int n = MultiByteToWideChar(CP_UTF8, 0, utf8.c_str(), -1, nullptr, 0);
    std::wstring w(size_t(n > 0 ? n : 1), L'\0');
    if (n > 0) MultiByteToWideChar(CP_UTF8, 0, utf8.c_str(), -1, w.data(), n);
    w.resize(w.size() - 1);
    return w;
}
std::string utf8(const std::wstring& w) {
    const int n = WideCharToMultiByte(CP_UTF8, 0, w.c_str(), -1, nullptr, 0, nullptr, nullptr);
    std::string s(size_t(n > 0 ? n : 1), '\0');
    if (n > 0) WideCharToMultiByte(CP_UTF8, 0, w.c_str(), -1, s.data(), n, nullptr, nullptr);
    s.resize(s.size() - 1);
    return s;
}
} // namespace

double memoryBytes() {
    MEMORYSTATUSEX st{};
    st.dwLength = sizeof st;
    return GlobalMemoryStatusEx(&st) ? double(st.ullTotalPhys) : 0;
}

std::string executableDir() {
    std::wstring buf(32768, L'\0');
    const DWORD len = GetModuleFileNameW(nullptr, buf.data(), DWORD(buf.size()));
    if (len == 0 || len >= buf.size()) return ".";
    buf.resize(len);
    const size_t slash = buf.find_last_of(L"\\/");
    return slash == std::wstring::npos ? "." : utf8(buf.substr(0, slash));
}

char separator() {
    return '\\';
}

void* openLibrary(const std::string& path, std::string* why) {
    HMODULE h = LoadLibraryExW(wide(path).c_str(), nullptr, LOAD_WITH_ALTERED_SEARCH_PATH);
    if (!h) *why = "LoadLibrary failed, error " + std::to_string(GetLastError());
    return reinterpret_cast<void*>(h);
}

void* symbol(void* library, const char* name) {
    return reinterpret_cast<void*>(GetProcAddress(static_cast<HMODULE>(library), name));
}

#else

double memoryBytes() {
    const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && pageSize > 0 ? double(pages) * double(pageSize) : 0;
}

std::string executableDir() {
    std::string buf(4096, '\0');
    ssize_t len = readlink("/proc/self/exe", buf.data(), buf.size() - 1);
    if (len <= 0) return ".";
    buf.resize(size_t(len));
    size_t slash = buf.rfind('/');
    return slash == std::string::npos ? "." : buf.substr(0, slash);
}

char separator() {
    return '/';
}

void* openLibrary(const std::string& path, std::string* why) {
    // RTLD_LOCAL: the anchor's copy of the CUDA runtime stays its own.
    void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char* e = dlerror();
        *why = e ? e : "dlopen failed";
    }
    return h;
}

void* symbol(void* library, const char* name) {
    return dlsym(library, name);
}

#endif

} // namespace sortlab::bench::host
