#ifndef VIEWFINDER_CCAIRO_SHIM_H
#define VIEWFINDER_CCAIRO_SHIM_H
// Cairo's public API only: image surfaces, paths, patterns and groups. No glib is needed.
#include <cairo.h>
#endif
