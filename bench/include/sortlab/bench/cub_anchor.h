/* The CUB anchor's plain C interface: sortlab-bench --anchor cub dlopen()s a shared library that
 * exports these three functions (libsortlab_cub_anchor.so, built from anchor.cu by nvcc where a
 * CUDA toolkit exists; tests/cli/fake_cub_anchor.cpp is a host-only stand-in for the tests).
 *
 * The bench is built without CUDA and the anchor without sortlab, so this header is the whole
 * contract between them: C types only, no exceptions across it, every error returned as a code
 * and a message. Bump SORTLAB_CUB_ABI when a struct or a meaning changes.
 *
 *   int sortlab_cub_abi(void);                       SORTLAB_CUB_ABI of the library
 *   int sortlab_cub_probe(sortlab_cub_info* info);   the CUDA device it will use, or why none
 *   int sortlab_cub_sort(sortlab_cub_request* req);  uploads once, warms up, times reps, reads back
 */
#ifndef SORTLAB_BENCH_CUB_ANCHOR_H
#define SORTLAB_BENCH_CUB_ANCHOR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SORTLAB_CUB_ABI 1

/* Return codes of sortlab_cub_probe and sortlab_cub_sort. */
enum {
    SORTLAB_CUB_OK = 0,
    SORTLAB_CUB_NO_DEVICE = 1,     /* no CUDA driver or no CUDA device */
    SORTLAB_CUB_OUT_OF_MEMORY = 2, /* the device (or host) cannot hold the buffers */
    SORTLAB_CUB_CUDA_ERROR = 3,    /* any other CUDA error */
    SORTLAB_CUB_BAD_REQUEST = 4,   /* a request the library does not understand */
};

/* Key types, numbered as sortlab::KeyType: the raw bits of each key, 4 or 8 bytes. Signed and
 * float keys go to CUB as int32_t/float/... so that CUB applies its own order transform. */
enum {
    SORTLAB_CUB_U32 = 0,
    SORTLAB_CUB_I32 = 1,
    SORTLAB_CUB_F32 = 2,
    SORTLAB_CUB_U64 = 3,
    SORTLAB_CUB_I64 = 4,
    SORTLAB_CUB_F64 = 5,
};

typedef struct sortlab_cub_info {
    char device[256];   /* out: "NVIDIA H200" */
    char versions[256]; /* out: "sm_90, CUDA driver 13.0, runtime 13.0, CUB 3.0.1" */
    char error[512];    /* out: why not, when the return code is not SORTLAB_CUB_OK */
} sortlab_cub_info;

typedef struct sortlab_cub_request {
    /* in */
    uint32_t key_type;      /* SORTLAB_CUB_U32 ... SORTLAB_CUB_F64 */
    uint32_t descending;    /* 0: SortKeys / SortPairs; 1: SortKeysDescending / SortPairsDescending */
    uint64_t n;             /* number of keys (0 is allowed: nothing is timed, reps of 0 ms) */
    const void* keys;       /* host: n keys, 4 or 8 bytes each */
    const uint32_t* values; /* host: n values, or NULL for a keys-only sort (SortPairs when given) */
    uint32_t reps;          /* timed repetitions, at least 1 */
    uint32_t warmup_ms;     /* untimed runs until this much time has passed (at least 1, at most 1000 runs) */
    /* out */
    double* rep_ms;          /* reps entries: each rep's time between two CUDA events around the sort call */
    void* sorted_keys;       /* optional (NULL: not read back): n keys */
    uint32_t* sorted_values; /* optional, with values: n values */
    char error[512];         /* why it failed, when the return code is not SORTLAB_CUB_OK */
} sortlab_cub_request;

typedef int (*sortlab_cub_abi_fn)(void);
typedef int (*sortlab_cub_probe_fn)(sortlab_cub_info*);
typedef int (*sortlab_cub_sort_fn)(sortlab_cub_request*);

#if defined(_WIN32)
#define SORTLAB_CUB_EXPORT __declspec(dllexport) /* a DLL exports only what it names */
#elif defined(__GNUC__)
#define SORTLAB_CUB_EXPORT __attribute__((visibility("default")))
#else
#define SORTLAB_CUB_EXPORT
#endif

SORTLAB_CUB_EXPORT int sortlab_cub_abi(void);
SORTLAB_CUB_EXPORT int sortlab_cub_probe(sortlab_cub_info* info);
SORTLAB_CUB_EXPORT int sortlab_cub_sort(sortlab_cub_request* request);

#ifdef __cplusplus
}
#endif

#endif
