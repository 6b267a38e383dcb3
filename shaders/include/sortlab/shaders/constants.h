// Constants shared by the host (C++) and the shaders (GLSL): one place, included by both.
// Only #defines of plain integers here, so the file is valid in either language.
#ifndef SORTLAB_SHADER_CONSTANTS_H
#define SORTLAB_SHADER_CONSTANTS_H

// Specialization constant ids. The host sets the tuned ones from sortlab/internal/tuning.h.
#define SORTLAB_SPEC_KEY_KIND 0       // 0 unsigned, 1 signed (two's complement), 2 IEEE float
#define SORTLAB_SPEC_DESCENDING 1     // 0 ascending, 1 descending
#define SORTLAB_SPEC_WORKGROUP_SIZE 3 // local_size_x
#define SORTLAB_SPEC_MAX_SUBGROUPS 4  // workgroup size / the subgroup size the pipeline runs with
#define SORTLAB_SPEC_SUBGROUP_SIZE 5  // the subgroup size the pipeline runs with (pinned where it varies)
// onesweep_pass.comp's lookback: reads of a not-ready status before a walk falls back, and the
// predecessor statuses a walk reads at once. Compiled in, not specialization constants, which made
// the 64-bit passes slower (docs/onesweep.md, Tuning constants).
#define SORTLAB_OS_SPIN_LIMIT 64
#define SORTLAB_OS_LOOKBACK_BATCH 4
#define SORTLAB_SPEC_FORCE_FALLBACK 6 // onesweep: 1: every tile counts its immediate predecessor's keys itself
// Keys each invocation holds: oddeven_warp.comp (a window is subgroup size x this: 16 or 32), the
// radix4 count, scatter and result kernels and the onesweep kernels (a tile is workgroup size x this).
#define SORTLAB_SPEC_KEYS_PER_LANE 7
#define SORTLAB_SPEC_PERSISTENT                                                                                        \
    8 // onesweep: > 0: each pass workgroup takes up to this many tiles, loading the next early
#define SORTLAB_SPEC_LOOKBACK_STRIDE 9 // onesweep: > 0: a lookback step after every this many ranking iterations
#define SORTLAB_SPEC_SCAN_PER_LANE                                                                                     \
    10 // radix4_scan.comp: entries each invocation scans serially in a chunk (a multiple of 4)
#define SORTLAB_SPEC_TILE_KEYS                                                                                         \
    14 // radix4, onesweep: keys per tile when fewer than the workgroup's slots (0: all of them)
#define SORTLAB_SPEC_LOG_BASE 15    // onesweep: > 0: the instrumented pass kernel logs its lookback from this word on
#define SORTLAB_SPEC_LOG_TILES 16   // onesweep, with LOG_BASE: tiles of a pass (records per pass)
#define SORTLAB_SPEC_LOG_ORDERED 17 // onesweep, with LOG_BASE: 1: tiles log their ids in id order
#define SORTLAB_SPEC_LOAD_NEXT_EARLY 18   // onesweep: 1: a persistent workgroup loads its next tile before the ranking
#define SORTLAB_SPEC_WHERE_IN_REGISTER 19 // onesweep: 1: the pass kernel keeps which buffer it reads in a register
#define SORTLAB_SPEC_COUNTS_IN_TILE 20 // onesweep: 1: the subgroups' digit counts share the staged tile's shared memory
#define SORTLAB_SPEC_BIT_RANGE 23 // onesweep: 1: a bit range narrower than the key (digits masked); 0: the whole key
// radix4, onesweep: 1: an indirect plan's kernel (Sorter::planIndirect): n and the tile count come
// from the words indirect_count.comp wrote into scratch (SORTLAB_R4_INDIRECT, SORTLAB_OS_INDIRECT),
// not from the push constants; 0: the direct kernels, which never read those words.
#define SORTLAB_SPEC_INDIRECT 31
#define SORTLAB_SPEC_EXCHANGE_ROUNDS                                                                                   \
    22 // onesweep: the staged tile holds 1 / this of a tile: written out in this many rounds
