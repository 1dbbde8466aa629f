// An input stream from one PipeWire camera. PipeWire calls `on_process` on the loop's thread
// with the loop locked; it copies the picture into `latest`, and a read (with the loop locked
// too) copies that into `front`, which the caller reads while the next picture arrives.
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pipewire/pipewire.h>
#include <spa/param/video/format-utils.h>
#include <spa/pod/builder.h>
#include <spa/utils/result.h>

/// A picture in one tight buffer: its planes one after another.
struct picture {
    uint8_t *bytes;
    size_t capacity;
    int plane_count;
    size_t offsets[4];
    int strides[4];
    int64_t taken_ns;
    int stamped;
};

struct vf_pw_stream {
    struct vf_pw_connection connection;
    struct pw_stream *stream;
    struct spa_hook stream_listener;
    struct spa_video_info_raw info;
    vf_pw_format format;
    int negotiated;
    int failed;
    char failure[256];
    struct picture latest, front;
    uint64_t latest_sequence, read_sequence;
    int closing_sync, closed;
    /// -1 until the first picture, then whether the producer's stamps are used.
    int stamps_from_producer;
    int64_t last_taken;
    /// One picture's time at the agreed rate, in ns (0 for a variable rate).
    int64_t period_ns;
};

static int bytes_per_pixel(vf_pw_format format) {
    switch (format) {
    case VF_PW_FORMAT_YUY2: case VF_PW_FORMAT_UYVY: return 2;
    case VF_PW_FORMAT_RGBX: case VF_PW_FORMAT_BGRX: case VF_PW_FORMAT_RGBA: case VF_PW_FORMAT_BGRA: return 4;
    case VF_PW_FORMAT_RGB: case VF_PW_FORMAT_BGR: return 3;
    default: return 1;
    }
}

/// How many planes the format has, and each one's row length in bytes and row count.
static int layout(vf_pw_format format, int width, int height, int rows[4], int row_bytes[4]) {
    int half_w = (width + 1) / 2, half_h = (height + 1) / 2;
    rows[0] = height;
    switch (format) {
    case VF_PW_FORMAT_I420:
        row_bytes[0] = width; row_bytes[1] = row_bytes[2] = half_w; rows[1] = rows[2] = half_h;
        return 3;
    case VF_PW_FORMAT_NV12:
        row_bytes[0] = width; row_bytes[1] = half_w * 2; rows[1] = half_h;
        return 2;
    default:
        row_bytes[0] = width * bytes_per_pixel(format);
        return 1;
    }
}

static int grow(struct picture *p, size_t size) {
    if (p->capacity >= size) return 0;
    uint8_t *bigger = realloc(p->bytes, size);
    if (!bigger) return -ENOMEM;
    p->bytes = bigger;
    p->capacity = size;
    return 0;
}

static void fail(struct vf_pw_stream *s, const char *why) {
    s->failed = 1;
    snprintf(s->failure, sizeof s->failure, "%s", why);
    pw_thread_loop_signal(s->connection.loop, false);
}

/// Copies the buffer's planes into `latest`; returns 0, or -EINVAL for a buffer smaller than
/// its format (skipped).
/// An MJPEG picture: the JPEG's bytes as they came.
static int copy_jpeg(struct vf_pw_stream *s, struct spa_buffer *buffer) {
    struct spa_data *d = &buffer->datas[0];
    if (buffer->n_datas == 0 || !d->data || !d->chunk || d->maxsize == 0) return -EINVAL;
    uint32_t offset = d->chunk->offset % d->maxsize;
    size_t size = SPA_MIN(d->chunk->size, d->maxsize - offset);
    if (size == 0 || grow(&s->latest, size) < 0) return -EINVAL;
    memcpy(s->latest.bytes, (const uint8_t *)d->data + offset, size);
    s->latest.plane_count = 1;
    s->latest.offsets[0] = 0;
    s->latest.strides[0] = (int)size;
    return 0;
}

