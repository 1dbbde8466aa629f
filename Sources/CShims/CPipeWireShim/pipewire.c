// Cameras through libpipewire: the registry's Video/Source nodes and their EnumFormat params,
// and an input stream whose pictures are copied out of PipeWire's buffers on its loop thread.
#include "internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

#include <pipewire/pipewire.h>
#include <spa/param/video/format-utils.h>
#include <spa/pod/builder.h>
#include <spa/pod/iter.h>
#include <spa/utils/result.h>

static pthread_once_t started = PTHREAD_ONCE_INIT;

static void start_once(void) { pw_init(NULL, NULL); }

void vf_pw_start(void) { pthread_once(&started, start_once); }

int64_t vf_pw_monotonic_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000000LL + now.tv_nsec;
}

vf_pw_format vf_pw_format_from_spa(uint32_t format) {
    switch (format) {
    case SPA_VIDEO_FORMAT_YUY2: return VF_PW_FORMAT_YUY2;
    case SPA_VIDEO_FORMAT_UYVY: return VF_PW_FORMAT_UYVY;
    case SPA_VIDEO_FORMAT_I420: return VF_PW_FORMAT_I420;
    case SPA_VIDEO_FORMAT_NV12: return VF_PW_FORMAT_NV12;
    case SPA_VIDEO_FORMAT_RGBx: return VF_PW_FORMAT_RGBX;
    case SPA_VIDEO_FORMAT_BGRx: return VF_PW_FORMAT_BGRX;
    case SPA_VIDEO_FORMAT_RGBA: return VF_PW_FORMAT_RGBA;
    case SPA_VIDEO_FORMAT_BGRA: return VF_PW_FORMAT_BGRA;
    case SPA_VIDEO_FORMAT_RGB: return VF_PW_FORMAT_RGB;
    case SPA_VIDEO_FORMAT_BGR: return VF_PW_FORMAT_BGR;
    case SPA_VIDEO_FORMAT_GRAY8: return VF_PW_FORMAT_GRAY8;
    default: return VF_PW_FORMAT_UNKNOWN;
    }
}

// MARK: - Connecting

void vf_pw_halt(struct vf_pw_connection *c) {
    if (!c->loop || c->halted) return;
    c->halted = 1;
    pw_thread_loop_unlock(c->loop);
    pw_thread_loop_stop(c->loop);
}

void vf_pw_disconnect(struct vf_pw_connection *c) {
    // The loop's thread ends before anything it serves is freed: freed with the lock held, a
    // thread that was waking from its poll went on to dispatch events of sources already
    // gone (a crash seen when recordings ended on a loaded machine).
    vf_pw_halt(c);
    if (c->core) {
        spa_hook_remove(&c->core_listener);
        pw_core_disconnect(c->core);
        c->core = NULL;
    }
    if (c->context) {
        pw_context_destroy(c->context);
        c->context = NULL;
    }
    if (c->loop) {
        pw_thread_loop_destroy(c->loop);
        c->loop = NULL;
    }
}

static void on_core_error(void *data, uint32_t id, int seq, int res, const char *message) {
    struct vf_pw_connection *c = data;
    if (id != PW_ID_CORE) return;
    c->core_error = res < 0 ? res : -EIO;
    snprintf(c->core_message, sizeof c->core_message, "%s", message ? message : spa_strerror(res));
    pw_thread_loop_signal(c->loop, false);
}

int vf_pw_connect(struct vf_pw_connection *c, int fd, const struct pw_core_events *events, void *data) {
    vf_pw_start();
    memset(c, 0, sizeof *c);
    c->loop = pw_thread_loop_new("viewfinder-pipewire", NULL);
    if (!c->loop) {
        if (fd >= 0) close(fd);
        return -ENOMEM;
    }
    pw_thread_loop_lock(c->loop);
    int status = pw_thread_loop_start(c->loop);
    if (status < 0) {
        if (fd >= 0) close(fd);
        vf_pw_disconnect(c);
        return status;
    }
    c->context = pw_context_new(pw_thread_loop_get_loop(c->loop), NULL, 0);
    if (!c->context) {
        status = -errno;
        if (fd >= 0) close(fd);
        vf_pw_disconnect(c);
        return status ? status : -ENOMEM;
    }
    c->core = fd >= 0 ? pw_context_connect_fd(c->context, fd, NULL, 0) : pw_context_connect(c->context, NULL, 0);
    if (!c->core) {
        status = -errno;
        vf_pw_disconnect(c);
        return status ? status : -ECONNREFUSED;
    }
    pw_core_add_listener(c->core, &c->core_listener, events, data);
    return 0;
}

/// Waits on the (locked) loop until `done` is set or the deadline passes: 0, or -ETIMEDOUT.
static int wait_until(struct pw_thread_loop *loop, const int *done, const int *error, struct timespec *deadline) {
    while (!*done && !*error) {
        if (pw_thread_loop_timed_wait_full(loop, deadline) == -ETIMEDOUT && !*done && !*error) return -ETIMEDOUT;
    }
    return 0;
}

