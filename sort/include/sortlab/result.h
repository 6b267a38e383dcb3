// Errors as values: every fallible call in sort/ returns Result<T>. The library never aborts;
// app/ and bench/ turn an Error into a message and an exit code.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace sortlab {

enum class Errc {
    no_vulkan,        // no loader, or vkCreateInstance failed
    no_device,        // no physical device, or none matched the request
    missing_feature,  // the device lacks something a sort needs
    out_of_memory,    // the request does not fit in device or host memory
    too_large,        // n beyond what the library can index or the device can allocate
    invalid_argument, // a caller error: bad enum value, null handle, mismatched sizes
    timeout,          // a fence wait ran past its limit (a hung GPU)
    device_lost,
    vulkan_error,     // any other VkResult
    io_error,
    parse_error,
};

const char* errcName(Errc code);

struct Error {
    Errc code;
    std::string message; // in words a user can act on
};

template <class T>
class [[nodiscard]] Result {
public:
    Result(T value) : v_(std::move(value)) {}
    Result(Error error) : v_(std::move(error)) {}

    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & { return std::get<0>(v_); }
    const T& value() const& { return std::get<0>(v_); }
    T&& value() && { return std::get<0>(std::move(v_)); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }

    const Error& error() const { return std::get<1>(v_); }

private:
    std::variant<T, Error> v_;
};

template <>
class [[nodiscard]] Result<void> {
public:
    Result() = default;
    Result(Error error) : error_(std::move(error)), ok_(false) {}
    bool ok() const { return ok_; }
    explicit operator bool() const { return ok_; }
    const Error& error() const { return error_; }

private:
    Error error_{Errc::vulkan_error, {}};
    bool ok_ = true;
};

inline Error makeError(Errc code, std::string message) { return Error{code, std::move(message)}; }

} // namespace sortlab

// Propagate an error from an expression returning Result<...>.
#define SORTLAB_TRY(expr)                                                                          \
    do {                                                                                           \
        auto sortlab_try_result_ = (expr);                                                         \
        if (!sortlab_try_result_.ok()) return sortlab_try_result_.error();                         \
    } while (0)
