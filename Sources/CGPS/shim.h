// libgps, gpsd's client library (Debian libgps-dev). Only Sources/Location/Internals imports it.
#include <gps.h>
