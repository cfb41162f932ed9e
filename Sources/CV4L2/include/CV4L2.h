// Fixed-argument wrappers around libv4l2's variadic v4l2_ioctl, and V4L2 constants as plain values
// (Swift can call neither variadic C functions nor function-like macros).
#ifndef CV4L2_H
#define CV4L2_H

#endif
