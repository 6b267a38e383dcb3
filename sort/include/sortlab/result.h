// Errors as values: every fallible call in sort/ returns Result<T>. The library never aborts;
// app/ and bench/ turn an Error into a message and an exit code.
#pragma once

#include <cstdio>
#include <cstdlib>
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
    timeout,          // a fence wait ran past its limit, or such work still runs (Context::submitAndWait)
    device_lost,      // Vulkan reported VK_ERROR_DEVICE_LOST: the context cannot be used again
    vulkan_error,     // any other VkResult
    io_error,
    parse_error,
};

const char* errcName(Errc code);

struct Error {
    Errc code;
    std::string message; // in words a user can act on
};

// Reading a Result: check ok() (or the bool) first. value(), * and -> on a Result that holds an
// error are a bug in the calling program: nothing is thrown; the program stops there (std::abort)
// after printing the error it did not check to stderr. error() on a Result that holds a value
// returns an invalid_argument Error that says so.
template <class T> class [[nodiscard]] Result {
public:
    Result(T value) : v_(std::move(value)) {}
    Result(Error error) : v_(std::move(error)) {}

    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & { return *valuePtr(); }
    const T& value() const& { return *valuePtr(); }
    T&& value() && { return std::move(*valuePtr()); }
    T* operator->() { return valuePtr(); }
    const T* operator->() const { return valuePtr(); }
    T& operator*() & { return *valuePtr(); }
    const T& operator*() const& { return *valuePtr(); }

    const Error& error() const {
        if (const Error* e = std::get_if<1>(&v_)) return *e;
        return noError();
    }

private:
    T* valuePtr() {
        if (T* v = std::get_if<0>(&v_)) return v;
        uncheckedError(*std::get_if<1>(&v_));
    }
    const T* valuePtr() const {
        if (const T* v = std::get_if<0>(&v_)) return v;
        uncheckedError(*std::get_if<1>(&v_));
    }
    [[noreturn]] static void uncheckedError(const Error& e) {
        std::fprintf(stderr, "sortlab: the value of a failed Result was read without checking it (%s): %s\n",
                     errcName(e.code), e.message.c_str());
        std::abort();
    }
    static const Error& noError() {
        static const Error e{Errc::invalid_argument, "error() was called on a Result that holds a value"};
        return e;
    }
    std::variant<T, Error> v_;
};

template <> class [[nodiscard]] Result<void> {
public:
    Result() = default;
    Result(Error error) : error_(std::move(error)), ok_(false) {}
    bool ok() const { return ok_; }
    explicit operator bool() const { return ok_; }
    // On a Result that succeeded: an invalid_argument Error that says so.
    const Error& error() const { return error_; }

private:
    Error error_{Errc::invalid_argument, "error() was called on a Result that succeeded"};
    bool ok_ = true;
};

inline Error makeError(Errc code, std::string message) {
    return Error{code, std::move(message)};
}

} // namespace sortlab

// Propagate an error from an expression returning Result<...>.
#define SORTLAB_TRY(expr)                                                                                              \
    do {                                                                                                               \
        auto sortlab_try_result_ = (expr);                                                                             \
        if (!sortlab_try_result_.ok()) return sortlab_try_result_.error();                                             \
    } while (0)