// MARK: - Listing

struct node_entry {
    struct pw_proxy *proxy;
    struct spa_hook listener;
    vf_pw_camera *camera;
};

struct listing {
    struct vf_pw_connection connection;
    struct pw_registry *registry;
    struct spa_hook registry_listener;
    vf_pw_camera *out;
    int capacity, count;
    struct node_entry nodes[64];
    int node_count;
    int first_sync, second_sync;
    int done;
};

static void add_size(vf_pw_camera *camera, int width, int height) {
    if (width <= 0 || height <= 0) return;
    for (int i = 0; i < camera->size_count; i++)
        if (camera->width[i] == width && camera->height[i] == height) return;
    if (camera->size_count >= VF_PW_MAX_SIZES) return;
    camera->width[camera->size_count] = width;
    camera->height[camera->size_count] = height;
    camera->size_count++;
}

static void add_rate(vf_pw_camera *camera, struct spa_fraction rate) {
    if (rate.num == 0 || rate.denom == 0) return;
    int fps = (int)((rate.num + rate.denom / 2) / rate.denom);
    if (fps <= 0) return;
    for (int i = 0; i < camera->rate_count; i++)
        if (camera->fps[i] == fps) return;
    if (camera->rate_count < VF_PW_MAX_RATES) camera->fps[camera->rate_count++] = fps;
}

static void add_vf_format(vf_pw_camera *camera, vf_pw_format format) {
    if (format == VF_PW_FORMAT_UNKNOWN) return;
    for (int i = 0; i < camera->format_count; i++)
        if (camera->formats[i] == format) return;
    if (camera->format_count < VF_PW_MAX_FORMATS) camera->formats[camera->format_count++] = format;
}

static void add_format(vf_pw_camera *camera, uint32_t spa) {
    add_vf_format(camera, vf_pw_format_from_spa(spa));
}

/// The values a property offers: one (no choice), or the default then the alternatives (an
/// enum), or the default, the minimum and the maximum (a range; steps are not walked).
static const void *offered(const struct spa_pod *value, uint32_t *count, uint32_t *type, uint32_t *size) {
    uint32_t choice = SPA_CHOICE_None;
    const struct spa_pod *values = spa_pod_get_values(value, count, &choice);
    if (!values || *count == 0) return NULL;
    *type = values->type;
    *size = values->size;
    if (choice == SPA_CHOICE_Flags) return NULL;
    return SPA_POD_BODY_CONST(values);
}

static void on_node_param(void *data, int seq, uint32_t id, uint32_t index, uint32_t next, const struct spa_pod *param) {
    struct node_entry *entry = data;
    if (id != SPA_PARAM_EnumFormat || !param || !spa_pod_is_object(param)) return;
    uint32_t media_type = 0, media_subtype = 0;
    if (spa_format_parse(param, &media_type, &media_subtype) < 0) return;
    if (media_type != SPA_MEDIA_TYPE_video) return;
    if (media_subtype != SPA_MEDIA_SUBTYPE_raw && media_subtype != SPA_MEDIA_SUBTYPE_mjpg) return;
    if (media_subtype == SPA_MEDIA_SUBTYPE_mjpg) add_vf_format(entry->camera, VF_PW_FORMAT_MJPG);
    const struct spa_pod_object *object = (const struct spa_pod_object *)param;
    const struct spa_pod_prop *prop;
    SPA_POD_OBJECT_FOREACH(object, prop) {
        uint32_t count = 0, type = 0, size = 0;
        const uint8_t *values = offered(&prop->value, &count, &type, &size);
        if (!values) continue;
        for (uint32_t i = 0; i < count; i++) {
            const void *value = values + (size_t)i * size;
            if (prop->key == SPA_FORMAT_VIDEO_format && type == SPA_TYPE_Id) {
                add_format(entry->camera, *(const uint32_t *)value);
            } else if (prop->key == SPA_FORMAT_VIDEO_size && type == SPA_TYPE_Rectangle) {
                const struct spa_rectangle *r = value;
                add_size(entry->camera, (int)r->width, (int)r->height);
            } else if (prop->key == SPA_FORMAT_VIDEO_framerate && type == SPA_TYPE_Fraction) {
                add_rate(entry->camera, *(const struct spa_fraction *)value);
            }
        }
    }
}

/// The node's full properties: the registry announces a few, libcamera's location is not among them.
static void on_node_info(void *data, const struct pw_node_info *info) {
    struct node_entry *entry = data;
    if (!info || !info->props) return;
    const char *location = spa_dict_lookup(info->props, "api.libcamera.location");
    if (location) snprintf(entry->camera->location, sizeof entry->camera->location, "%s", location);
}

static const struct pw_node_events node_events = {
    PW_VERSION_NODE_EVENTS,
    .info = on_node_info,
    .param = on_node_param,
};

static void copy_text(char *target, size_t size, const char *text) {
    snprintf(target, size, "%s", text ? text : "");
}