static int copy_picture(struct vf_pw_stream *s, struct spa_buffer *buffer) {
    if (s->format == VF_PW_FORMAT_MJPG) return copy_jpeg(s, buffer);
    int rows[4] = {0}, row_bytes[4] = {0};
    int width = (int)s->info.size.width, height = (int)s->info.size.height;
    int planes = layout(s->format, width, height, rows, row_bytes);
    size_t total = 0;
    for (int p = 0; p < planes; p++) total += (size_t)rows[p] * (size_t)row_bytes[p];
    if (buffer->n_datas == 0 || grow(&s->latest, total) < 0) return -EINVAL;
    // Where each plane starts in PipeWire's memory and its stride: one data block per plane,
    // or all planes one after another in the first block (what GStreamer and most cameras send).
    const uint8_t *sources[4];
    size_t available[4];
    int strides[4];
    if ((int)buffer->n_datas >= planes) {
        for (int p = 0; p < planes; p++) {
            struct spa_data *d = &buffer->datas[p];
            if (!d->data || !d->chunk) return -EINVAL;
            uint32_t offset = d->chunk->offset % (d->maxsize ? d->maxsize : 1);
            sources[p] = (const uint8_t *)d->data + offset;
            available[p] = SPA_MIN(d->chunk->size, d->maxsize - offset);
            strides[p] = d->chunk->stride > 0 ? d->chunk->stride : row_bytes[p];
        }
    } else {
        struct spa_data *d = &buffer->datas[0];
        if (!d->data || !d->chunk) return -EINVAL;
        uint32_t offset = d->chunk->offset % (d->maxsize ? d->maxsize : 1);
        const uint8_t *start = (const uint8_t *)d->data + offset;
        size_t size = SPA_MIN(d->chunk->size, d->maxsize - offset);
        int stride = d->chunk->stride > 0 ? d->chunk->stride : row_bytes[0];
        size_t at = 0;
        for (int p = 0; p < planes; p++) {
            strides[p] = p == 0 ? stride : (s->format == VF_PW_FORMAT_NV12 ? stride : stride / 2);
            if (strides[p] < row_bytes[p] || at > size) return -EINVAL;
            sources[p] = start + at;
            available[p] = size - at;
            at += (size_t)strides[p] * (size_t)rows[p];
        }
    }
    size_t at = 0;
    for (int p = 0; p < planes; p++) {
        if (strides[p] < row_bytes[p]) return -EINVAL;
        size_t needed = (size_t)strides[p] * (size_t)(rows[p] - 1) + (size_t)row_bytes[p];
        if (available[p] < needed) return -EINVAL;
        s->latest.offsets[p] = at;
        s->latest.strides[p] = row_bytes[p];
        for (int y = 0; y < rows[p]; y++)
            memcpy(s->latest.bytes + at + (size_t)y * row_bytes[p], sources[p] + (size_t)y * strides[p], (size_t)row_bytes[p]);
        at += (size_t)rows[p] * (size_t)row_bytes[p];
    }
    s->latest.plane_count = planes;
    return 0;
}

/// On the rate's grid: see the header.
int64_t vf_pw_grid_stamp(int64_t last, int64_t period, int64_t arrived) {
    if (period <= 0 || last <= 0 || arrived <= last) return arrived;
    int64_t steps = (arrived - last + period / 4) / period;
    int64_t predicted = last + (steps < 1 ? 1 : steps) * period;
    return arrived <= predicted ? arrived : predicted + (arrived - predicted) / 32;
}

