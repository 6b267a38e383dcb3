// What sortlab-bench asks of the operating system, on Linux and on Windows: the host's memory, the
// program's folder, and a shared library opened at run time (the CUB anchor).
#pragma once

#include <string>

namespace sortlab::bench::host {

double memoryBytes();        // physical memory; 0 if unknown
std::string executableDir(); // "." if unknown
char separator();            // between folders in a path: '/' or '\\'

// A shared library (dlopen / LoadLibrary); nullptr with *why set when it cannot be opened.
void* openLibrary(const std::string& path, std::string* why);
void* symbol(void* library, const char* name);

} // namespace sortlab::bench::host
