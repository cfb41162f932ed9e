// The glibc calls Swift cannot see: they are declared only under _GNU_SOURCE (sched_getaffinity,
// pipe2) or are macros (CPU_COUNT). Prefixed `sc_` so they never clash with glibc's own names.
#ifndef CPLATFORM_H
#define CPLATFORM_H

/// How many CPUs the calling thread's affinity mask holds (taskset, cpusets; a new thread inherits
/// its creator's mask); -1 with errno set when it cannot be read.
int sc_affinity_cpu_count(void);

/// pipe2(2) with O_CLOEXEC: neither end is inherited by a program this process starts.
int sc_pipe_cloexec(int ends[2]);

#endif
