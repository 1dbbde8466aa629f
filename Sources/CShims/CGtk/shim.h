#ifndef VIEWFINDER_CGTK_SHIM_H
#define VIEWFINDER_CGTK_SHIM_H
// GTK 4 (4.8 on Debian 12) for StudioKit. GTK's type-check casts and g_signal_connect are
// macros, which Swift cannot call, so the few the app needs are written out as functions here.
#include <gtk/gtk.h>
#include <pango/pangocairo.h>
#include <math.h>
#include <dlfcn.h>

/// Connects `handler` (a C function with the signal's own signature) to `signal` of `instance`,
/// passing `data`; `destroy` runs when the handler is disconnected or the instance finalized.
static inline unsigned long vf_signal_connect(void *instance, const char *signal, GCallback handler,
                                              void *data, GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, handler, data, destroy, (GConnectFlags)0);
}

static inline GObject *vf_object(void *p) { return G_OBJECT(p); }
static inline GtkWidget *vf_widget(void *p) { return GTK_WIDGET(p); }
static inline GtkWindow *vf_window(void *p) { return GTK_WINDOW(p); }
static inline GtkBox *vf_box(void *p) { return GTK_BOX(p); }
static inline GtkLabel *vf_label(void *p) { return GTK_LABEL(p); }
static inline GtkButton *vf_button(void *p) { return GTK_BUTTON(p); }
static inline GtkDrawingArea *vf_drawing_area(void *p) { return GTK_DRAWING_AREA(p); }
static inline GtkOverlay *vf_overlay(void *p) { return GTK_OVERLAY(p); }
static inline GtkStack *vf_stack(void *p) { return GTK_STACK(p); }
static inline GtkFlowBox *vf_flow_box(void *p) { return GTK_FLOW_BOX(p); }
static inline GtkApplication *vf_application(void *p) { return GTK_APPLICATION(p); }
static inline GApplication *vf_gapplication(void *p) { return G_APPLICATION(p); }
static inline GtkEventController *vf_controller(void *p) { return GTK_EVENT_CONTROLLER(p); }
static inline GtkGesture *vf_gesture(void *p) { return GTK_GESTURE(p); }
static inline GtkHeaderBar *vf_header_bar(void *p) { return GTK_HEADER_BAR(p); }
static inline GtkScrolledWindow *vf_scrolled(void *p) { return GTK_SCROLLED_WINDOW(p); }
static inline GtkPicture *vf_picture(void *p) { return GTK_PICTURE(p); }
static inline GdkPaintable *vf_paintable(void *p) { return GDK_PAINTABLE(p); }
static inline GtkFileChooser *vf_file_chooser(void *p) { return GTK_FILE_CHOOSER(p); }
static inline GtkNativeDialog *vf_native_dialog(void *p) { return GTK_NATIVE_DIALOG(p); }
static inline GtkToggleButton *vf_toggle(void *p) { return GTK_TOGGLE_BUTTON(p); }
static inline GtkGridView *vf_grid_view(void *p) { return GTK_GRID_VIEW(p); }
static inline GtkListItem *vf_list_item(void *p) { return GTK_LIST_ITEM(p); }
static inline GListModel *vf_list_model(void *p) { return G_LIST_MODEL(p); }
static inline GtkSelectionModel *vf_selection_model(void *p) { return GTK_SELECTION_MODEL(p); }
static inline GtkRange *vf_range(void *p) { return GTK_RANGE(p); }
static inline GtkScale *vf_scale(void *p) { return GTK_SCALE(p); }
static inline GtkProgressBar *vf_progress_bar(void *p) { return GTK_PROGRESS_BAR(p); }
static inline GMenuModel *vf_menu_model(void *p) { return G_MENU_MODEL(p); }
static inline int vf_is_shortcuts_shortcut(void *p) { return GTK_IS_SHORTCUTS_SHORTCUT(p); }
static inline int vf_is_box(void *p) { return GTK_IS_BOX(p); }
static inline int vf_is_flow_box_child(void *p) { return GTK_IS_FLOW_BOX_CHILD(p); }

/// Turns on the focus ring of the window holding `widget` (GTK shows it only after a key press).
static inline void vf_show_focus_ring(void *widget) {
    GtkRoot *root = gtk_widget_get_root(GTK_WIDGET(widget));
    if (root && GTK_IS_WINDOW(root)) gtk_window_set_focus_visible(GTK_WINDOW(root), TRUE);
}

/// Sets the name a screen reader says for a widget (gtk_accessible_update_property is variadic).
static inline void vf_set_accessible_label(void *widget, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

/// Sets the longer description a screen reader gives for a widget.
static inline void vf_set_accessible_description(void *widget, const char *text) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}

/// The value of a ranged widget (a slider, a progress bar) as a screen reader reads it.
static inline void vf_set_accessible_value(void *widget, double minimum, double maximum, double now, const char *text) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_VALUE_MIN, minimum,
                                   GTK_ACCESSIBLE_PROPERTY_VALUE_MAX, maximum, GTK_ACCESSIBLE_PROPERTY_VALUE_NOW, now,
                                   GTK_ACCESSIBLE_PROPERTY_VALUE_TEXT, text, -1);
}

