#ifndef VIEWFINDER_CFFMPEG_SHIM_H
#define VIEWFINDER_CFFMPEG_SHIM_H

#include <errno.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/dovi_meta.h>
#include <libavutil/mastering_display_metadata.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>
#include <libavdevice/avdevice.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/videodev2.h>
#include <libavutil/channel_layout.h>
#include <libavutil/audio_fifo.h>

// FFmpeg exposes these as function-like macros, which Swift cannot import.
static inline int vf_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int vf_averror_eof(void) { return AVERROR_EOF; }
static inline int vf_averror_enomem(void) { return AVERROR(ENOMEM); }
static inline int64_t vf_av_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline int vf_av_time_base(void) { return AV_TIME_BASE; }

static inline void vf_av_strerror(int code, char *buffer, size_t size) {
    if (av_strerror(code, buffer, size) < 0) {
        snprintf(buffer, size, "error %d", code);
    }
}

static inline void vf_alsa_quiet(const char *file, int line, const char *function, int err, const char *format, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)format;
}

/// Keeps ALSA from printing its own diagnostics on stderr (the tool reports one line itself).
/// libasound comes with libavdevice; when it is not loaded there is nothing to quiet.
static inline void vf_quiet_alsa(void) {
    typedef void (*handler_t)(const char *, int, const char *, int, const char *, ...);
    int (*set_handler)(handler_t) = (int (*)(handler_t))dlsym(RTLD_DEFAULT, "snd_lib_error_set_handler");
    if (set_handler) set_handler(vf_alsa_quiet);
}

/// Registers libavdevice's inputs (V4L2 cameras, lavfi test sources) with libavformat. The
/// library is loaded on demand: linking it would pull libavfilter, SDL and sound servers into
/// every start of the tool. Returns 0 when the devices are available.
static inline int vf_load_capture_devices(void) {
    static int state = 0;  // 0 not tried, 1 loaded, -1 unavailable
    if (state != 0) return state == 1 ? 0 : -1;
    void *library = dlopen("libavdevice.so.59", RTLD_NOW | RTLD_GLOBAL);
    if (!library) library = dlopen("libavdevice.so", RTLD_NOW | RTLD_GLOBAL);
    void (*register_all)(void) = library ? (void (*)(void))dlsym(library, "avdevice_register_all") : NULL;
    if (!register_all) { state = -1; return -1; }
    register_all();
    vf_quiet_alsa();
    state = 1;
    return 0;
}

/// One source of a libavdevice input (a sound server's microphone, or the monitor of an output).
typedef struct {
    char name[256];
    char description[256];
    int is_default;
} vf_input_source;

/// Lists the sources of the libavdevice input `format` ("pulse") into `out` (at most
/// `capacity`): their count, or a negative AVERROR when they cannot be listed (no libavdevice,
/// a server that does not answer). libavdevice is loaded on first use, so both calls go
/// through dlsym.
static inline int vf_list_input_sources(const char *format, vf_input_source *out, int capacity) {
    if (vf_load_capture_devices() != 0) return AVERROR(ENOSYS);
    int (*list)(const AVInputFormat *, const char *, AVDictionary *, AVDeviceInfoList **) =
        (int (*)(const AVInputFormat *, const char *, AVDictionary *, AVDeviceInfoList **))dlsym(RTLD_DEFAULT, "avdevice_list_input_sources");
    void (*release)(AVDeviceInfoList **) = (void (*)(AVDeviceInfoList **))dlsym(RTLD_DEFAULT, "avdevice_free_list_devices");
    const AVInputFormat *input = av_find_input_format(format);
    if (!list || !release || !input) return AVERROR(ENOSYS);
    AVDeviceInfoList *devices = NULL;
    int status = list(input, NULL, NULL, &devices);
    if (status < 0 || !devices) {
        if (devices) release(&devices);
        return status < 0 ? status : AVERROR(ENOSYS);
    }
    int count = 0;
    for (int i = 0; i < devices->nb_devices && count < capacity; i++) {
        AVDeviceInfo *device = devices->devices[i];
        if (!device || !device->device_name) continue;
        snprintf(out[count].name, sizeof out[count].name, "%s", device->device_name);
        snprintf(out[count].description, sizeof out[count].description, "%s",
                 device->device_description ? device->device_description : device->device_name);
        out[count].is_default = i == devices->default_device;
        count++;
    }
    release(&devices);
    return count;
}

