// PROJ's C API (Debian's libproj-dev) for UTM grid references.
#include <proj.h>