static void on_process(void *data) {
    struct vf_pw_stream *s = data;
    struct pw_buffer *b = pw_stream_dequeue_buffer(s->stream);
    if (!b) return;
    int64_t arrived = vf_pw_monotonic_ns();
    if (s->negotiated && s->format != VF_PW_FORMAT_UNKNOWN) {
        struct spa_meta_header *header = spa_buffer_find_meta_data(b->buffer, SPA_META_Header, sizeof *header);
        int corrupted = header && (header->flags & SPA_META_HEADER_FLAG_CORRUPTED);
        if (!corrupted && copy_picture(s, b->buffer) == 0) {
            // The producer's stamps when they are on CLOCK_MONOTONIC (the first within a second
            // before now, as cameras stamp), else the arrival times on the rate's grid: decided
            // on the first picture, so one stream never mixes two clocks.
            int64_t pts = header ? header->pts : 0;
            int plausible = pts > 0 && pts <= arrived && arrived - pts < SPA_NSEC_PER_SEC;
            if (s->stamps_from_producer < 0) s->stamps_from_producer = plausible;
            int64_t taken = s->stamps_from_producer && plausible ? pts : vf_pw_grid_stamp(s->last_taken, s->period_ns, arrived);
            if (taken <= s->last_taken) taken = s->last_taken + 1;
            s->last_taken = taken;
            s->latest.taken_ns = taken;
            s->latest.stamped = s->stamps_from_producer && plausible;
            s->latest_sequence++;
            pw_thread_loop_signal(s->connection.loop, false);
        }
    }
    pw_stream_queue_buffer(s->stream, b);
}

static void on_param_changed(void *data, uint32_t id, const struct spa_pod *param) {
    struct vf_pw_stream *s = data;
    if (id != SPA_PARAM_Format || !param) return;
    uint32_t media_type = 0, media_subtype = 0;
    if (spa_format_parse(param, &media_type, &media_subtype) < 0) return;
    struct spa_video_info_raw info;
    memset(&info, 0, sizeof info);
    if (media_type == SPA_MEDIA_TYPE_video && media_subtype == SPA_MEDIA_SUBTYPE_mjpg) {
        struct spa_video_info_mjpg jpeg;
        memset(&jpeg, 0, sizeof jpeg);
        if (spa_format_video_mjpg_parse(param, &jpeg) < 0) {
            fail(s, "the camera's video format cannot be read");
            return;
        }
        info.size = jpeg.size;
        info.framerate = jpeg.framerate;
        s->format = VF_PW_FORMAT_MJPG;
    } else if (media_type == SPA_MEDIA_TYPE_video && media_subtype == SPA_MEDIA_SUBTYPE_raw) {
        if (spa_format_video_raw_parse(param, &info) < 0) {
            fail(s, "the camera's video format cannot be read");
            return;
        }
        s->format = vf_pw_format_from_spa(info.format);
    } else {
        fail(s, "the camera sends neither raw video nor MJPEG");
        return;
    }
    if (info.size.width == 0 || info.size.height == 0) {
        fail(s, "the camera's video format cannot be read");
        return;
    }
    s->info = info;
    s->period_ns = info.framerate.num > 0 && info.framerate.denom > 0
        ? (int64_t)info.framerate.denom * SPA_NSEC_PER_SEC / info.framerate.num : 0;
    uint8_t buffer[512];
    struct spa_pod_builder builder = SPA_POD_BUILDER_INIT(buffer, sizeof buffer);
    const struct spa_pod *params[2];
    // The smallest block that holds one picture (a JPEG's size is its own: one byte at least),
    // so a producer that has not said how large its buffers are yet (GStreamer's pipewiresink
    // says so only with its first picture) is not given empty ones it cannot fill.
    int rows[4] = {0}, row_bytes[4] = {0};
    int planes = s->format == VF_PW_FORMAT_MJPG ? 0 : layout(s->format, (int)info.size.width, (int)info.size.height, rows, row_bytes);
    int64_t picture = 0;
    for (int p = 0; p < planes; p++) picture += (int64_t)rows[p] * row_bytes[p];
    int32_t least = picture > 0 && picture < INT32_MAX ? (int32_t)picture : 1;
    int32_t wanted = s->format == VF_PW_FORMAT_MJPG ? (int32_t)SPA_MIN((int64_t)info.size.width * info.size.height * 2, (int64_t)INT32_MAX) : least;
    params[0] = spa_pod_builder_add_object(&builder, SPA_TYPE_OBJECT_ParamBuffers, SPA_PARAM_Buffers,
        SPA_PARAM_BUFFERS_size, SPA_POD_CHOICE_RANGE_Int(wanted, least, INT32_MAX),
        SPA_PARAM_BUFFERS_dataType, SPA_POD_CHOICE_FLAGS_Int((1 << SPA_DATA_MemPtr) | (1 << SPA_DATA_MemFd) | (1 << SPA_DATA_DmaBuf)));
    params[1] = spa_pod_builder_add_object(&builder, SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta,
        SPA_PARAM_META_type, SPA_POD_Id(SPA_META_Header),
        SPA_PARAM_META_size, SPA_POD_Int(sizeof(struct spa_meta_header)));
    pw_stream_update_params(s->stream, params, 2);
    s->negotiated = 1;
    pw_thread_loop_signal(s->connection.loop, false);
}

