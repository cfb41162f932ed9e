// Fixed-argument wrappers around libv4l2's variadic calls, and the V4L2 / media-controller
// constants Swift cannot see: ioctl numbers (_IOWR macros) and control ids built from other
// macros. Fourccs are plain four-letter codes and are made in Swift. Everything here is prefixed
// `sc_` so it never clashes with the kernel's own names, which Swift imports too (the structs are
// used as they are).
#ifndef CV4L2_H
#define CV4L2_H

#include <stddef.h>
#include <sys/types.h>
#include <linux/videodev2.h>
#include <linux/media.h>

// --- libv4l2 (open, ioctl and mmap go through its format and plugin layer) -------------------------

/// open(2) of a device node. A video node (`video` != 0) is handed to libv4l2 without format
/// conversion (native MJPEG, native strides); media and subdevice nodes are not V4L2 video devices
/// and stay plain fds, which libv4l2's calls pass straight to the kernel.
/// Returns the fd, or -1 with errno set.
int sc_v4l2_open(const char *path, int flags, int video);
int sc_v4l2_close(int fd);
/// One ioctl; returns -1 with errno set on failure (EINTR is the caller's to retry).
int sc_v4l2_ioctl(int fd, unsigned long request, void *argument);
void *sc_v4l2_mmap(size_t length, int fd, off_t offset);
int sc_v4l2_munmap(void *start, size_t length);

// --- ioctl numbers -------------------------------------------------------------------------------
static const unsigned long sc_VIDIOC_QUERYCAP = VIDIOC_QUERYCAP;
static const unsigned long sc_VIDIOC_ENUM_FMT = VIDIOC_ENUM_FMT;
static const unsigned long sc_VIDIOC_ENUM_FRAMESIZES = VIDIOC_ENUM_FRAMESIZES;
static const unsigned long sc_VIDIOC_ENUM_FRAMEINTERVALS = VIDIOC_ENUM_FRAMEINTERVALS;
static const unsigned long sc_VIDIOC_G_FMT = VIDIOC_G_FMT;
static const unsigned long sc_VIDIOC_TRY_FMT = VIDIOC_TRY_FMT;
static const unsigned long sc_VIDIOC_S_FMT = VIDIOC_S_FMT;
static const unsigned long sc_VIDIOC_G_PARM = VIDIOC_G_PARM;
static const unsigned long sc_VIDIOC_S_PARM = VIDIOC_S_PARM;
static const unsigned long sc_VIDIOC_REQBUFS = VIDIOC_REQBUFS;
static const unsigned long sc_VIDIOC_QUERYBUF = VIDIOC_QUERYBUF;
static const unsigned long sc_VIDIOC_QBUF = VIDIOC_QBUF;
static const unsigned long sc_VIDIOC_DQBUF = VIDIOC_DQBUF;
static const unsigned long sc_VIDIOC_STREAMON = VIDIOC_STREAMON;
static const unsigned long sc_VIDIOC_STREAMOFF = VIDIOC_STREAMOFF;
static const unsigned long sc_VIDIOC_QUERY_EXT_CTRL = VIDIOC_QUERY_EXT_CTRL;
static const unsigned long sc_VIDIOC_QUERYMENU = VIDIOC_QUERYMENU;
static const unsigned long sc_VIDIOC_G_EXT_CTRLS = VIDIOC_G_EXT_CTRLS;
static const unsigned long sc_VIDIOC_S_EXT_CTRLS = VIDIOC_S_EXT_CTRLS;
static const unsigned long sc_MEDIA_IOC_DEVICE_INFO = MEDIA_IOC_DEVICE_INFO;
static const unsigned long sc_MEDIA_IOC_G_TOPOLOGY = MEDIA_IOC_G_TOPOLOGY;

