#ifndef SC_LAZY_H
#define SC_LAZY_H

// The wrappers are stampcam's own: never exported, so a library opened later still binds to the
// real functions, not to these.
#define SC_LAZY __attribute__((visibility("hidden")))

struct sc_lazy_library {
    const char *soname;
    void *handle;  // guarded by the loader's lock until set
};

/// Opens `library` if it is not open yet. A library that cannot be opened is one line on standard
/// error and exit status 69.
void sc_lazy_open(struct sc_lazy_library *library) SC_LAZY;

/// The function `name` of `library`, opening the library on first use; cached in `*slot`.
void *sc_lazy_symbol(struct sc_lazy_library *library, const char *name, void **slot) SC_LAZY;

#endif
