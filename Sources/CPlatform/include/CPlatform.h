// The glibc calls Swift cannot see: they are declared only under _GNU_SOURCE (sched_getaffinity,
// pipe2), are macros (CPU_COUNT) or live in headers Swift's Glibc leaves out (libintl's gettext, malloc.h). Prefixed `sc_` so they never clash with glibc's own names.
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

/// gettext reads `domain`'s catalogues from `folder` (FOLDER/LANG/LC_MESSAGES/DOMAIN.mo) and hands
/// out their texts as UTF-8 whatever the locale; 0, or -1 with errno set.
int sc_gettext_bind(const char *domain, const char *folder);

/// gettext looks messages up in `languages` (LANGUAGE's colon-separated list), or in none (English)
/// when it is NULL. Sets LC_MESSAGES to C.UTF-8, which every glibc has, since gettext ignores
/// LANGUAGE in the C locale and the user's own locale may not be generated.
void sc_gettext_use(const char *languages);

/// dgettext, dngettext: the translation of `text`, or `text` itself.
const char *sc_gettext(const char *domain, const char *text);
const char *sc_ngettext(const char *domain, const char *singular, const char *plural, unsigned long count);

#endif
