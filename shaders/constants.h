// Constants shared by the host (C++) and the shaders (GLSL): one place, included by both.
// Only #defines of plain integers here, so the file is valid in either language.
#ifndef SORTLAB_SHADER_CONSTANTS_H
#define SORTLAB_SHADER_CONSTANTS_H

// Specialization constant ids.
#define SORTLAB_SPEC_KEY_KIND 0       // 0 unsigned, 1 signed (two's complement), 2 IEEE float
#define SORTLAB_SPEC_DESCENDING 1     // 0 ascending, 1 descending
#define SORTLAB_SPEC_SHARED_ELEMS 2   // elements a workgroup holds in shared memory
#define SORTLAB_SPEC_WORKGROUP_SIZE 3 // local_size_x


// Keys each lane holds in the odd-even tile and window steps (oddeven_warp.comp): a window is
// subgroup size x this many keys. 16 or 32 (the shader unrolls for these two).
#define SORTLAB_ODDEVEN_KEYS_PER_LANE 32

#endif
