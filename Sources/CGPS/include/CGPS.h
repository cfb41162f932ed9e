// libgps, gpsd's client library, opened when a live GPS fix is first wanted (`shoot`, `serve`)
// rather than at every start: a machine without it still stamps and shoots, without live GPS.
// The table holds each function stampcam calls, typed from libgps's own header.
#ifndef CGPS_H
#define CGPS_H

#include <gps.h>

#define SC_GPS_FUNCTIONS(F) F(gps_open) F(gps_close) F(gps_read) F(gps_stream) F(gps_waiting)

struct sc_gps {
#define SC_GPS_POINTER(name) __typeof__(name) * _Nonnull name;
    SC_GPS_FUNCTIONS(SC_GPS_POINTER)
#undef SC_GPS_POINTER
};

/// libgps's functions, loaded once (later calls return the same table); NULL when libgps cannot
/// be opened or lacks one of them, with dlerror's words in `reason`.
const struct sc_gps * _Nullable sc_gps_load(const char * _Nullable * _Nonnull reason);

#endif
