// Cairo, Pango, fontconfig, libmicrohttpd, libqrencode, libgps, libxml2, libcrypto, SQLite and
// libexif are opened when first called, not at start (see generate.py). Swift code calls their
// functions as usual, through the system library modules' headers; this target defines those names.
#ifndef CLAZYLIBRARIES_H
#define CLAZYLIBRARIES_H

/// Opens every library this target stands in for (for `stampcam doctor`): NULL when all open,
/// else the first that does not and why ("libcairo.so.2: …"; valid until the next call).
const char *sc_lazy_check(void);

/// Opens libsqlite3 now: NULL, or why it cannot be opened. The catalog asks first, so a photo
/// whose catalog cannot be used is still saved (the process is not ended at the first call).
const char *sc_lazy_check_catalog(void);

/// Opens libcrypto now: NULL, or why it cannot be opened. Fingerprints then stay with GLib's
/// SHA-256 instead (the process is not ended at the first call).
const char *sc_lazy_check_crypto(void);

/// Opens libexif now: NULL, or why it cannot be opened (its first call then ends the process).
const char *sc_lazy_check_exif(void);

#endif
