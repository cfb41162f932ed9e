#include "CLazyLibraries.h"
#include "lazy.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void fail(const char *soname, const char *why) {
    // As EX_UNAVAILABLE: the install is broken (the package depends on these), nothing to retry.
    fprintf(stderr, "stampcam: %s is needed for this and cannot be loaded: %s\n", soname, why ? why : "unknown error");
    exit(69);
}

// With `lock` held.
static void open_locked(struct sc_lazy_library *library) {
    if (library->handle != NULL) return;
    library->handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
    if (library->handle == NULL) fail(library->soname, dlerror());
}

void sc_lazy_open(struct sc_lazy_library *library) {
    pthread_mutex_lock(&lock);
    open_locked(library);
    pthread_mutex_unlock(&lock);
}

void *sc_lazy_symbol(struct sc_lazy_library *library, const char *name, void **slot) {
    void *function = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (function != NULL) return function;
    pthread_mutex_lock(&lock);
    open_locked(library);
    function = dlsym(library->handle, name);
    if (function == NULL) fail(library->soname, dlerror());
    __atomic_store_n(slot, function, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&lock);
    return function;
}