// --- capabilities, buffer flags, control flags and types -----------------------------------------
enum {
    sc_CAP_VIDEO_CAPTURE = V4L2_CAP_VIDEO_CAPTURE,
    sc_CAP_VIDEO_CAPTURE_MPLANE = V4L2_CAP_VIDEO_CAPTURE_MPLANE,
    sc_CAP_META_CAPTURE = V4L2_CAP_META_CAPTURE,
    sc_CAP_STREAMING = V4L2_CAP_STREAMING,
    sc_CAP_DEVICE_CAPS = V4L2_CAP_DEVICE_CAPS,
    sc_BUF_TYPE_VIDEO_CAPTURE = V4L2_BUF_TYPE_VIDEO_CAPTURE,
    sc_MEMORY_MMAP = V4L2_MEMORY_MMAP,
    sc_FIELD_ANY = V4L2_FIELD_ANY,
    sc_BUF_FLAG_ERROR = V4L2_BUF_FLAG_ERROR,
    sc_BUF_FLAG_TIMESTAMP_MASK = V4L2_BUF_FLAG_TIMESTAMP_MASK,
    sc_BUF_FLAG_TIMESTAMP_MONOTONIC = V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC,
    sc_FMT_FLAG_COMPRESSED = V4L2_FMT_FLAG_COMPRESSED,
    sc_FMT_FLAG_EMULATED = V4L2_FMT_FLAG_EMULATED,
    sc_FRMSIZE_TYPE_DISCRETE = V4L2_FRMSIZE_TYPE_DISCRETE,
    sc_FRMSIZE_TYPE_CONTINUOUS = V4L2_FRMSIZE_TYPE_CONTINUOUS,
    sc_FRMSIZE_TYPE_STEPWISE = V4L2_FRMSIZE_TYPE_STEPWISE,
    sc_FRMIVAL_TYPE_DISCRETE = V4L2_FRMIVAL_TYPE_DISCRETE,
    sc_CAP_TIMEPERFRAME = V4L2_CAP_TIMEPERFRAME,
    sc_QUANTIZATION_FULL_RANGE = V4L2_QUANTIZATION_FULL_RANGE,
    sc_YCBCR_ENC_709 = V4L2_YCBCR_ENC_709,
    sc_CTRL_WHICH_CUR_VAL = V4L2_CTRL_WHICH_CUR_VAL,
    sc_CTRL_FLAG_DISABLED = V4L2_CTRL_FLAG_DISABLED,
    sc_CTRL_FLAG_READ_ONLY = V4L2_CTRL_FLAG_READ_ONLY,
    sc_CTRL_FLAG_WRITE_ONLY = V4L2_CTRL_FLAG_WRITE_ONLY,
    sc_CTRL_FLAG_INACTIVE = V4L2_CTRL_FLAG_INACTIVE,
    sc_CTRL_FLAG_GRABBED = V4L2_CTRL_FLAG_GRABBED,
    sc_CTRL_TYPE_INTEGER = V4L2_CTRL_TYPE_INTEGER,
    sc_CTRL_TYPE_BOOLEAN = V4L2_CTRL_TYPE_BOOLEAN,
    sc_CTRL_TYPE_MENU = V4L2_CTRL_TYPE_MENU,
    sc_CTRL_TYPE_BUTTON = V4L2_CTRL_TYPE_BUTTON,
    sc_CTRL_TYPE_INTEGER64 = V4L2_CTRL_TYPE_INTEGER64,
    sc_CTRL_TYPE_CTRL_CLASS = V4L2_CTRL_TYPE_CTRL_CLASS,
    sc_CTRL_TYPE_STRING = V4L2_CTRL_TYPE_STRING,
    sc_CTRL_TYPE_BITMASK = V4L2_CTRL_TYPE_BITMASK,
    sc_CTRL_TYPE_INTEGER_MENU = V4L2_CTRL_TYPE_INTEGER_MENU,
    sc_CTRL_TYPE_RECT = 0x0107,  // V4L2_CTRL_TYPE_RECT, newer than Debian 12's headers
    sc_MEDIA_ENT_F_FLASH = MEDIA_ENT_F_FLASH,
    sc_MEDIA_INTF_T_V4L_VIDEO = MEDIA_INTF_T_V4L_VIDEO,
    sc_MEDIA_INTF_T_V4L_SUBDEV = MEDIA_INTF_T_V4L_SUBDEV,
    sc_MEDIA_LNK_FL_LINK_TYPE = MEDIA_LNK_FL_LINK_TYPE,
    sc_MEDIA_LNK_FL_INTERFACE_LINK = MEDIA_LNK_FL_INTERFACE_LINK,
};