static void on_state_changed(void *data, enum pw_stream_state old, enum pw_stream_state state, const char *error) {
    struct vf_pw_stream *s = data;
    if (state == PW_STREAM_STATE_ERROR) {
        fail(s, error ? error : "the stream failed");
    } else if (state == PW_STREAM_STATE_UNCONNECTED && old != PW_STREAM_STATE_CONNECTING) {
        fail(s, "the camera went away");
    }
}

static const struct pw_stream_events stream_events = {
    PW_VERSION_STREAM_EVENTS,
    .state_changed = on_state_changed,
    .param_changed = on_param_changed,
    .process = on_process,
};

static void on_stream_core_error(void *data, uint32_t id, int seq, int res, const char *message) {
    struct vf_pw_stream *s = data;
    if (id != PW_ID_CORE) return;
    s->connection.core_error = res < 0 ? res : -EIO;
    fail(s, message ? message : spa_strerror(res));
}

static const struct pw_core_events stream_core_events = {
    PW_VERSION_CORE_EVENTS,
    .error = on_stream_core_error,
};

/// Frees the stream (the loop locked, or never started): the loop's thread is stopped first.
static void destroy(struct vf_pw_stream *s) {
    vf_pw_halt(&s->connection);
    if (s->stream) {
        spa_hook_remove(&s->stream_listener);
        pw_stream_destroy(s->stream);
        s->stream = NULL;
    }
    vf_pw_disconnect(&s->connection);
    free(s->latest.bytes);
    free(s->front.bytes);
    free(s);
}

