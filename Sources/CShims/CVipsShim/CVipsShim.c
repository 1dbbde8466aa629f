#include <string.h>
#include "CVipsShim.h"
#include <lcms2.h>
#include <vips/vips.h>

static void vf_vips_quiet_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    // libvips reports damaged input through g_log warnings as well as through its error
    // buffer; the error buffer is what we show, so the duplicates on stderr are dropped.
    (void)domain; (void)level; (void)message; (void)data;
}

int vf_vips_start(const char *program_name, int load_modules) {
    // libvips looks for its modules under $VIPSHOME; pointing it nowhere for the length of
    // the start skips them (and the libraries they pull in, ImageMagick among them).
    gchar *saved = g_strdup(g_getenv("VIPSHOME"));
    if (!load_modules) g_setenv("VIPSHOME", "/nonexistent/viewfinder-no-modules", TRUE);
    int status = VIPS_INIT(program_name ? program_name : "viewfinder");
    if (!load_modules) {
        if (saved) g_setenv("VIPSHOME", saved, TRUE); else g_unsetenv("VIPSHOME");
    }
    g_free(saved);
    if (status != 0) return -1;
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

/// The loaders Viewfinder opens files with, asked in this order. libvips' own search
/// (vips_foreign_find_load, which vips_image_new_from_file uses) asks every loader it has, and
/// OpenSlide's vendor detection, run on every TIFF, allocates what a crafted header declares
/// (FuzzPhotoProbe found 2 GB for an 889-byte TIFF); ImageMagick's claims almost anything. Neither
/// is asked.
static const char *const trusted_loaders[] = {
    "jpegload", "pngload", "webpload", "gifload", "heifload", "tiffload", "svgload", "pdfload",
    "jp2kload", "jxlload", "ppmload", "radload", "fitsload", "openexrload", "vipsload", "matrixload", NULL,
};

const char *vf_vips_loader_for(const char *path) {
    for (const char *const *loader = trusted_loaders; *loader; loader++) {
        if (!vips_type_find("VipsOperation", *loader)) continue;
        if (vips_foreign_is_a(*loader, path)) return *loader;
    }
    vips_error_clear();
    return NULL;
}

/// Opens `path` with its trusted loader and the options given (name/value pairs, NULL-ended).
static VipsImage *load_with(const char *loader, const char *path, VipsAccess access, VipsFailOn fail_on,
                            const char *extra, double value) {
    VipsImage *out = NULL;
    int status;
    if (extra && strcmp(extra, "shrink") == 0) {
        status = vips_call(loader, path, &out, "access", access, "fail_on", fail_on, "shrink", (int)value, NULL);
    } else if (extra && strcmp(extra, "scale") == 0) {
        status = vips_call(loader, path, &out, "access", access, "fail_on", fail_on, "scale", value, NULL);
    } else {
        status = vips_call(loader, path, &out, "access", access, "fail_on", fail_on, NULL);
    }
    return status == 0 ? out : NULL;
}

VipsImage *vf_vips_open_header(const char *path) {
    const char *loader = vf_vips_loader_for(path);
    if (!loader) {
        vips_error("viewfinder", "not a known image format");
        return NULL;
    }
    return load_with(loader, path, VIPS_ACCESS_SEQUENTIAL, VIPS_FAIL_ON_NONE, NULL, 0);
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

int vf_vips_save_jpeg(VipsImage *image, int quality, int half_chroma, void **buffer, size_t *length) {
    return vips_jpegsave_buffer(image, buffer, length, "Q", quality, "optimize_coding", TRUE, "strip", TRUE,
                                "subsample_mode", half_chroma ? VIPS_FOREIGN_SUBSAMPLE_ON : VIPS_FOREIGN_SUBSAMPLE_AUTO, NULL);
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

VipsImage *vf_vips_load(const char *path, int shrink, int sequential) {
    const char *nick = vf_vips_loader_for(path);
    if (!nick) {
        vips_error("viewfinder", "not a known image format");
        return NULL;
    }
    VipsAccess access = sequential ? VIPS_ACCESS_SEQUENTIAL : VIPS_ACCESS_RANDOM;
    // A truncated file is an error, not a picture with a grey bottom half; mere warnings
    // (a phone's stray bytes after a marker) are tolerated.
    VipsFailOn fail_on = VIPS_FAIL_ON_TRUNCATED;
    if (shrink > 1 && strcmp(nick, "jpegload") == 0) return load_with(nick, path, access, fail_on, "shrink", shrink);
    if (shrink > 1 && strcmp(nick, "webpload") == 0) return load_with(nick, path, access, fail_on, "scale", 1.0 / shrink);
    return load_with(nick, path, access, fail_on, NULL, 0);
}

VipsImage *vf_vips_autorotate(VipsImage *image) {
    VipsImage *out = NULL;
    return vips_autorot(image, &out, NULL) == 0 ? out : NULL;
}


int vf_vips_profile(VipsImage *image, char *name, size_t size) {
    if (size > 0) name[0] = 0;
    if (!vips_image_get_typeof(image, VIPS_META_ICC_NAME)) return 0;
    const void *data = NULL;
    size_t length = 0;
    if (vips_image_get_blob(image, VIPS_META_ICC_NAME, &data, &length) != 0 || !data || length < 132) {
        vips_error_clear();
        return -1;
    }
    cmsHPROFILE profile = cmsOpenProfileFromMem(data, (cmsUInt32Number)length);
    if (!profile) return -1;
    // A profile must describe the image's own colours: an RGB one for colour, a grey one for
    // grey, a CMYK one for CMYK.
    cmsColorSpaceSignature space = cmsGetColorSpace(profile);
    int bands = vips_image_get_bands(image);
    VipsInterpretation kind = vips_image_get_interpretation(image);
    int fits = kind == VIPS_INTERPRETATION_CMYK ? space == cmsSigCmykData
        : (bands >= 3 ? space == cmsSigRgbData : space == cmsSigGrayData);
    if (size > 0) cmsGetProfileInfoASCII(profile, cmsInfoDescription, "en", "US", name, (cmsUInt32Number)size);
    cmsCloseProfile(profile);
    return fits ? 1 : -1;
}

VipsImage *vf_vips_to_srgb8(VipsImage *image) {
    VipsImage *current = image;
    g_object_ref(current);
    VipsInterpretation kind = vips_image_get_interpretation(current);
    VipsImage *next = NULL;
    char unused[8];
    int profile = vf_vips_profile(current, unused, 0);
    if (kind == VIPS_INTERPRETATION_CMYK) {
        // CMYK has no meaning without a profile: use the embedded one, else libvips' own.
        int status = profile == 1
            ? vips_icc_import(current, &next, "embedded", TRUE, "pcs", VIPS_PCS_XYZ, NULL)
            : vips_icc_import(current, &next, "input_profile", "cmyk", "pcs", VIPS_PCS_XYZ, NULL);
        g_object_unref(current);
        if (status != 0) return NULL;
        current = next;
    } else if (profile == 1) {
        // Wide-gamut and other tagged photos (Display P3, Adobe RGB): from their profile to
        // sRGB with LittleCMS, relative colorimetric as browsers do. A profile LittleCMS
        // refuses leaves the photo read as sRGB (the caller learns of it from vf_vips_profile).
        if (vips_icc_transform(current, &next, "srgb", "embedded", TRUE, "intent", VIPS_INTENT_RELATIVE, NULL) == 0) {
            g_object_unref(current);
            current = next;
        } else {
            vips_error_clear();
        }
    }
    if (vips_colourspace(current, &next, VIPS_INTERPRETATION_sRGB, NULL) != 0) {
        g_object_unref(current);
        return NULL;
    }
    g_object_unref(current);
    current = next;
    if (vips_image_get_format(current) != VIPS_FORMAT_UCHAR) {
        if (vips_cast(current, &next, VIPS_FORMAT_UCHAR, NULL) != 0) {
            g_object_unref(current);
            return NULL;
        }
        g_object_unref(current);
        current = next;
    }
    return current;
}

VipsImage *vf_vips_crop(VipsImage *image, int left, int top, int width, int height) {
    VipsImage *out = NULL;
    return vips_extract_area(image, &out, left, top, width, height, NULL) == 0 ? out : NULL;
}

VipsImage *vf_vips_resize(VipsImage *image, double hscale, double vscale) {
    VipsImage *out = NULL;
    if (!vips_image_hasalpha(image)) {
        return vips_resize(image, &out, hscale, "vscale", vscale, "kernel", VIPS_KERNEL_LANCZOS3, NULL) == 0 ? out : NULL;
    }
    // Resample colour weighted by coverage, or transparent pixels bleed their (meaningless)
    // colour into the edge as a dark or light fringe.
    VipsImage *pre = NULL, *scaled = NULL, *post = NULL;
    if (vips_premultiply(image, &pre, NULL) != 0) return NULL;
    int status = vips_resize(pre, &scaled, hscale, "vscale", vscale, "kernel", VIPS_KERNEL_LANCZOS3, NULL);
    g_object_unref(pre);
    if (status != 0) return NULL;
    status = vips_unpremultiply(scaled, &post, NULL);
    g_object_unref(scaled);
    if (status != 0) return NULL;
    status = vips_cast(post, &out, VIPS_FORMAT_UCHAR, NULL);
    g_object_unref(post);
    return status == 0 ? out : NULL;
}

VipsImage *vf_vips_flatten_white(VipsImage *image) {
    // One background value serves every colour band; grey comes out as three equal bands,
    // so a flattened picture is always RGB.
    VipsImage *flat = NULL;
    VipsArrayDouble *background = vips_array_double_newv(1, 255.0);
    int status = vips_flatten(image, &flat, "background", background, NULL);
    vips_area_unref(VIPS_AREA(background));
    if (status != 0) return NULL;
    if (vips_image_get_bands(flat) != 1) return flat;
    VipsImage *copies[3] = {flat, flat, flat};
    VipsImage *rgb = NULL;
    status = vips_bandjoin(copies, &rgb, 3, NULL);
    g_object_unref(flat);
    return status == 0 ? rgb : NULL;
}

int vf_vips_pixels(VipsImage *image, void **buffer, size_t *length) {
    *buffer = vips_image_write_to_memory(image, length);
    return *buffer ? 0 : -1;
}

int vf_vips_metadata_string(VipsImage *image, const char *name, char *buffer, size_t size) {
    const char *value = NULL;
    if (!vips_image_get_typeof(image, name) || vips_image_get_string(image, name, &value) != 0 || !value) {
        vips_error_clear();
        return -1;
    }
    g_strlcpy(buffer, value, size);
    return 0;
}

int vf_vips_exif_blob(VipsImage *image, void **data, size_t *length) {
    const void *blob = NULL;
    size_t size = 0;
    if (!vips_image_get_typeof(image, VIPS_META_EXIF_NAME) || vips_image_get_blob(image, VIPS_META_EXIF_NAME, &blob, &size) != 0 || !blob || size == 0) {
        vips_error_clear();
        return -1;
    }
    *data = g_memdup2(blob, size);
    *length = size;
    return 0;
}

int vf_vips_save_jpeg_dated(VipsImage *image, int quality, const char *date, void **buffer, size_t *length) {
    VipsImage *copy = NULL;
    if (vips_copy(image, &copy, NULL) != 0) return -1;
    // libvips builds the EXIF block from exif-* fields when it saves.
    vips_image_set_string(copy, "exif-ifd0-DateTime", date);
    vips_image_set_string(copy, "exif-ifd2-DateTimeOriginal", date);
    int status = vips_jpegsave_buffer(copy, buffer, length, "Q", quality, "optimize_coding", TRUE, NULL);
    g_object_unref(copy);
    return status;
}