// --- control ids (macros built from other macros) -------------------------------------------------
static const unsigned int sc_CTRL_FLAG_NEXT_CTRL = V4L2_CTRL_FLAG_NEXT_CTRL;
static const unsigned int sc_CID_FOCUS_ABSOLUTE = V4L2_CID_FOCUS_ABSOLUTE;
static const unsigned int sc_CID_FOCUS_AUTO = V4L2_CID_FOCUS_AUTO;
static const unsigned int sc_CID_AUTO_FOCUS_START = V4L2_CID_AUTO_FOCUS_START;
static const unsigned int sc_CID_ZOOM_ABSOLUTE = V4L2_CID_ZOOM_ABSOLUTE;
static const unsigned int sc_CID_ZOOM_CONTINUOUS = V4L2_CID_ZOOM_CONTINUOUS;
// UVC 1.5 region of interest: only on recent kernels; looked up at run time.
static const unsigned int sc_CID_UVC_REGION_OF_INTEREST_RECT = V4L2_CID_CAMERA_CLASS_BASE + 0x1000 + 1;
static const unsigned int sc_CID_UVC_REGION_OF_INTEREST_AUTO = V4L2_CID_CAMERA_CLASS_BASE + 0x1000 + 2;
static const unsigned int sc_CID_FLASH_LED_MODE = V4L2_CID_FLASH_LED_MODE;
static const unsigned int sc_CID_FLASH_STROBE_SOURCE = V4L2_CID_FLASH_STROBE_SOURCE;
static const unsigned int sc_CID_FLASH_STROBE = V4L2_CID_FLASH_STROBE;
static const unsigned int sc_CID_FLASH_STROBE_STOP = V4L2_CID_FLASH_STROBE_STOP;
static const unsigned int sc_CID_FLASH_TIMEOUT = V4L2_CID_FLASH_TIMEOUT;
static const unsigned int sc_CID_FLASH_INTENSITY = V4L2_CID_FLASH_INTENSITY;
static const unsigned int sc_CID_FLASH_TORCH_INTENSITY = V4L2_CID_FLASH_TORCH_INTENSITY;
static const unsigned int sc_CID_FLASH_FAULT = V4L2_CID_FLASH_FAULT;
static const unsigned int sc_CID_FLASH_READY = V4L2_CID_FLASH_READY;

enum {
    sc_FLASH_LED_MODE_NONE = V4L2_FLASH_LED_MODE_NONE,
    sc_FLASH_LED_MODE_FLASH = V4L2_FLASH_LED_MODE_FLASH,
    sc_FLASH_LED_MODE_TORCH = V4L2_FLASH_LED_MODE_TORCH,
    sc_FLASH_STROBE_SOURCE_SOFTWARE = V4L2_FLASH_STROBE_SOURCE_SOFTWARE,
    sc_FLASH_FAULT_OVER_VOLTAGE = V4L2_FLASH_FAULT_OVER_VOLTAGE,
    sc_FLASH_FAULT_TIMEOUT = V4L2_FLASH_FAULT_TIMEOUT,
    sc_FLASH_FAULT_OVER_TEMPERATURE = V4L2_FLASH_FAULT_OVER_TEMPERATURE,
    sc_FLASH_FAULT_SHORT_CIRCUIT = V4L2_FLASH_FAULT_SHORT_CIRCUIT,
    sc_FLASH_FAULT_OVER_CURRENT = V4L2_FLASH_FAULT_OVER_CURRENT,
    sc_FLASH_FAULT_INDICATOR = V4L2_FLASH_FAULT_INDICATOR,
    sc_FLASH_FAULT_UNDER_VOLTAGE = V4L2_FLASH_FAULT_UNDER_VOLTAGE,
    sc_FLASH_FAULT_INPUT_VOLTAGE = V4L2_FLASH_FAULT_INPUT_VOLTAGE,
    sc_FLASH_FAULT_LED_OVER_TEMPERATURE = V4L2_FLASH_FAULT_LED_OVER_TEMPERATURE,
};

#endif