static void on_global(void *data, uint32_t id, uint32_t permissions, const char *type, uint32_t version,
                      const struct spa_dict *props) {
    struct listing *l = data;
    if (strcmp(type, PW_TYPE_INTERFACE_Node) != 0 || !props) return;
    const char *media_class = spa_dict_lookup(props, PW_KEY_MEDIA_CLASS);
    if (!media_class || strcmp(media_class, "Video/Source") != 0) return;
    if (l->count >= l->capacity || l->node_count >= (int)SPA_N_ELEMENTS(l->nodes)) return;
    vf_pw_camera *camera = &l->out[l->count++];
    memset(camera, 0, sizeof *camera);
    camera->node_id = id;
    const char *name = spa_dict_lookup(props, PW_KEY_NODE_NAME);
    const char *description = spa_dict_lookup(props, PW_KEY_NODE_DESCRIPTION);
    if (!description) description = spa_dict_lookup(props, PW_KEY_NODE_NICK);
    copy_text(camera->name, sizeof camera->name, name);
    copy_text(camera->description, sizeof camera->description, description ? description : name);
    copy_text(camera->location, sizeof camera->location, spa_dict_lookup(props, "api.libcamera.location"));
    struct node_entry *entry = &l->nodes[l->node_count];
    entry->camera = camera;
    entry->proxy = pw_registry_bind(l->registry, id, PW_TYPE_INTERFACE_Node, PW_VERSION_NODE, 0);
    if (!entry->proxy) return;
    l->node_count++;
    pw_proxy_add_object_listener(entry->proxy, &entry->listener, &node_events, entry);
    pw_node_enum_params((struct pw_node *)entry->proxy, 0, SPA_PARAM_EnumFormat, 0, UINT32_MAX, NULL);
    pw_thread_loop_signal(l->connection.loop, false);
}

static const struct pw_registry_events registry_events = {
    PW_VERSION_REGISTRY_EVENTS,
    .global = on_global,
};

static void on_listing_done(void *data, uint32_t id, int seq) {
    struct listing *l = data;
    if (id != PW_ID_CORE) return;
    if (seq == l->first_sync) {
        // Every global is announced; the formats asked of them come before this second answer.
        l->second_sync = pw_core_sync(l->connection.core, PW_ID_CORE, 0);
    } else if (seq == l->second_sync) {
        l->done = 1;
        pw_thread_loop_signal(l->connection.loop, false);
    }
}

static const struct pw_core_events listing_core_events = {
    PW_VERSION_CORE_EVENTS,
    .done = on_listing_done,
    .error = on_core_error,
};

int vf_pw_list_cameras(int fd, vf_pw_camera *out, int capacity, int timeout_ms, int settle_ms) {
    struct listing *l = calloc(1, sizeof *l);
    if (!l) {
        if (fd >= 0) close(fd);
        return -ENOMEM;
    }
    l->out = out;
    l->capacity = capacity;
    int status = vf_pw_connect(&l->connection, fd, &listing_core_events, l);
    if (status < 0) {
        free(l);
        return status;
    }
    struct timespec deadline;
    pw_thread_loop_get_time(l->connection.loop, &deadline, (int64_t)timeout_ms * SPA_NSEC_PER_MSEC);
    l->registry = pw_core_get_registry(l->connection.core, PW_VERSION_REGISTRY, 0);
    if (l->registry) {
        pw_registry_add_listener(l->registry, &l->registry_listener, &registry_events, l);
        l->first_sync = pw_core_sync(l->connection.core, PW_ID_CORE, 0);
        status = wait_until(l->connection.loop, &l->done, &l->connection.core_error, &deadline);
        if (status == 0 && l->count == 0 && settle_ms > 0) {
            // A portal's connection sees cameras only once the session manager has given it the
            // right to, which may come after the first answer: wait for a camera to appear,
            // then for its formats.
            struct timespec settled;
            pw_thread_loop_get_time(l->connection.loop, &settled, (int64_t)settle_ms * SPA_NSEC_PER_MSEC);
            while (l->count == 0 && !l->connection.core_error) {
                if (pw_thread_loop_timed_wait_full(l->connection.loop, &settled) == -ETIMEDOUT) break;
            }
            if (l->count > 0) {
                l->done = 0;
                l->first_sync = -1;
                l->second_sync = pw_core_sync(l->connection.core, PW_ID_CORE, 0);
                status = wait_until(l->connection.loop, &l->done, &l->connection.core_error, &deadline);
            }
        }
        if (status == 0 && l->connection.core_error) status = l->connection.core_error;
    } else {
        status = -ENOMEM;
    }
    vf_pw_halt(&l->connection);
    for (int i = 0; i < l->node_count; i++) {
        spa_hook_remove(&l->nodes[i].listener);
        pw_proxy_destroy(l->nodes[i].proxy);
    }
    if (l->registry) {
        spa_hook_remove(&l->registry_listener);
        pw_proxy_destroy((struct pw_proxy *)l->registry);
    }
    vf_pw_disconnect(&l->connection);
    int count = l->count;
    free(l);
    return status < 0 ? status : count;
}
