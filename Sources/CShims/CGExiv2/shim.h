#ifndef VIEWFINDER_CGEXIV2_SHIM_H
#define VIEWFINDER_CGEXIV2_SHIM_H
// gexiv2 (exiv2's GObject binding). Only the CExivShim C target includes it; this target exists
// so that its pkg-config module ("gexiv2") gives the shim glib's include paths and the link.
#include <gexiv2/gexiv2.h>
#endif
