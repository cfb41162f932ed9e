#define _GNU_SOURCE
#include "CPlatform.h"

#include <errno.h>
#include <fcntl.h>
#include <libintl.h>
#include <locale.h>
#include <malloc.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int sc_affinity_cpu_count(void) {
    // The kernel refuses a mask smaller than its own (EINVAL): a machine with more possible CPUs
    // than cpu_set_t holds needs a larger one.
    for (int cpus = CPU_SETSIZE; cpus <= (1 << 22); cpus *= 2) {
        cpu_set_t *mask = CPU_ALLOC(cpus);
        if (mask == NULL) return -1;
        size_t size = CPU_ALLOC_SIZE(cpus);
        CPU_ZERO_S(size, mask);
        int status = sched_getaffinity(0, size, mask);
        int count = status == 0 ? CPU_COUNT_S(size, mask) : -1;
        int error = errno;
        CPU_FREE(mask);
        if (status == 0) return count;
        errno = error;
        if (error != EINVAL) return -1;
    }
    return -1;
}

void sc_malloc_trim(void) {
    malloc_trim(0);
}

int sc_pipe_cloexec(int ends[2]) {
    return pipe2(ends, O_CLOEXEC);
}

int sc_gettext_bind(const char *domain, const char *folder) {
    if (bindtextdomain(domain, folder) == NULL) return -1;
    return bind_textdomain_codeset(domain, "UTF-8") == NULL ? -1 : 0;
}

void sc_gettext_use(const char *languages) {
    // In the C locale gettext translates nothing, whatever LANGUAGE says.
    if (languages == NULL) {
        setlocale(LC_MESSAGES, "C");
    } else {
        setlocale(LC_MESSAGES, "C.UTF-8");
        const char *current = getenv("LANGUAGE");
        if (current == NULL || strcmp(current, languages) != 0) setenv("LANGUAGE", languages, 1);
    }
    // gettext keeps the translations it found; setting the domain again tells it LANGUAGE changed.
    textdomain(textdomain(NULL));
}

const char *sc_gettext(const char *domain, const char *text) {
    return dgettext(domain, text);
}

const char *sc_ngettext(const char *domain, const char *singular, const char *plural, unsigned long count) {
    return dngettext(domain, singular, plural, count);
}
