// The Camera portal (org.freedesktop.portal.Camera) over GDBus, on a private connection and a
// main context of our own, so an app's GTK loop and shared bus are left alone.
#include "CPipeWireShim.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <gio/gio.h>
#include <gio/gunixfdlist.h>

#define PORTAL_NAME "org.freedesktop.portal.Desktop"
#define PORTAL_PATH "/org/freedesktop/portal/desktop"
#define CAMERA_INTERFACE "org.freedesktop.portal.Camera"

struct answer {
    int received;
    guint32 response;
    int timed_out;
};

static void on_response(GDBusConnection *connection, const gchar *sender, const gchar *path, const gchar *interface,
                        const gchar *signal, GVariant *parameters, gpointer data) {
    struct answer *answer = data;
    GVariant *results = NULL;
    g_variant_get(parameters, "(u@a{sv})", &answer->response, &results);
    if (results) g_variant_unref(results);
    answer->received = 1;
}

static gboolean on_timeout(gpointer data) {
    struct answer *answer = data;
    answer->timed_out = 1;
    return G_SOURCE_REMOVE;
}

/// Whether the error says no portal (or no Camera interface) is there to ask.
static int is_missing(const GError *error) {
    return g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN)
        || g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_NAME_HAS_NO_OWNER)
        || g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_METHOD)
        || g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_INTERFACE)
        || g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_OBJECT);
}

static vf_portal_result failure(GError *error, char *message, size_t size) {
    int missing = is_missing(error);
    // The portal refuses with org.freedesktop.portal.Error.NotAllowed.
    gchar *remote = g_dbus_error_get_remote_error(error);
    int refused = remote && strcmp(remote, "org.freedesktop.portal.Error.NotAllowed") == 0;
    g_free(remote);
    g_dbus_error_strip_remote_error(error);
    snprintf(message, size, "%s", error->message);
    g_error_free(error);
    return refused ? VF_PORTAL_DENIED : missing ? VF_PORTAL_UNAVAILABLE : VF_PORTAL_FAILED;
}

/// AccessCamera, then the Response its request object sends.
static vf_portal_result ask_access(GDBusConnection *bus, GMainContext *context, int timeout_ms, char *message, size_t size) {
    gchar *token = g_strdup_printf("viewfinder%u", g_random_int());
    // The request's path is known before the call (sender without ':' and with '.' as '_'),
    // so the answer cannot come before we listen for it.
    gchar *sender = g_strdup(g_dbus_connection_get_unique_name(bus) + 1);
    for (gchar *c = sender; *c; c++) if (*c == '.') *c = '_';
    gchar *path = g_strdup_printf(PORTAL_PATH "/request/%s/%s", sender, token);
    struct answer answer = {0};
    guint subscription = g_dbus_connection_signal_subscribe(bus, PORTAL_NAME, "org.freedesktop.portal.Request", "Response",
                                                            path, NULL, G_DBUS_SIGNAL_FLAGS_NONE,
                                                            on_response, &answer, NULL);
    GVariantBuilder options;
    g_variant_builder_init(&options, G_VARIANT_TYPE_VARDICT);
    g_variant_builder_add(&options, "{sv}", "handle_token", g_variant_new_string(token));
    GError *error = NULL;
    GVariant *reply = g_dbus_connection_call_sync(bus, PORTAL_NAME, PORTAL_PATH, CAMERA_INTERFACE, "AccessCamera",
                                                  g_variant_new("(a{sv})", &options), G_VARIANT_TYPE("(o)"),
                                                  G_DBUS_CALL_FLAGS_NONE, timeout_ms, NULL, &error);
    vf_portal_result result;
    if (!reply) {
        result = failure(error, message, size);
    } else {
        g_variant_unref(reply);
        GSource *timer = g_timeout_source_new((guint)timeout_ms);
        g_source_set_callback(timer, on_timeout, &answer, NULL);
        g_source_attach(timer, context);
        while (!answer.received && !answer.timed_out) g_main_context_iteration(context, TRUE);
        g_source_destroy(timer);
        g_source_unref(timer);
        if (!answer.received) {
            snprintf(message, size, "%s", "the portal did not answer in time");
            result = VF_PORTAL_FAILED;
        } else {
            // 1 (cancelled) is what xdg-desktop-portal 1.16 answers for a camera the permission store
            // refuses, 2 what a dialog ended otherwise gives: both leave the camera closed.
            result = answer.response == 0 ? VF_PORTAL_GRANTED : VF_PORTAL_DENIED;
        }
    }
    g_dbus_connection_signal_unsubscribe(bus, subscription);
    g_free(path);
    g_free(sender);
    g_free(token);
    return result;
}

/// OpenPipeWireRemote: the descriptor of a PipeWire connection that shows the cameras.
static vf_portal_result open_remote(GDBusConnection *bus, int timeout_ms, int *fd, char *message, size_t size) {
    GVariantBuilder options;
    g_variant_builder_init(&options, G_VARIANT_TYPE_VARDICT);
    GError *error = NULL;
    GUnixFDList *fds = NULL;
    GVariant *reply = g_dbus_connection_call_with_unix_fd_list_sync(bus, PORTAL_NAME, PORTAL_PATH, CAMERA_INTERFACE,
                                                                    "OpenPipeWireRemote", g_variant_new("(a{sv})", &options),
                                                                    G_VARIANT_TYPE("(h)"), G_DBUS_CALL_FLAGS_NONE, timeout_ms,
                                                                    NULL, &fds, NULL, &error);
    if (!reply) return failure(error, message, size);
    gint32 handle = -1;
    g_variant_get(reply, "(h)", &handle);
    g_variant_unref(reply);
    int got = fds ? g_unix_fd_list_get(fds, handle, &error) : -1;
    if (fds) g_object_unref(fds);
    if (got < 0) {
        if (error) return failure(error, message, size);
        snprintf(message, size, "%s", "the portal sent no descriptor");
        return VF_PORTAL_FAILED;
    }
    *fd = got;
    return VF_PORTAL_GRANTED;
}

vf_portal_result vf_portal_open_camera(int timeout_ms, int *fd, char *message, size_t message_size) {
    *fd = -1;
    GMainContext *context = g_main_context_new();
    g_main_context_push_thread_default(context);
    GError *error = NULL;
    vf_portal_result result;
    gchar *address = g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SESSION, NULL, &error);
    GDBusConnection *bus = address ? g_dbus_connection_new_for_address_sync(
        address, G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION, NULL, NULL, &error) : NULL;
    g_free(address);
    if (!bus) {
        snprintf(message, message_size, "%s", error ? error->message : "no session bus");
        if (error) g_error_free(error);
        result = VF_PORTAL_UNAVAILABLE;
    } else {
        result = ask_access(bus, context, timeout_ms, message, message_size);
        if (result == VF_PORTAL_GRANTED) result = open_remote(bus, timeout_ms, fd, message, message_size);
        g_dbus_connection_close_sync(bus, NULL, NULL);
        g_object_unref(bus);
    }
    // Callbacks still queued for this context (none hold memory of ours) are dropped with it.
    while (g_main_context_iteration(context, FALSE)) {}
    g_main_context_pop_thread_default(context);
    g_main_context_unref(context);
    return result;
}