vf_pw_stream *vf_pw_stream_open(int fd, const char *target, int width, int height, int fps, int timeout_ms,
                                int *error, char *message, size_t message_size) {
    struct vf_pw_stream *s = calloc(1, sizeof *s);
    if (!s) {
        if (fd >= 0) close(fd);
        *error = -ENOMEM;
        return NULL;
    }
    s->stamps_from_producer = -1;
    int status = vf_pw_connect(&s->connection, fd, &stream_core_events, s);
    if (status < 0) {
        free(s);
        *error = status;
        snprintf(message, message_size, "%s", spa_strerror(status));
        return NULL;
    }
    struct pw_properties *props = pw_properties_new(
        PW_KEY_MEDIA_TYPE, "Video", PW_KEY_MEDIA_CATEGORY, "Capture", PW_KEY_MEDIA_ROLE, "Camera",
        PW_KEY_TARGET_OBJECT, target, PW_KEY_NODE_DONT_RECONNECT, "true", NULL);
    s->stream = props ? pw_stream_new(s->connection.core, "Viewfinder", props) : NULL;
    if (!s->stream) {
        *error = -ENOMEM;
        snprintf(message, message_size, "%s", "cannot make a PipeWire stream");
        destroy(s);
        return NULL;
    }
    pw_stream_add_listener(s->stream, &s->stream_listener, &stream_events, s);
    uint8_t buffer[1024];
    struct spa_pod_builder builder = SPA_POD_BUILDER_INIT(buffer, sizeof buffer);
    struct spa_rectangle size = SPA_RECTANGLE(width > 0 ? (uint32_t)width : 640, height > 0 ? (uint32_t)height : 480);
    struct spa_rectangle smallest = SPA_RECTANGLE(1, 1), largest = SPA_RECTANGLE(16384, 16384);
    struct spa_fraction rate = SPA_FRACTION(fps > 0 ? (uint32_t)fps : 30, 1);
    struct spa_fraction slowest = SPA_FRACTION(0, 1), fastest = SPA_FRACTION(1000, 1);
    const struct spa_pod *params[2];
    params[0] = spa_pod_builder_add_object(&builder, SPA_TYPE_OBJECT_Format, SPA_PARAM_EnumFormat,
        SPA_FORMAT_mediaType, SPA_POD_Id(SPA_MEDIA_TYPE_video),
        SPA_FORMAT_mediaSubtype, SPA_POD_Id(SPA_MEDIA_SUBTYPE_raw),
        SPA_FORMAT_VIDEO_format, SPA_POD_CHOICE_ENUM_Id(12,
            SPA_VIDEO_FORMAT_YUY2, SPA_VIDEO_FORMAT_YUY2, SPA_VIDEO_FORMAT_UYVY, SPA_VIDEO_FORMAT_I420,
            SPA_VIDEO_FORMAT_NV12, SPA_VIDEO_FORMAT_RGBx, SPA_VIDEO_FORMAT_BGRx, SPA_VIDEO_FORMAT_RGBA,
            SPA_VIDEO_FORMAT_BGRA, SPA_VIDEO_FORMAT_RGB, SPA_VIDEO_FORMAT_BGR, SPA_VIDEO_FORMAT_GRAY8),
        SPA_FORMAT_VIDEO_size, SPA_POD_CHOICE_RANGE_Rectangle(&size, &smallest, &largest),
        SPA_FORMAT_VIDEO_framerate, SPA_POD_CHOICE_RANGE_Fraction(&rate, &slowest, &fastest));
    // MJPEG after the raw formats: many USB cameras offer their larger sizes only so.
    params[1] = spa_pod_builder_add_object(&builder, SPA_TYPE_OBJECT_Format, SPA_PARAM_EnumFormat,
        SPA_FORMAT_mediaType, SPA_POD_Id(SPA_MEDIA_TYPE_video),
        SPA_FORMAT_mediaSubtype, SPA_POD_Id(SPA_MEDIA_SUBTYPE_mjpg),
        SPA_FORMAT_VIDEO_size, SPA_POD_CHOICE_RANGE_Rectangle(&size, &smallest, &largest),
        SPA_FORMAT_VIDEO_framerate, SPA_POD_CHOICE_RANGE_Fraction(&rate, &slowest, &fastest));
    status = pw_stream_connect(s->stream, PW_DIRECTION_INPUT, PW_ID_ANY,
                               PW_STREAM_FLAG_AUTOCONNECT | PW_STREAM_FLAG_MAP_BUFFERS, params, 2);
    if (status < 0) {
        *error = status;
        snprintf(message, message_size, "%s", spa_strerror(status));
        destroy(s);
        return NULL;
    }
    struct timespec deadline;
    pw_thread_loop_get_time(s->connection.loop, &deadline, (int64_t)timeout_ms * SPA_NSEC_PER_MSEC);
    while (!s->negotiated && !s->failed) {
        if (pw_thread_loop_timed_wait_full(s->connection.loop, &deadline) == -ETIMEDOUT && !s->negotiated && !s->failed) {
            *error = -ETIMEDOUT;
            snprintf(message, message_size, "%s", "no video format was agreed with the camera");
            destroy(s);
            return NULL;
        }
    }
    if (s->failed) {
        *error = s->connection.core_error ? s->connection.core_error : -EPIPE;
        snprintf(message, message_size, "%s", s->failure);
        destroy(s);
        return NULL;
    }
    pw_thread_loop_unlock(s->connection.loop);
    *error = 0;
    return s;
}

