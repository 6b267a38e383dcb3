#include <sortlab/buffer.h>

#include <cstring>

namespace sortlab {

namespace {
std::string gib(uint64_t bytes) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f GiB", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
    return buf;
}
} // namespace

Result<Buffer> Buffer::create(Context& ctx, uint64_t bytes, MemoryKind kind, const char* what) {
    const DeviceInfo& info = ctx.info();
    uint64_t allocBytes = bytes < 16 ? 16 : (bytes + 15) & ~uint64_t(15);
    if (info.maxBufferSize && allocBytes > info.maxBufferSize)
        return makeError(Errc::too_large, std::string(what) + " needs " + gib(allocBytes) + " in one buffer; " +
                                              info.name + " allows at most " + gib(info.maxBufferSize) +
                                              " per buffer; use a smaller n");
    if (kind == MemoryKind::device && info.deviceLocalBytes && allocBytes > info.deviceLocalBytes)
        return makeError(Errc::out_of_memory, std::string(what) + " needs " + gib(allocBytes) + " but " + info.name +
                                                  " has " + gib(info.deviceLocalBytes) +
                                                  " of device memory; use a smaller n");

    Buffer b;
    b.ctx_ = &ctx;
    b.bytes_ = bytes;
    VkBufferCreateInfo bi{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bi.size = allocBytes;
    bi.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    if (kind == MemoryKind::device)
        bi.usage |= VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
                    VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT; // (an indirect plan's scratch: Sorter::planIndirect)
    bi.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    SORTLAB_VK(vkCreateBuffer(ctx.device(), &bi, nullptr, &b.buffer_), std::string("creating ") + what);

    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(ctx.device(), b.buffer_, &req);
    VkMemoryPropertyFlags required = 0, preferred = 0;
    switch (kind) {
    case MemoryKind::device:
        preferred = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
        break;
    case MemoryKind::upload:
        required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
        preferred = VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
        break;
    case MemoryKind::readback:
        required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
        preferred = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
        break;
    }
    auto type = ctx.memoryType(req.memoryTypeBits, required, preferred);
    if (!type) return type.error();

    VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
    flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.pNext = kind == MemoryKind::device ? &flags : nullptr;
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = type.value();
    // Allocations beyond maxMemoryAllocationSize are not guaranteed, but drivers often grant them
    // (NVIDIA reports 4 GiB and allocates far more): try, and say which limit it was on failure.
    VkResult r = vkAllocateMemory(ctx.device(), &ai, nullptr, &b.memory_);
    if ((r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY) && info.maxMemoryAllocationSize &&
        req.size > info.maxMemoryAllocationSize)
        return makeError(Errc::too_large,
                         std::string(what) + " (" + gib(req.size) + ") is larger than the " +
                             gib(info.maxMemoryAllocationSize) + " that " + info.name +
                             " guarantees for one allocation, and the driver refused it; use a smaller n");
    if (r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY)
        return makeError(Errc::out_of_memory, std::string(what) + " (" + gib(req.size) +
                                                  ") does not fit in the free memory of " + info.name +
                                                  "; use a smaller n");
    SORTLAB_VK(r, std::string("allocating ") + what);
    SORTLAB_VK(vkBindBufferMemory(ctx.device(), b.buffer_, b.memory_, 0), "vkBindBufferMemory");

    if (kind == MemoryKind::device) {
        VkBufferDeviceAddressInfo addr{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
        addr.buffer = b.buffer_;
        b.address_ = vkGetBufferDeviceAddress(ctx.device(), &addr);
    } else {
        SORTLAB_VK(vkMapMemory(ctx.device(), b.memory_, 0, VK_WHOLE_SIZE, 0, &b.mapped_), "vkMapMemory");
        b.coherent_ = (ctx.memoryTypeFlags(type.value()) & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) != 0;
    }
    return b;
}

void Buffer::reset() {
    // (A timed-out submission may still use this buffer: the context then frees it later.)
    if (ctx_ && (buffer_ || memory_))
        ctx_->destroyWhenIdle([buffer = buffer_, memory = memory_](VkDevice d) {
            if (buffer) vkDestroyBuffer(d, buffer, nullptr);
            if (memory) vkFreeMemory(d, memory, nullptr);
        });
    ctx_ = nullptr;
    buffer_ = VK_NULL_HANDLE;
    memory_ = VK_NULL_HANDLE;
    address_ = 0;
    bytes_ = 0;
    mapped_ = nullptr;
}

Buffer::~Buffer() {
    reset();
}
Buffer::Buffer(Buffer&& o) noexcept {
    *this = std::move(o);
}
Buffer& Buffer::operator=(Buffer&& o) noexcept {
    if (this != &o) {
        reset();
        ctx_ = o.ctx_;
        buffer_ = o.buffer_;
        memory_ = o.memory_;
        address_ = o.address_;
        bytes_ = o.bytes_;
        mapped_ = o.mapped_;
        coherent_ = o.coherent_;
        o.ctx_ = nullptr;
        o.buffer_ = VK_NULL_HANDLE;
        o.memory_ = VK_NULL_HANDLE;
        o.mapped_ = nullptr;
    }
    return *this;
}

namespace {
VkMappedMemoryRange wholeRange(VkDeviceMemory memory) {
    VkMappedMemoryRange range{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
    range.memory = memory;
    range.size = VK_WHOLE_SIZE;
    return range;
}
} // namespace

void Buffer::invalidate() const {
    if (coherent_ || !mapped_) return;
    const VkMappedMemoryRange range = wholeRange(memory_);
    vkInvalidateMappedMemoryRanges(ctx_->device(), 1, &range);
}
void Buffer::flush() const {
    if (coherent_ || !mapped_) return;
    const VkMappedMemoryRange range = wholeRange(memory_);
    vkFlushMappedMemoryRanges(ctx_->device(), 1, &range);
}

namespace {
void barrier(VkCommandBuffer cmd, VkPipelineStageFlags src, VkAccessFlags srcAccess, VkPipelineStageFlags dst,
             VkAccessFlags dstAccess) {
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = srcAccess;
    mb.dstAccessMask = dstAccess;
    vkCmdPipelineBarrier(cmd, src, dst, 0, 1, &mb, 0, nullptr, 0, nullptr);
}
} // namespace

void computeToCompute(VkCommandBuffer cmd) {
    barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT,
            VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
}
void transferToCompute(VkCommandBuffer cmd) {
    barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT,
            VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
}
void computeToTransfer(VkCommandBuffer cmd) {
    barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT,
            VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
}
void transferToHost(VkCommandBuffer cmd) {
    barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
            VK_ACCESS_HOST_READ_BIT);
}

Result<void> uploadBytes(Context& ctx, const Buffer& dst, uint64_t dstOffset, std::span<const std::byte> src) {
    if (src.empty()) return {};
    if (dstOffset + src.size() > dst.size())
        return makeError(Errc::invalid_argument, "uploadBytes: data larger than the destination buffer");
    // Stage in chunks so that a large upload does not need a second full-size host allocation.
    const uint64_t chunk = std::min<uint64_t>(src.size(), 256ull << 20);
    auto staging = Buffer::create(ctx, chunk, MemoryKind::upload, "upload staging buffer");
    if (!staging) return staging.error();
    for (uint64_t done = 0; done < src.size(); done += chunk) {
        uint64_t bytes = std::min<uint64_t>(chunk, src.size() - done);
        std::memcpy(staging->mapped(), src.data() + done, bytes);
        staging->flush();
        SORTLAB_TRY(ctx.submitAndWait([&](VkCommandBuffer cmd) {
            VkBufferCopy region{0, dstOffset + done, bytes};
            vkCmdCopyBuffer(cmd, staging->handle(), dst.handle(), 1, &region);
            transferToCompute(cmd);
        }));
    }
    return {};
}

void Readback::add(const Buffer& src, uint64_t offset, uint64_t bytes, void* dst) {
    if (bytes) regions_.push_back({src.handle(), offset, bytes, dst});
}

Result<void> Readback::run() {
    uint64_t total = 0;
    for (auto& r : regions_) total += (r.bytes + 15) & ~uint64_t(15);
    if (total == 0) return {};
    auto host = Buffer::create(ctx_, total, MemoryKind::readback, "readback buffer");
    if (!host) return host.error();
    SORTLAB_TRY(ctx_.submitAndWait([&](VkCommandBuffer cmd) {
        computeToTransfer(cmd);
        uint64_t at = 0;
        for (auto& r : regions_) {
            VkBufferCopy region{r.offset, at, r.bytes};
            vkCmdCopyBuffer(cmd, r.src, host->handle(), 1, &region);
            at += (r.bytes + 15) & ~uint64_t(15);
        }
        transferToHost(cmd);
    }));
    host->invalidate();
    uint64_t at = 0;
    for (auto& r : regions_) {
        std::memcpy(r.dst, static_cast<const char*>(host->mapped()) + at, r.bytes);
        at += (r.bytes + 15) & ~uint64_t(15);
    }
    regions_.clear();
    return {};
}

} // namespace sortlab
