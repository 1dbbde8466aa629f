#include "CVipsShim.h"
#include <vips/vips.h>

static void vf_vips_quiet_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    // libvips reports damaged input through g_log warnings as well as through its error
    // buffer; the error buffer is what we show, so the duplicates on stderr are dropped.
    (void)domain; (void)level; (void)message; (void)data;
}

int vf_vips_start(const char *program_name) {
    if (VIPS_INIT(program_name ? program_name : "viewfinder") != 0) return -1;
    if (!g_getenv("VIEWFINDER_VIPS_LOG")) {
        g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO | G_LOG_LEVEL_DEBUG,
                          vf_vips_quiet_log, NULL);
    }
    return 0;
}

const char *vf_vips_last_error(void) { return vips_error_buffer(); }
void vf_vips_clear_error(void) { vips_error_clear(); }

VipsImage *vf_vips_image_from_pixels(const void *data, size_t size, int width, int height, int bands) {
    return vips_image_new_from_memory_copy(data, size, width, height, bands, VIPS_FORMAT_UCHAR);
}

VipsImage *vf_vips_open_header(const char *path) {
    return vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
}

const char *vf_vips_loader_for(const char *path) {
    const char *type_name = vips_foreign_find_load(path);
    if (!type_name) return NULL;
    const char *nickname = vips_nickname_find(g_type_from_name(type_name));
    return nickname ? nickname : type_name;
}

int vf_vips_width(VipsImage *image) { return vips_image_get_width(image); }
int vf_vips_height(VipsImage *image) { return vips_image_get_height(image); }
int vf_vips_bands(VipsImage *image) { return vips_image_get_bands(image); }

int vf_vips_orientation(VipsImage *image) {
    int orientation = 1;
    if (vips_image_get_typeof(image, VIPS_META_ORIENTATION) &&
        vips_image_get_int(image, VIPS_META_ORIENTATION, &orientation) == 0 &&
        orientation >= 1 && orientation <= 8) {
        return orientation;
    }
    return 1;
}

int vf_vips_save_jpeg(VipsImage *image, int quality, void **buffer, size_t *length) {
    return vips_jpegsave_buffer(image, buffer, length, "Q", quality, "optimize_coding", TRUE, "strip", TRUE, NULL);
}

int vf_vips_save_png(VipsImage *image, int compression, void **buffer, size_t *length) {
    return vips_pngsave_buffer(image, buffer, length, "compression", compression, "strip", TRUE, NULL);
}

int vf_vips_save_webp(VipsImage *image, int quality, void **buffer, size_t *length) {
    return vips_webpsave_buffer(image, buffer, length, "Q", quality, "strip", TRUE, NULL);
}

void vf_vips_free_buffer(void *buffer) { g_free(buffer); }

void vf_vips_unref(VipsImage *image) {
    if (image) g_object_unref(image);
}
