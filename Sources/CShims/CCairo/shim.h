#ifndef VIEWFINDER_CCAIRO_SHIM_H
#define VIEWFINDER_CCAIRO_SHIM_H
// Cairo's public API only: image surfaces, paths, patterns and groups. No glib is needed.
#include <cairo.h>
#include <math.h>

/// Adds a closed rectangle with corners of radius `r` to the path — clamped to half the shorter
/// side; a plain rectangle when `r` is not positive. The one rounded rectangle every drawer
/// (layers, the HUD, the app's screens) uses.
static inline void vf_cairo_rounded_rectangle(cairo_t *cr, double x, double y, double w, double h, double r) {
    double half = (w < h ? w : h) / 2;
    if (!(r > 0) || !(half > 0)) { cairo_rectangle(cr, x, y, w, h); return; }
    if (r > half) r = half;
    cairo_new_sub_path(cr);
    cairo_arc(cr, x + w - r, y + r, r, -M_PI / 2, 0);
    cairo_arc(cr, x + w - r, y + h - r, r, 0, M_PI / 2);
    cairo_arc(cr, x + r, y + h - r, r, M_PI / 2, M_PI);
    cairo_arc(cr, x + r, y + r, r, M_PI, 3 * M_PI / 2);
    cairo_close_path(cr);
}
#endif