/// A widget's selected or checked state as a screen reader reads it.
static inline void vf_set_accessible_selected(void *widget, int selected) {
    gtk_accessible_update_state(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_STATE_SELECTED, selected ? TRUE : FALSE, -1);
}

/// A label a screen reader treats as an alert: it speaks the label's words when it is shown
/// (the accessible role is fixed at construction, so it cannot be set on a plain label later).
static inline GtkWidget *vf_alert_label_new(void) {
    return GTK_WIDGET(g_object_new(GTK_TYPE_LABEL, "accessible-role", GTK_ACCESSIBLE_ROLE_ALERT, NULL));
}

/// GTK 4.14's gtk_accessible_announce, when the GTK the program runs with has it (looked up
/// then: 4.8 has none); returns 0 when it does not, 1 when the reader was told `message`.
static inline int vf_accessible_announce(void *widget, const char *message) {
    typedef void (*announce_t)(GtkAccessible *, const char *, int);
    static announce_t announce;
    static int looked;
    if (!looked) {
        announce = (announce_t)dlsym(RTLD_DEFAULT, "gtk_accessible_announce");
        looked = 1;
    }
    if (!announce) return 0;
    announce(GTK_ACCESSIBLE(widget), message, 1);  // GTK_ACCESSIBLE_ANNOUNCEMENT_PRIORITY_MEDIUM
    return 1;
}

/// The n-th file of a dropped GdkFileList value, or NULL past the end (borrowed, not owned).
static inline GFile *vf_dropped_file(const GValue *value, unsigned index) {
    if (!G_VALUE_HOLDS(value, GDK_TYPE_FILE_LIST)) return NULL;
    GSList *files = g_value_get_boxed(value);
    return g_slist_nth_data(files, index);
}

/// A drop target that takes files from the file manager.
static inline GtkDropTarget *vf_file_drop_target_new(void) {
    return gtk_drop_target_new(GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
}

// MARK: GtkFixed children placed by a projective mapping (Motion on widgets)

static inline GtkFixed *vf_fixed(void *p) { return GTK_FIXED(p); }

/// Places `child` of `fixed` so that its point (x, y) lands at ((m0·x + m1·y + m2) / w,
/// (m3·x + m4·y + m5) / w), w = m6·x + m7·y + m8 (`m` row by row).
///
/// An affine mapping is built from GSK's 2D steps — translate · rotate · skew · scale, its QR
/// decomposition — because GSK only knows a transform is 2D from how it was made, and GTK's
/// Cairo renderer draws nothing but 2D transforms. Any other mapping is lifted to the 4×4
/// matrix that leaves z alone (graphene multiplies row vectors, hence the transpose), which the
/// GL and Vulkan renderers draw.
static inline void vf_fixed_place(GtkFixed *fixed, GtkWidget *child, const double m[9]) {
    GskTransform *transform = NULL;
    double a = m[0], b = m[3], c = m[1], d = m[4];
    double sx = hypot(a, b);
    if (m[6] == 0 && m[7] == 0 && m[8] == 1 && sx > 0) {
        double angle = atan2(b, a);
        double shear = (a * c + b * d) / sx, sy = (a * d - b * c) / sx;
        graphene_point_t offset = GRAPHENE_POINT_INIT((float)m[2], (float)m[5]);
        transform = gsk_transform_translate(transform, &offset);
        transform = gsk_transform_rotate(transform, (float)(angle * 180 / G_PI));
        if (sy != 0 && shear != 0) transform = gsk_transform_skew(transform, (float)(atan(shear / sy) * 180 / G_PI), 0);
        transform = gsk_transform_scale(transform, (float)sx, (float)sy);
    } else {
        float f[16] = {
            (float)m[0], (float)m[3], 0, (float)m[6],
            (float)m[1], (float)m[4], 0, (float)m[7],
            0, 0, 1, 0,
            (float)m[2], (float)m[5], 0, (float)m[8],
        };
        graphene_matrix_t matrix;
        graphene_matrix_init_from_float(&matrix, f);
        transform = gsk_transform_matrix(NULL, &matrix);
    }
    gtk_fixed_set_child_transform(fixed, child, transform);
    gsk_transform_unref(transform);
}

/// Whether the renderer of the window `widget` is in draws 3D transforms: GTK's GL and Vulkan
/// renderers do; its Cairo renderer paints such a node as a pink box (GTK 4.8). False when the
/// widget is in no window yet.
static inline int vf_renders_projective(GtkWidget *widget) {
    GtkNative *native = gtk_widget_get_native(widget);
    if (native == NULL) return 0;
    GskRenderer *renderer = gtk_native_get_renderer(native);
    if (renderer == NULL) return 0;
    return g_strcmp0(G_OBJECT_TYPE_NAME(renderer), "GskCairoRenderer") != 0;
}

#endif
