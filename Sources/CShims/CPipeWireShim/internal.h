// What pipewire.c shares with stream.c: a connection to a daemon on a thread loop of its own.
#ifndef VIEWFINDER_CPIPEWIRESHIM_INTERNAL_H
#define VIEWFINDER_CPIPEWIRESHIM_INTERNAL_H

#include "CPipeWireShim.h"
#include <pipewire/pipewire.h>

struct vf_pw_connection {
    struct pw_thread_loop *loop;
    struct pw_context *context;
    struct pw_core *core;
    struct spa_hook core_listener;
    int core_error;
    char core_message[256];
    /// Set once the loop's thread has been stopped (`vf_pw_halt`).
    int halted;
};

/// Starts a loop and connects (to `fd` when >= 0, which is taken over). On success returns 0
/// with the loop locked; on failure -errno, with everything freed (and `fd` closed).
int vf_pw_connect(struct vf_pw_connection *c, int fd, const struct pw_core_events *events, void *data);

/// Stops the loop's thread and waits for it to end, unlocking it (locked on entry): from then on
/// nothing runs on the loop, so what it served can be freed on this thread. Once only.
void vf_pw_halt(struct vf_pw_connection *c);

/// Halts the loop (unless done already) and frees what `vf_pw_connect` made. With the loop
/// locked on entry, or halted.
void vf_pw_disconnect(struct vf_pw_connection *c);

/// Our name for an SPA video format (VF_PW_FORMAT_UNKNOWN for one we do not read).
vf_pw_format vf_pw_format_from_spa(uint32_t format);

#endif
