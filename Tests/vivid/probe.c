/* probe.c — minimal V4L2 mmap capture loop that reports exactly what the kernel
 * returns (poll revents, errno of DQBUF/QBUF/STREAMOFF). Used by errinj.sh to see
 * how vivid's error-injection controls look to a capture program that, like most,
 * uses a non-blocking fd + poll().
 *
 *   probe DEVICE SECONDS     stream for SECONDS, stop early after an error repeats
 * Exit status: 0 streamed without errors, 1 saw an error, 2 setup failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define NBUF 4

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static const char *errname(int e) {
    switch (e) {
    case EIO: return "EIO";
    case ENODEV: return "ENODEV";
    case EPIPE: return "EPIPE";
    case EINVAL: return "EINVAL";
    case EAGAIN: return "EAGAIN";
    case EBUSY: return "EBUSY";
    default: return "?";
    }
}

#define REPORT(what, r) \
    printf("probe: t=%.2f %s -> %d%s%s (%s)\n", now() - t0, what, r, r < 0 ? " errno=" : "", \
           r < 0 ? errname(errno) : "", r < 0 ? strerror(errno) : "ok")

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: probe DEVICE SECONDS\n"); return 2; }
    double t0 = now(), seconds = atof(argv[2]);
    int fd = open(argv[1], O_RDWR | O_NONBLOCK);
    if (fd < 0) { perror("open"); return 2; }

    struct v4l2_requestbuffers rb = { .count = NBUF, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
                                      .memory = V4L2_MEMORY_MMAP };
    if (ioctl(fd, VIDIOC_REQBUFS, &rb) < 0) { perror("REQBUFS"); return 2; }
    for (unsigned i = 0; i < rb.count; i++) {
        struct v4l2_buffer b = { .index = i, .type = rb.type, .memory = rb.memory };
        if (ioctl(fd, VIDIOC_QUERYBUF, &b) < 0) { perror("QUERYBUF"); return 2; }
        if (mmap(NULL, b.length, PROT_READ, MAP_SHARED, fd, b.m.offset) == MAP_FAILED) {
            perror("mmap"); return 2;
        }
        if (ioctl(fd, VIDIOC_QBUF, &b) < 0) { perror("QBUF"); return 2; }
    }
    int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    if (ioctl(fd, VIDIOC_STREAMON, &type) < 0) { perror("STREAMON"); return 2; }
    printf("probe: streaming %u buffers\n", rb.count);
    fflush(stdout);

    int frames = 0, errors = 0, r;
    while (now() - t0 < seconds && errors < 3) {
        struct pollfd p = { .fd = fd, .events = POLLIN | POLLPRI };
        r = poll(&p, 1, 2000);
        if (r <= 0) { REPORT("poll (timeout 2 s)", r); errors++; continue; }
        if (p.revents & ~POLLIN) {
            printf("probe: t=%.2f poll revents=0x%x%s%s%s%s\n", now() - t0, p.revents,
                   p.revents & POLLIN ? " POLLIN" : "", p.revents & POLLERR ? " POLLERR" : "",
                   p.revents & POLLHUP ? " POLLHUP" : "", p.revents & POLLPRI ? " POLLPRI" : "");
        }
        struct v4l2_buffer b = { .type = type, .memory = V4L2_MEMORY_MMAP };
        r = ioctl(fd, VIDIOC_DQBUF, &b);
        if (r < 0) {
            if (errno == EAGAIN) continue;
            REPORT("DQBUF", r); errors++; continue;
        }
        if (b.flags & V4L2_BUF_FLAG_ERROR) {
            printf("probe: t=%.2f DQBUF buffer %u has V4L2_BUF_FLAG_ERROR\n", now() - t0, b.index);
            errors++;
        }
        frames++;
        r = ioctl(fd, VIDIOC_QBUF, &b);
        if (r < 0) { REPORT("QBUF", r); errors++; }
        fflush(stdout);
    }
    printf("probe: %d frames, %d errors in %.1f s\n", frames, errors, now() - t0);
    r = ioctl(fd, VIDIOC_STREAMOFF, &type);
    REPORT("STREAMOFF", r);
    close(fd);
    return errors ? 1 : 0;
}
