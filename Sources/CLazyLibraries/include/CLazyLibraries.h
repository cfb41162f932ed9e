// Cairo, Pango, fontconfig, libmicrohttpd, libqrencode and libgps are opened when first called,
// not at start (see generate.py). Swift code calls their functions as usual, through the system
// library modules' headers; this target defines those names.
#ifndef CLAZYLIBRARIES_H
#define CLAZYLIBRARIES_H

/// Makes sure the drawing libraries (Cairo, Pango, fontconfig) are mapped, so a later first call
/// does not pay for it: for a thread that has time to spare while another reads a photo.
void sc_lazy_open_drawing(void);

#endif
