#include "CHeif.h"

#include <dlfcn.h>
#include <pthread.h>

static struct sc_heif table;
static const struct sc_heif *loaded;
static const char *failure;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    // The SONAME of Debian's libheif1: what the -dev package's libheif.so link points to.
    void *library = dlopen("libheif.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        failure = dlerror();
        return;
    }
#define SC_HEIF_RESOLVE(name) \
    if ((*(void **)&table.name = dlsym(library, #name)) == NULL) { failure = dlerror(); return; }
    SC_HEIF_FUNCTIONS(SC_HEIF_RESOLVE)
#undef SC_HEIF_RESOLVE
    loaded = &table;
}

const struct sc_heif *sc_heif_load(const char **reason) {
    pthread_once(&once, load);
    *reason = failure;
    return loaded;
}
