// fontconfig and Pango's fontconfig font maps: the private font setup (fonts/fonts.conf).
#include <pango/pangofc-fontmap.h>
#include <fontconfig/fontconfig.h>
