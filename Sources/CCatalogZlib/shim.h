#ifndef CCATALOG_ZLIB_SHIM_H
#define CCATALOG_ZLIB_SHIM_H
#include <zlib.h>

/// inflateInit2 is a macro in zlib.h; Swift cannot call macros, so wrap it.
static inline int ccatalog_inflate_init_raw(z_stream *stream) {
    return inflateInit2(stream, -MAX_WBITS);
}

/// deflateInit2/inflateInit are macros too: a zlib-wrapped (RFC 1950) stream with a window of
/// 2^windowBits bytes and zlib's memLevel (hash table size).
static inline int ccatalog_deflate_init(z_stream *stream, int level, int windowBits, int memLevel) {
    return deflateInit2(stream, level, Z_DEFLATED, windowBits, memLevel, Z_DEFAULT_STRATEGY);
}

static inline int ccatalog_inflate_init(z_stream *stream) {
    return inflateInit(stream);
}
#endif
