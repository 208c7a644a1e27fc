#ifndef CCATALOG_ZLIB_SHIM_H
#define CCATALOG_ZLIB_SHIM_H
#include <zlib.h>

/// inflateInit2 is a macro in zlib.h; Swift cannot call macros, so wrap it.
static inline int ccatalog_inflate_init_raw(z_stream *stream) {
    return inflateInit2(stream, -MAX_WBITS);
}
#endif
