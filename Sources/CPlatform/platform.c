#define _GNU_SOURCE
#include "CPlatform.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <sched.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/vfs.h>
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

int sc_memfd(const char *name) {
    return memfd_create(name, MFD_CLOEXEC);
}

int sc_rename_noreplace(const char *from, const char *to) {
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
}

long long sc_filesystem_magic(const char *path) {
    struct statfs info;
    if (statfs(path, &info) != 0) return -1;
    return (long long)(unsigned long)info.f_type;
}
