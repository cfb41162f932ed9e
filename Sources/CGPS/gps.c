#include "CGPS.h"

#include <dlfcn.h>
#include <pthread.h>

static struct sc_gps table;
static const struct sc_gps *loaded;
static const char *failure;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    // The SONAME of Debian's libgps28: what the -dev package's libgps.so link points to.
    void *library = dlopen("libgps.so.28", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        failure = dlerror();
        return;
    }
#define SC_GPS_RESOLVE(name) \
    if ((*(void **)&table.name = dlsym(library, #name)) == NULL) { failure = dlerror(); return; }
    SC_GPS_FUNCTIONS(SC_GPS_RESOLVE)
#undef SC_GPS_RESOLVE
    loaded = &table;
}

const struct sc_gps *sc_gps_load(const char **reason) {
    pthread_once(&once, load);
    *reason = failure;
    return loaded;
}
