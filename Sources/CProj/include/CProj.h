// PROJ (Debian's libproj25), opened when a grid reference is first wanted ({utm}, {mgrs}) rather
// than at every start: it brings libcurl, GnuTLS and libtiff with it, which a run that shows no grid
// reference should not load, and a machine without it still stamps. The table holds each function
// stampcam calls, typed from PROJ's own header.
#ifndef CPROJ_H
#define CPROJ_H

#include <proj.h>

#define SC_PROJ_FUNCTIONS(F) F(proj_context_create) F(proj_context_destroy) F(proj_context_errno) \
    F(proj_context_errno_string) F(proj_create_crs_to_crs) F(proj_destroy) F(proj_trans) F(proj_errno) F(proj_coord)

struct sc_proj {
#define SC_PROJ_POINTER(name) __typeof__(name) * _Nonnull name;
    SC_PROJ_FUNCTIONS(SC_PROJ_POINTER)
#undef SC_PROJ_POINTER
};

/// PROJ's functions, loaded once (later calls return the same table); NULL when libproj cannot be
/// opened or lacks one of them, with dlerror's words in `reason`.
const struct sc_proj * _Nullable sc_proj_load(const char * _Nullable * _Nonnull reason);

#endif