/// What a V4L2 device says about itself.
typedef struct {
    char name[64];
    int width[16];
    int height[16];
    int size_count;
    int fps[8];
    int fps_count;
    int has_flash;
} vf_v4l2_info;

/// Returns 0 for a video capture device, -1 for something else, and errno when it cannot be opened.
static inline int vf_v4l2_query(const char *path, vf_v4l2_info *info) {
    memset(info, 0, sizeof(*info));
    int fd = open(path, O_RDWR | O_NONBLOCK);
    if (fd < 0) return errno > 0 ? errno : -1;
    struct v4l2_capability cap;
    memset(&cap, 0, sizeof(cap));
    if (ioctl(fd, VIDIOC_QUERYCAP, &cap) < 0) { close(fd); return -1; }
    unsigned caps = (cap.capabilities & V4L2_CAP_DEVICE_CAPS) ? cap.device_caps : cap.capabilities;
    if (!(caps & V4L2_CAP_VIDEO_CAPTURE)) { close(fd); return -1; }
    snprintf(info->name, sizeof(info->name), "%s", (const char *)cap.card);
    struct v4l2_fmtdesc format;
    memset(&format, 0, sizeof(format));
    format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    if (ioctl(fd, VIDIOC_ENUM_FMT, &format) == 0) {
        struct v4l2_frmsizeenum size;
        memset(&size, 0, sizeof(size));
        size.pixel_format = format.pixelformat;
        for (size.index = 0; info->size_count < 16 && ioctl(fd, VIDIOC_ENUM_FRAMESIZES, &size) == 0; size.index++) {
            if (size.type != V4L2_FRMSIZE_TYPE_DISCRETE) {
                info->width[info->size_count] = (int)size.stepwise.max_width;
                info->height[info->size_count] = (int)size.stepwise.max_height;
                info->size_count++;
                break;
            }
            info->width[info->size_count] = (int)size.discrete.width;
            info->height[info->size_count] = (int)size.discrete.height;
            info->size_count++;
        }
        if (info->size_count > 0) {
            struct v4l2_frmivalenum interval;
            memset(&interval, 0, sizeof(interval));
            interval.pixel_format = format.pixelformat;
            interval.width = (unsigned)info->width[0];
            interval.height = (unsigned)info->height[0];
            for (interval.index = 0; info->fps_count < 8 && ioctl(fd, VIDIOC_ENUM_FRAMEINTERVALS, &interval) == 0; interval.index++) {
                if (interval.type == V4L2_FRMIVAL_TYPE_DISCRETE && interval.discrete.numerator > 0) {
                    info->fps[info->fps_count++] = (int)(interval.discrete.denominator / interval.discrete.numerator);
                }
            }
        }
    }
    struct v4l2_queryctrl control;
    memset(&control, 0, sizeof(control));
    control.id = V4L2_CID_FLASH_LED_MODE;
    info->has_flash = ioctl(fd, VIDIOC_QUERYCTRL, &control) == 0 && !(control.flags & V4L2_CTRL_FLAG_DISABLED);
    close(fd);
    return 0;
}

/// Sets a V4L2 control on the device at `path`; returns 0, or errno.
static inline int vf_v4l2_set_control(const char *path, unsigned id, int value) {
    int fd = open(path, O_RDWR | O_NONBLOCK);
    if (fd < 0) return errno > 0 ? errno : -1;
    struct v4l2_control control;
    memset(&control, 0, sizeof(control));
    control.id = id;
    control.value = value;
    int status = ioctl(fd, VIDIOC_S_CTRL, &control) == 0 ? 0 : (errno > 0 ? errno : -1);
    close(fd);
    return status;
}

static inline unsigned vf_v4l2_cid_flash_led_mode(void) { return V4L2_CID_FLASH_LED_MODE; }
static inline unsigned vf_v4l2_cid_flash_strobe(void) { return V4L2_CID_FLASH_STROBE; }
static inline int vf_v4l2_flash_led_mode_none(void) { return V4L2_FLASH_LED_MODE_NONE; }
static inline int vf_v4l2_flash_led_mode_flash(void) { return V4L2_FLASH_LED_MODE_FLASH; }
static inline int vf_v4l2_flash_led_mode_torch(void) { return V4L2_FLASH_LED_MODE_TORCH; }

#endif
