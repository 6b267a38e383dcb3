// The library's Context and the renderer share one VkQueue (lavapipe, like many drivers, offers a
// single queue). Vulkan requires vkQueueSubmit/vkQueuePresentKHR/vkQueueWaitIdle on one queue to be
// externally synchronised, and the sort runs on a worker thread while the window renders on the
// main thread. The library calls Vulkan through volk's global function pointers, so the app puts a
// mutex around those three entry points once, after the device is loaded: a submission is locked
// only while it is handed to the driver, never while anyone waits on a fence.
#pragma once

namespace sortlab::gfx {

// Wraps volk's vkQueueSubmit, vkQueuePresentKHR and vkQueueWaitIdle with one process-wide mutex.
// Call after every volkLoadDevice (Context::adopt calls it). Idempotent.
void installQueueLock();

} // namespace sortlab::gfx
