// GIO's D-Bus client (GDBus) and its Unix descriptor lists: the Camera portal is asked through
// them. Swift code does not import this module; CPipeWireShim's portal call does.
#include <gio/gio.h>
#include <gio/gunixfdlist.h>
