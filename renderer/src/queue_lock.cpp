#include <sortlab/renderer/queue_lock.h>

#include <volk.h>

#include <mutex>

namespace sortlab::gfx {
namespace {

std::mutex gQueueMutex;
PFN_vkQueueSubmit gSubmit = nullptr;
PFN_vkQueuePresentKHR gPresent = nullptr;
PFN_vkQueueWaitIdle gWaitIdle = nullptr;

VKAPI_ATTR VkResult VKAPI_CALL lockedSubmit(VkQueue q, uint32_t count, const VkSubmitInfo* submits, VkFence fence) {
    std::lock_guard<std::mutex> lock(gQueueMutex);
    return gSubmit(q, count, submits, fence);
}
VKAPI_ATTR VkResult VKAPI_CALL lockedPresent(VkQueue q, const VkPresentInfoKHR* info) {
    std::lock_guard<std::mutex> lock(gQueueMutex);
    return gPresent(q, info);
}
VKAPI_ATTR VkResult VKAPI_CALL lockedWaitIdle(VkQueue q) {
    std::lock_guard<std::mutex> lock(gQueueMutex);
    return gWaitIdle(q);
}

} // namespace

void installQueueLock() {
    if (vkQueueSubmit != lockedSubmit) {
        gSubmit = vkQueueSubmit;
        vkQueueSubmit = lockedSubmit;
    }
    if (vkQueuePresentKHR && vkQueuePresentKHR != lockedPresent) {
        gPresent = vkQueuePresentKHR;
        vkQueuePresentKHR = lockedPresent;
    }
    if (vkQueueWaitIdle != lockedWaitIdle) {
        gWaitIdle = vkQueueWaitIdle;
        vkQueueWaitIdle = lockedWaitIdle;
    }
}

} // namespace sortlab::gfx
