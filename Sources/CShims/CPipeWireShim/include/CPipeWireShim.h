#ifndef VIEWFINDER_CPIPEWIRESHIM_H
#define VIEWFINDER_CPIPEWIRESHIM_H

#include <stddef.h>
#include <stdint.h>

// Cameras through PipeWire (libpipewire 0.3) and the Camera portal (GDBus), behind plain C
// types. Failures are negative errno values; a message, where there is one, is written into
// the caller's buffer.

/// Pixel layouts a PipeWire camera is read in (the raw video formats FFmpeg has a match for),
/// and MJPEG (each picture a JPEG, handed over as its bytes: one plane, one row).
typedef enum {
    VF_PW_FORMAT_UNKNOWN = 0,
    VF_PW_FORMAT_YUY2, VF_PW_FORMAT_UYVY, VF_PW_FORMAT_I420, VF_PW_FORMAT_NV12,
    VF_PW_FORMAT_RGBX, VF_PW_FORMAT_BGRX, VF_PW_FORMAT_RGBA, VF_PW_FORMAT_BGRA,
    VF_PW_FORMAT_RGB, VF_PW_FORMAT_BGR, VF_PW_FORMAT_GRAY8, VF_PW_FORMAT_MJPG
} vf_pw_format;

#define VF_PW_MAX_SIZES 32
#define VF_PW_MAX_RATES 16
#define VF_PW_MAX_FORMATS 12

/// A PipeWire node of media class Video/Source, as its properties and EnumFormat params say.
typedef struct {
    uint32_t node_id;
    /// node.name: what a stream targets (target.object).
    char name[128];
    /// node.description (or node.nick, or the name).
    char description[256];
    /// api.libcamera.location ("front", "back", "external"), or empty.
    char location[32];
    int format_count;
    vf_pw_format formats[VF_PW_MAX_FORMATS];
    int size_count;
    int width[VF_PW_MAX_SIZES];
    int height[VF_PW_MAX_SIZES];
    int rate_count;
    int fps[VF_PW_MAX_RATES];
} vf_pw_camera;

/// Starts libpipewire (once per process; later calls do nothing).
void vf_pw_start(void);

/// Lists the cameras of a PipeWire daemon: the user's own (`fd` < 0) or the remote at `fd`
/// (the Camera portal's; it is taken over and closed). Returns how many were written into
/// `out` (at most `capacity`), or -errno: -EHOSTDOWN (or -ENOENT, -ECONNREFUSED) when no daemon runs,
/// -ETIMEDOUT when it does not answer within `timeout_ms`. When it shows no camera at first,
/// one that appears within `settle_ms` is waited for (a portal's connection is given the right
/// to see cameras only after it connects).
int vf_pw_list_cameras(int fd, vf_pw_camera *out, int capacity, int timeout_ms, int settle_ms);

typedef struct vf_pw_stream vf_pw_stream;

/// A picture read from a stream: up to four planes in one buffer the stream owns, valid until
/// the next read or the close.
typedef struct {
    vf_pw_format format;
    int width, height;
    int plane_count;
    const uint8_t *planes[4];
    /// Each plane's bytes a row (its rows lie one after another, nothing between them).
    int strides[4];
    /// Each plane's rows (the chroma planes of I420 and NV12 have half as many).
    int rows[4];
    /// When it was taken, on CLOCK_MONOTONIC (the buffer's stamp when it is on that clock,
    /// else its arrival put on the rate's grid: `vf_pw_grid_stamp`), in nanoseconds.
    int64_t taken_ns;
    /// Whether `taken_ns` is the producer's own stamp (1) or its arrival on the grid (0).
    int stamped_by_producer;
} vf_pw_frame;

/// When a picture its producer did not stamp was taken (CLOCK_MONOTONIC ns), given when the
/// last one was (`last`, 0 for none), one picture's time at the agreed rate (`period`, 0 for a
/// variable rate) and when it arrived: on the rate's grid, not at its arrival, which a busy
/// machine delays by tens of ms now and then. The grid goes on from the last picture by the
/// whole periods since (a dropped picture leaves two); a picture that comes earlier than the
/// grid moves it there (it had started on a late one, or the camera runs fast); one that comes
/// later is held to it, following a 32nd of the lateness so a camera that runs slow is
/// tracked. A picture later than three quarters of a period counts as the next one's.
int64_t vf_pw_grid_stamp(int64_t last, int64_t period, int64_t arrived);

/// Opens a stream from the node named `target` (node.name or object.serial) at `width`×`height`
/// and `fps` (0: whatever it offers first), on the user's daemon (`fd` < 0) or the remote at
/// `fd` (taken over). Waits up to `timeout_ms` for the format to be agreed. NULL on failure,
/// with -errno in `*error` and a message in `message`.
vf_pw_stream *vf_pw_stream_open(int fd, const char *target, int width, int height, int fps, int timeout_ms,
                                int *error, char *message, size_t message_size);

/// The agreed format and size, and the rate as a fraction.
void vf_pw_stream_format(const vf_pw_stream *stream, vf_pw_format *format, int *width, int *height, int *rate_num, int *rate_den);

/// Waits up to `timeout_ms` for a picture newer than the last one read. 0, or -ETIMEDOUT, or
/// -EPIPE when the stream ended or failed (a message in `message`).
int vf_pw_stream_read(vf_pw_stream *stream, int timeout_ms, vf_pw_frame *frame, char *message, size_t message_size);

/// Stops and frees the stream and its connection.
void vf_pw_stream_close(vf_pw_stream *stream);

/// CLOCK_MONOTONIC now, in nanoseconds.
int64_t vf_pw_monotonic_ns(void);

/// The Camera portal's answer.
typedef enum {
    /// Access granted: `*fd` is a PipeWire remote for the caller to own.
    VF_PORTAL_GRANTED = 0,
    /// The user (or the permission store) said no, or the request was cancelled.
    VF_PORTAL_DENIED = 1,
    /// No portal answers (none on the session bus, no Camera interface, no session bus).
    VF_PORTAL_UNAVAILABLE = 3,
    /// The portal answered with an error (in `message`).
    VF_PORTAL_FAILED = 4,
} vf_portal_result;

/// Asks org.freedesktop.portal.Camera on the session bus for the camera (AccessCamera, waiting
/// up to `timeout_ms` for the user's answer), then for a PipeWire remote (OpenPipeWireRemote).
vf_portal_result vf_portal_open_camera(int timeout_ms, int *fd, char *message, size_t message_size);

#endif
