#ifndef VIEWFINDER_CADWAITA_SHIM_H
#define VIEWFINDER_CADWAITA_SHIM_H
// libadwaita 1.2 (Debian 12) for StudioKit: the GNOME application window, header bar, toasts,
// leaflet and style manager. Its type-check casts are macros, so the few needed are written out.
#include <adwaita.h>

static inline AdwApplicationWindow *vf_adw_window(void *p) { return ADW_APPLICATION_WINDOW(p); }
static inline AdwHeaderBar *vf_adw_header_bar(void *p) { return ADW_HEADER_BAR(p); }
static inline AdwToastOverlay *vf_adw_toast_overlay(void *p) { return ADW_TOAST_OVERLAY(p); }
static inline AdwLeaflet *vf_adw_leaflet(void *p) { return ADW_LEAFLET(p); }
static inline AdwStatusPage *vf_adw_status_page(void *p) { return ADW_STATUS_PAGE(p); }
static inline AdwAboutWindow *vf_adw_about_window(void *p) { return ADW_ABOUT_WINDOW(p); }

#endif
