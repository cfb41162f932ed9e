// Pango with Cairo, and Pango's fontconfig font maps for the private font setup (fonts/fonts.conf).
// One module owns all of Pango's headers: two modules that both included them would each get a
// copy, and which of the two a declaration is found in would depend on the build order.
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <fontconfig/fontconfig.h>
