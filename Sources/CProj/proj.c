#include "CProj.h"

#include <dlfcn.h>
#include <pthread.h>

static struct sc_proj table;
static const struct sc_proj *loaded;
static const char *failure;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    // The SONAME of Debian's libproj25: what the -dev package's libproj.so link points to.
    void *library = dlopen("libproj.so.25", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        failure = dlerror();
        return;
    }
#define SC_PROJ_RESOLVE(name) \
    if ((*(void **)&table.name = dlsym(library, #name)) == NULL) { failure = dlerror(); return; }
    SC_PROJ_FUNCTIONS(SC_PROJ_RESOLVE)
#undef SC_PROJ_RESOLVE
    loaded = &table;
}

const struct sc_proj *sc_proj_load(const char **reason) {
    pthread_once(&once, load);
    *reason = failure;
    return loaded;
}
