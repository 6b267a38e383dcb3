/* The stb functions sortlab calls, compiled where no stb library is installed (Debian's libstb-dev
   has one; Windows builds and vcpkg's header-only stb do not): the headers themselves come from
   the system, nothing of stb is copied here. */
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
#define STB_TRUETYPE_IMPLEMENTATION
#include <stb_truetype.h>
