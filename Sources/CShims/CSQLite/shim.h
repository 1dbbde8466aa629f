#ifndef VIEWFINDER_CSQLITE_SHIM_H
#define VIEWFINDER_CSQLITE_SHIM_H
#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast macro Swift cannot import: "copy the bytes before returning".
static inline sqlite3_destructor_type vf_sqlite_transient(void) { return SQLITE_TRANSIENT; }
#endif
