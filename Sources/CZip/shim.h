// libzip for KMZ archives (Debian's libzip-dev).
#include <zip.h>
