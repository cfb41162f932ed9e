#include "CV4L2.h"

#include <errno.h>
#include <fcntl.h>
#include <libv4l2.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

int sc_v4l2_open(const char *path, int flags, int video) {
    int fd = open(path, flags | O_CLOEXEC);
    if (fd < 0 || !video) return fd;
    // Not a V4L2 device at all (/dev/null, a tty): leave it plain, so the caller's own QUERYCAP
    // says so, instead of libv4l2 and its plugins printing their complaints on stderr.
    struct v4l2_capability capability;
    if (ioctl(fd, VIDIOC_QUERYCAP, &capability) != 0) return fd;
    // Conversion off: we want the driver's own formats (MJPEG untouched) and its real stride.
    int wrapped = v4l2_fd_open(fd, V4L2_DISABLE_CONVERSION);
    if (wrapped < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return wrapped;
}

int sc_v4l2_close(int fd) { return v4l2_close(fd); }

int sc_v4l2_ioctl(int fd, unsigned long request, void *argument) { return v4l2_ioctl(fd, request, argument); }

void *sc_v4l2_mmap(size_t length, int fd, off_t offset) {
    return v4l2_mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, offset);
}

int sc_v4l2_munmap(void *start, size_t length) { return v4l2_munmap(start, length); }

