// The glibc calls Swift cannot see: they are declared only under _GNU_SOURCE (sched_getaffinity,
// pipe2, renameat2), are macros (CPU_COUNT) or live in headers Swift's Glibc leaves out (statfs, malloc.h).
// Prefixed `sc_` so they never clash with glibc's own names.
#ifndef CPLATFORM_H
#define CPLATFORM_H

/// How many CPUs the calling thread's affinity mask holds (taskset, cpusets; a new thread inherits
/// its creator's mask); -1 with errno set when it cannot be read.
int sc_affinity_cpu_count(void);

/// malloc_trim(0) (malloc.h, which Swift's Glibc leaves out): every arena's free memory back to
/// the system.
void sc_malloc_trim(void);

/// pipe2(2) with O_CLOEXEC: neither end is inherited by a program this process starts.
int sc_pipe_cloexec(int ends[2]);

/// memfd_create(2) with MFD_CLOEXEC: a file that lives in memory only, gone with its last descriptor.
int sc_memfd(const char *name);

/// renameat2(2) with RENAME_NOREPLACE: gives `from` the name `to` unless something has that name
/// (EEXIST); EINVAL or ENOSYS where the file system or kernel cannot refuse (FUSE, NFS).
int sc_rename_noreplace(const char *from, const char *to);

/// statfs(2)'s f_type (the file system's magic number, linux/magic.h) for the file system holding
/// `path`; -1 with errno set when it cannot be asked. (Swift's Glibc leaves sys/vfs.h out.)
long long sc_filesystem_magic(const char *path);

#endif
