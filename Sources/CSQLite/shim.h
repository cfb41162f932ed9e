// SQLite for the photo catalog (Debian's libsqlite3-dev). Two things Swift cannot reach directly are
// wrapped here: SQLITE_TRANSIENT is a macro casting -1 to a function pointer, and sqlite3_db_config
// is variadic.
#include <sqlite3.h>

/// Binds bytes that SQLite copies at once (the caller's buffer may go away after the call).
static inline int csqlite_bind_text(sqlite3_stmt *statement, int index, const char *text, int length) {
    return sqlite3_bind_text(statement, index, text, length, SQLITE_TRANSIENT);
}

static inline int csqlite_bind_blob(sqlite3_stmt *statement, int index, const void *bytes, int length) {
    return sqlite3_bind_blob(statement, index, bytes, length, SQLITE_TRANSIENT);
}

/// Defensive mode: SQL cannot corrupt the file on purpose (writable_schema, shadow tables).
static inline int csqlite_set_defensive(sqlite3 *database) {
    return sqlite3_db_config(database, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)0);
}