// The lookback log (SortConfig::logLookback): at LOG_BASE the event counter (the events of every
// pass numbered in one sequence), at LOG_BASE + 1 + k the ticket of pass dispatch k (with
// LOG_ORDERED, its tiles log taking their ids in id order), then from LOG_BASE + SORTLAB_OS_LOG_HEAD one record of
// SORTLAB_OS_LOG_RECORD words per (pass p, tile t) at LOG_BASE + HEAD + RECORD * (p * LOG_TILES + t),
// written by the workgroup that took tile t only. Events are numbered from 1 (0: none).
#define SORTLAB_OS_LOG_RECORD (8 + 3 * 256)
#define SORTLAB_OS_LOG_HEAD (8 + SORTLAB_OS_MAX_DISPATCHES)
#define SORTLAB_OS_LOG_TOOK 0      // the event of taking the tile id
#define SORTLAB_OS_LOG_AGGREGATE 1 // the event just before publishing its aggregates (0 for tile 0)
#define SORTLAB_OS_LOG_INCLUSIVE 2 // the event after every inclusive prefix was published (tile 0: before)
#define SORTLAB_OS_LOG_FELL_BACK 3 // 1: the workgroup counted a predecessor's keys itself
#define SORTLAB_OS_LOG_WORKGROUP 4 // the index of the workgroup that took the tile
#define SORTLAB_OS_LOG_IN_ORDER 5  // 1: it logged taking its id in id order (LOG_ORDERED, waited its turn)
// LOG_ORDERED: reads of the ticket before a tile gives up waiting for its turn. Bounded, because a
// spin that never ends is no forward progress, and lavapipe gives an invocation's loops 65535
// iterations in all: a longer wait would cut its lookback short.
#define SORTLAB_OS_LOG_TICKET_SPINS 2048
// Per digit d: the walk at WALK + d (bits 0..15: aggregates it added, bits 16..30: predecessor tiles
// it counted itself by falling back, bit 31: it ended on an inclusive prefix), the not-ready
// statuses it read at NOT_READY + d, and the event just before it published its inclusive prefix
// at PUBLISHED + d (0 for tile 0, whose aggregates are inclusive prefixes).
#define SORTLAB_OS_LOG_WALK 8
#define SORTLAB_OS_LOG_NOT_READY (8 + 256)
#define SORTLAB_OS_LOG_PUBLISHED (8 + 2 * 256)
#define SORTLAB_OS_LOG_WALK_COUNTED_SHIFT 16
#define SORTLAB_OS_LOG_WALK_INCLUSIVE_BIT 31
#define SORTLAB_SPEC_LOADS_IN_FLIGHT 13 // onesweep_histogram.comp: keys each invocation loads before it counts them
#define SORTLAB_SPEC_HIST_COPIES 21     // onesweep_histogram.comp: copies of the counts in shared memory (1 or 2)

// 4-bit LSD radix sort (radix4_*.comp).
// Layout of the radix4 scratch buffer, in 32-bit words. W = workgroups per pass, Wpad = W
// rounded up to a multiple of 4 (rows of the count and offset tables start 16-byte aligned).
#define SORTLAB_R4_WHERE 0     // [p], p = 0..passes: 0 keys in `keys`, 1 in `keysTemp` before pass p
#define SORTLAB_R4_INFO 32     // [4p..4p+3]: pass, bit lo, bit hi, skipped (0/1)
#define SORTLAB_R4_HIST 128    // [16p + d]: global count of digit d in pass p
#define SORTLAB_R4_OFFSETS 384 // [16p + d]: exclusive scan of the histogram of pass p
#define SORTLAB_R4_INDIRECT 96 // indirect plans: the words indirect_count.comp writes (SORTLAB_IND_*)
#define SORTLAB_R4_COUNTS 640  // [d * Wpad + wg]: keys of workgroup wg's tile with digit d
// followed by the workgroup offsets, [COUNTS + 16 * Wpad + d * Wpad + wg]: where the first key
// of digit d of workgroup wg's tile goes.

