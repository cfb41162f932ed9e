#ifndef SC_LAZY_H
#define SC_LAZY_H

// The wrappers are stampcam's own: never exported, so a library opened later still binds to the
// real functions, not to these.
#define SC_LAZY __attribute__((visibility("hidden")))

struct sc_lazy_library {
    const char *soname;
    void *handle;  // guarded by the loader's lock until set
    // The functions stampcam calls in it, and where each one's address goes: all looked up as it
    // is opened, so a first call never waits for the lock while another thread opens a library.
    const char *const *names;
    void **slots;
    int count;
};

/// Opens `library` if it is not open yet; NULL when it is open, else why not ("soname: reason",
/// kept until the next call).
const char *sc_lazy_try(struct sc_lazy_library *library) SC_LAZY;

/// Each group's libraries (drawing.c, web.c, gps.c, …) tried in turn: the first failure, or NULL.
const char *sc_lazy_check_drawing(void) SC_LAZY;
const char *sc_lazy_check_web(void) SC_LAZY;
const char *sc_lazy_check_gps(void) SC_LAZY;
const char *sc_lazy_check_xml(void) SC_LAZY;
const char *sc_lazy_check_crypto(void) SC_LAZY;

/// The function `name` of `library`, opening the library on first use; cached in `*slot`.
void *sc_lazy_symbol(struct sc_lazy_library *library, const char *name, void **slot) SC_LAZY;

#endif
