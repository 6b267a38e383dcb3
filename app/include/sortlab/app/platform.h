// What differs between the systems the app runs on: where its own files are, where the user's
// settings go, and (Windows) how a GUI program's output reaches the terminal it was started from.
#pragma once

#include <filesystem>
#include <string>

namespace sortlab::app {

// The folder of the running program ("" if the system does not say).
std::filesystem::path executableDir();

// imgui.ini (the window layout and theme). Windows: %APPDATA%\sortlab\imgui.ini, the folder made on
// first use, since the program's own folder (Program Files) is not writable. Elsewhere "imgui.ini",
// in the working directory, as ImGui has it.
std::string settingsFile();

// The fonts shipped beside the program (Windows: <program folder>\fonts, DejaVu from Debian's
// fonts-dejavu-core); "" where the system's fonts are used (Debian: /usr/share/fonts).
std::filesystem::path bundledFontDir();

// Windows: a GUI program (sortlab.exe) has no console of its own, so when started from a terminal
// its --help and errors would go nowhere. Where stdout or stderr has no handle (not
// redirected), this attaches to the parent's console and reopens them there. Elsewhere nothing.
void attachParentConsole();

} // namespace sortlab::app
