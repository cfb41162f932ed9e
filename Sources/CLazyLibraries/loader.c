#include "CLazyLibraries.h"
#include "lazy.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void fail(const char *soname, const char *why) {
    // As EX_UNAVAILABLE: the install is broken (the package depends on these), nothing to retry.
    fprintf(stderr, "stampcam: %s is needed for this and cannot be loaded: %s; `stampcam doctor` checks them all\n",
            soname, why ? why : "unknown error");
    exit(69);
}

// With `lock` held: NULL when the library is open, else dlerror's text.
static const char *open_locked(struct sc_lazy_library *library) {
    if (library->handle != NULL) return NULL;
    library->handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
    if (library->handle != NULL) {
        // One missing here is looked up again at its first call, which fails as it always did.
        for (int i = 0; i < library->count; i++) {
            void *function = dlsym(library->handle, library->names[i]);
            if (function != NULL) __atomic_store_n(&library->slots[i], function, __ATOMIC_RELEASE);
        }
        return NULL;
    }
    const char *why = dlerror();
    return why ? why : "unknown error";
}

const char *sc_lazy_try(struct sc_lazy_library *library) {
    static char failure[512];
    pthread_mutex_lock(&lock);
    const char *why = open_locked(library);
    if (why != NULL) snprintf(failure, sizeof failure, "%s: %s", library->soname, why);
    pthread_mutex_unlock(&lock);
    return why == NULL ? NULL : failure;
}

const char *sc_lazy_check(void) {
    const char *failure = sc_lazy_check_drawing();
    if (failure == NULL) failure = sc_lazy_check_web();
    if (failure == NULL) failure = sc_lazy_check_gps();
    if (failure == NULL) failure = sc_lazy_check_xml();
    if (failure == NULL) failure = sc_lazy_check_crypto();
    if (failure == NULL) failure = sc_lazy_check_catalog();
    if (failure == NULL) failure = sc_lazy_check_exif();
    return failure;
}

void *sc_lazy_symbol(struct sc_lazy_library *library, const char *name, void **slot) {
    void *function = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (function != NULL) return function;
    pthread_mutex_lock(&lock);
    const char *why = open_locked(library);
    if (why != NULL) fail(library->soname, why);
    function = dlsym(library->handle, name);
    if (function == NULL) fail(library->soname, dlerror());
    __atomic_store_n(slot, function, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&lock);
    return function;
}
