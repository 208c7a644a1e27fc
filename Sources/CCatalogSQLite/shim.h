#ifndef CCATALOG_SQLITE_SHIM_H
#define CCATALOG_SQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import.
static inline sqlite3_destructor_type ccatalog_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

/// SQLITE_STATIC: SQLite reads the bound bytes where they are, which stay valid until rebound.
static inline sqlite3_destructor_type ccatalog_sqlite_static(void) {
    return SQLITE_STATIC;
}

/// Switches off SQLite's count of the memory it allocates, which no caller reads (it serves
/// `sqlite3_memory_used` and the soft heap limit, neither used here). With it on, every
/// `sqlite3_malloc` and `sqlite3_free` takes a process-wide mutex: 6 % of the writing thread's
/// time in a cold ingest. `sqlite3_config` is variadic, which Swift cannot call, and only works
/// before SQLite is initialized: the first connection calls this, and a process where SQLite was
/// already in use keeps counting (SQLITE_MISUSE, ignored).
static inline int ccatalog_sqlite_stop_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
#endif
