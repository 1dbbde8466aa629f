#ifndef VIEWFINDER_CVIPS_SHIM_H
#define VIEWFINDER_CVIPS_SHIM_H
// Only the version header: it needs no glib include paths. Calls into libvips go through
// the CVipsShim C target, which sees the full headers.
#include <vips/version.h>
#endif
