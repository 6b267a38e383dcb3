// Buffers with one owner, and the readback path every snapshot uses.
//
// Storage buffers are reached from shaders by buffer device address (no descriptor sets), so
// a sort's buffers only need VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT plus transfer usage.
#pragma once

#include <sortlab/context.h>

#include <cstddef>
#include <cstdint>
#include <span>

namespace sortlab {

// A region of a buffer that a recorded sort reads and writes (Sorter::record): its device address
// (the VkBuffer's vkGetBufferDeviceAddress plus your offset into it) and the bytes it may use
// from there.
struct BufferRange {
    VkDeviceAddress address = 0;
    uint64_t size = 0;
};

enum class MemoryKind {
    device,   // device-local, for the sort's working buffers
    upload,   // host-visible, written by the CPU, read by the GPU
    readback, // host-visible (cached where possible), written by the GPU, read by the CPU
};

class Buffer {
public:
    Buffer() = default;
    // bytes may be 0: the buffer then holds a 4-byte allocation so that it has an address.
    static Result<Buffer> create(Context& ctx, uint64_t bytes, MemoryKind kind, const char* what);
    ~Buffer();
    Buffer(Buffer&& o) noexcept;
    Buffer& operator=(Buffer&& o) noexcept;
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;

    VkBuffer handle() const { return buffer_; }
    VkDeviceAddress address() const { return address_; }
    // The bytes [offset, offset + bytes) of this buffer as a BufferRange (bytes clamped to the
    // buffer's end; an offset past the end gives an empty range). Device buffers only.
    BufferRange range(uint64_t offset = 0, uint64_t bytes = UINT64_MAX) const {
        if (!address_ || offset > bytes_) return {};
        return {address_ + offset, bytes < bytes_ - offset ? bytes : bytes_ - offset};
    }
    uint64_t size() const { return bytes_; }
    bool valid() const { return buffer_ != VK_NULL_HANDLE; }
    // Host pointer for upload/readback buffers (persistently mapped); nullptr for device buffers.
    void* mapped() const { return mapped_; }
    // Make GPU writes visible to the host (no-op on coherent memory).
    void invalidate() const;
    void flush() const;

private:
    void reset();
    Context* ctx_ = nullptr;
    VkBuffer buffer_ = VK_NULL_HANDLE;
    VkDeviceMemory memory_ = VK_NULL_HANDLE;
    VkDeviceAddress address_ = 0;
    uint64_t bytes_ = 0;
    void* mapped_ = nullptr;
    bool coherent_ = true;
};

// Barrier helpers (global memory barriers: our buffers are reached by address).
void computeToCompute(VkCommandBuffer cmd);
void transferToCompute(VkCommandBuffer cmd);
void computeToTransfer(VkCommandBuffer cmd);
void transferToHost(VkCommandBuffer cmd);

// Copy host bytes into a device buffer through a staging buffer (one submission).
Result<void> uploadBytes(Context& ctx, const Buffer& dst, uint64_t dstOffset, std::span<const std::byte> src);

// Copies regions of device buffers into host memory in one submission:
// compute -> transfer barrier, copy into a host-visible buffer, transfer -> host barrier,
// fence (with timeout), invalidate, memcpy out.
class Readback {
public:
    explicit Readback(Context& ctx) : ctx_(ctx) {}
    // Queue a copy of `bytes` from `src` at `offset` into `dst` (which must stay alive until run()).
    void add(const Buffer& src, uint64_t offset, uint64_t bytes, void* dst);
    Result<void> run();

private:
    struct Region {
        VkBuffer src;
        uint64_t offset, bytes;
        void* dst;
    };
    Context& ctx_;
    std::vector<Region> regions_;
};

} // namespace sortlab