void vf_pw_stream_format(const vf_pw_stream *s, vf_pw_format *format, int *width, int *height, int *rate_num, int *rate_den) {
    *format = s->format;
    *width = (int)s->info.size.width;
    *height = (int)s->info.size.height;
    *rate_num = (int)s->info.framerate.num;
    *rate_den = (int)s->info.framerate.denom;
}

int vf_pw_stream_read(vf_pw_stream *s, int timeout_ms, vf_pw_frame *frame, char *message, size_t message_size) {
    pw_thread_loop_lock(s->connection.loop);
    struct timespec deadline;
    pw_thread_loop_get_time(s->connection.loop, &deadline, (int64_t)timeout_ms * SPA_NSEC_PER_MSEC);
    while (s->latest_sequence == s->read_sequence && !s->failed) {
        if (pw_thread_loop_timed_wait_full(s->connection.loop, &deadline) == -ETIMEDOUT
            && s->latest_sequence == s->read_sequence && !s->failed) {
            pw_thread_loop_unlock(s->connection.loop);
            return -ETIMEDOUT;
        }
    }
    if (s->latest_sequence == s->read_sequence) {
        snprintf(message, message_size, "%s", s->failure);
        pw_thread_loop_unlock(s->connection.loop);
        return -EPIPE;
    }
    // Hand over `latest` whole: the next picture is written into the old front buffer.
    struct picture taken = s->latest;
    s->latest = s->front;
    s->front = taken;
    s->read_sequence = s->latest_sequence;
    int rows[4] = {0}, row_bytes[4] = {0};
    int width = (int)s->info.size.width, height = (int)s->info.size.height;
    layout(s->format, width, height, rows, row_bytes);
    if (s->format == VF_PW_FORMAT_MJPG) rows[0] = 1;
    pw_thread_loop_unlock(s->connection.loop);
    memset(frame, 0, sizeof *frame);
    frame->format = s->format;
    frame->width = width;
    frame->height = height;
    frame->plane_count = s->front.plane_count;
    for (int p = 0; p < s->front.plane_count; p++) {
        frame->planes[p] = s->front.bytes + s->front.offsets[p];
        frame->strides[p] = s->front.strides[p];
        frame->rows[p] = rows[p];
    }
    frame->taken_ns = s->front.taken_ns;
    frame->stamped_by_producer = s->front.stamped;
    return 0;
}

static void on_close_done(void *data, uint32_t id, int seq) {
    struct vf_pw_stream *s = data;
    if (id == PW_ID_CORE && seq == s->closing_sync) {
        s->closed = 1;
        pw_thread_loop_signal(s->connection.loop, false);
    }
}

static const struct pw_core_events closing_core_events = {
    PW_VERSION_CORE_EVENTS,
    .done = on_close_done,
    .error = on_stream_core_error,
};

void vf_pw_stream_close(vf_pw_stream *s) {
    if (!s) return;
    pw_thread_loop_lock(s->connection.loop);
    // Pause, then leave, and let the daemon answer (at most a second) before the connection
    // goes: the link is taken down in order and the camera's light goes off at once.
    if (s->stream && !s->failed) {
        pw_stream_set_active(s->stream, false);
        pw_stream_disconnect(s->stream);
        spa_hook_remove(&s->connection.core_listener);
        pw_core_add_listener(s->connection.core, &s->connection.core_listener, &closing_core_events, s);
        s->closing_sync = pw_core_sync(s->connection.core, PW_ID_CORE, 0);
        struct timespec deadline;
        pw_thread_loop_get_time(s->connection.loop, &deadline, 1000 * SPA_NSEC_PER_MSEC);
        while (!s->closed && !s->failed) {
            if (pw_thread_loop_timed_wait_full(s->connection.loop, &deadline) == -ETIMEDOUT) break;
        }
    }
    destroy(s);
}
