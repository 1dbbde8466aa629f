// libpipewire 0.3 and SPA (Debian 12: 0.3.65). Swift code does not import this module: SPA's
// API is inline functions and macros over variable-size pods, which do not import well, so
// CPipeWireShim wraps the few calls capture needs behind plain C types.
#include <pipewire/pipewire.h>