// OneSweep (onesweep_*.comp): 8-bit digits. See docs/onesweep.md for the layout and the encoding.
// Scratch layout, in 32-bit words; 64-bit entries start at even words.
#define SORTLAB_OS_HIST 0         // u64 [256p + d]: keys with digit d in pass p (p < 8)
#define SORTLAB_OS_OFFSETS 4096   // u64 [256p + d]: exclusive scan of the histogram of pass p
#define SORTLAB_OS_FALLBACKS 8192 // u32 [p]: tiles of pass p that counted a predecessor's keys themselves
#define SORTLAB_OS_UNIFORM 8200   // u32 [p]: tiles of pass p whose keys all had one digit (written straight out)
#define SORTLAB_OS_WHERE 8208     // u32 [p], p = 0..passes: 0 keys in `keys`, 1 in `keysTemp` before pass p (the scan)
#define SORTLAB_OS_INFO 8224      // u32 [4p..4p+3]: pass, bit lo, bit hi, skipped (0/1) (the scan)
#define SORTLAB_OS_INDIRECT 8256  // indirect plans: the words indirect_count.comp writes (SORTLAB_IND_*)
#define SORTLAB_OS_BASE 8448      // u64 [2][256]: where each digit's keys of the next portion start
// u32 [2k + t]: next tile id of pass dispatch k's twin t (t = 1 reads keysTemp; one dispatch per
// pass and portion). The scan sets the counters of a skipped pass to OS_SKIPPED, and where twins
// run (persistent passes), the counter of the twin that reads the wrong buffer to OS_STOPPED.
#define SORTLAB_OS_COUNTER 9472
#define SORTLAB_OS_MAX_DISPATCHES 512
#define SORTLAB_OS_SKIPPED 0x20000000u
#define SORTLAB_OS_STOPPED 0x40000000u
#define SORTLAB_OS_STATUS 10496 // u32 [256t + d]: tile t's status for digit d, in the current portion
// Status word: bit 31 the epoch (it alternates between the pass dispatches that run, set by the
// host: a word of another epoch reads as not ready, so no reset is needed between passes; see
// docs/onesweep.md for skipped passes), bits 29..30 the flag, bits 0..28 the count. Counts stay
// below 2^29 because a pass runs in portions of fewer keys.
#define SORTLAB_OS_NOT_READY 0
#define SORTLAB_OS_AGGREGATE 1 // the tile's own count of the digit
#define SORTLAB_OS_INCLUSIVE 2 // the count of the digit in this tile and every tile before it (in the portion)
#define SORTLAB_OS_COUNT_BITS 29
#define SORTLAB_OS_FLAG_SHIFT 29
#define SORTLAB_OS_EPOCH_SHIFT 31

// The dispatch sizes an indirect OneSweep plan has indirect_count.comp write (SORTLAB_IND_*): the
// pass's tiles (and its dispatch where a tile a workgroup), a persistent pass's dispatch, the
// histogram's and the result's workgroups.
#define SORTLAB_OS_IND_TILES 0
#define SORTLAB_OS_IND_PERSISTENT 1
#define SORTLAB_OS_IND_HISTOGRAM 2
#define SORTLAB_OS_IND_RESULT 3

// Indirect plans (indirect_count.comp): the words it writes from a scratch word W on, after the
// algorithm's init kernel: the key count n = min(count, the plan's maximum) as a u64 at W, the count
// as read at W + 2, and per dispatch size d (up to SORTLAB_IND_MAX_SIZES) at W + 4 + 4d a
// VkDispatchIndirectCommand (x, y, z: the size folded into rows as the host folds the plan's) and the
// size unfolded at W + 4 + 4d + 3.
#define SORTLAB_IND_N 0
#define SORTLAB_IND_COUNT 2
#define SORTLAB_IND_SIZES 4
#define SORTLAB_IND_MAX_SIZES 4
#define SORTLAB_IND_WORDS (SORTLAB_IND_SIZES + 4 * SORTLAB_IND_MAX_SIZES)

// Hybrid sort (hybrid_*.comp): its own scratch region after OneSweep's, in 32-bit words. The bucket
// sort's workgroup w takes the buckets that begin in window w (keys [w S, (w + 1) S), S the plan's
// window) as one region.
// u32 [0]: buckets larger than a workgroup's tile (sorted in global memory).
#define SORTLAB_HY_FLAGS 0
// u64 [2b, 2b + 1], b < 65536: where bucket b (the keys' top 16 order bits) begins and ends.
#define SORTLAB_HY_BOUNDS 16
// u32 [2w, 2w + 1]: the first and last bucket that begin in window w.
#define SORTLAB_HY_WINDOWS (SORTLAB_HY_BOUNDS + 4 * 65536)
#define SORTLAB_HY_NO_BUCKET 0xffffffffu // a window's first bucket when none begins in it
#define SORTLAB_SPEC_HY_WINDOW 24        // hybrid: keys a window holds (S)
#endif
