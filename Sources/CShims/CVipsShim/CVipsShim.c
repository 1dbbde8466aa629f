#include <math.h>
#include <string.h>
#include "CVipsShim.h"
#include <lcms2.h>
#include <libheif/heif.h>
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

/// The tone curve of an H.273 transfer characteristic, as a display decodes it; NULL for
/// those a still cannot be shown with (PQ, HLG) or that are not known.
static cmsToneCurve *curve_for_transfer(int transfer) {
    switch (transfer) {
    case 13: { // IEC 61966-2-1 (sRGB): the piecewise curve, ICC parametric type 4.
        cmsFloat64Number p[5] = {2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045};
        return cmsBuildParametricToneCurve(NULL, 4, p);
    }
    case 1: case 6: case 14: case 15: { // BT.709 / BT.601 / BT.2020: the inverse of the camera curve.
        cmsFloat64Number p[5] = {1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081};
        return cmsBuildParametricToneCurve(NULL, 4, p);
    }
    case 4: return cmsBuildGamma(NULL, 2.2);
    case 5: return cmsBuildGamma(NULL, 2.8);
    case 8: return cmsBuildGamma(NULL, 1.0);
    default: return NULL;
    }
}

/// An ICC profile (in memory, g_malloc'd) for the colours a HEIF `colr` box of type nclx
/// declares (H.273 primaries and transfer; libheif itself applies the matrix and range when it
/// decodes). NULL when there is no nclx box, when it declares plain sRGB, or when LittleCMS
/// cannot build it. libvips reads ICC profiles from HEIF files, never nclx boxes.
static void *nclx_profile(const char *path, size_t *length) {
    struct heif_context *context = heif_context_alloc();
    if (!context) return NULL;
    void *result = NULL;
    struct heif_image_handle *handle = NULL;
    struct heif_color_profile_nclx *nclx = NULL;
    if (heif_context_read_from_file(context, path, NULL).code != heif_error_Ok
        || heif_context_get_primary_image_handle(context, &handle).code != heif_error_Ok
        || heif_image_handle_get_color_profile_type(handle) != heif_color_profile_type_nclx
        || heif_image_handle_get_nclx_color_profile(handle, &nclx).code != heif_error_Ok || !nclx) {
        goto done;
    }
    int primaries = nclx->color_primaries, transfer = nclx->transfer_characteristics;
    int srgb_primaries = primaries == 1 || primaries == 2;
    int srgb_transfer = transfer == 13 || transfer == 2;
    if (srgb_primaries && srgb_transfer) goto done;
    cmsCIExyY white = {nclx->color_primary_white_x, nclx->color_primary_white_y, 1.0};
    cmsCIExyYTRIPLE points = {
        {nclx->color_primary_red_x, nclx->color_primary_red_y, 1.0},
        {nclx->color_primary_green_x, nclx->color_primary_green_y, 1.0},
        {nclx->color_primary_blue_x, nclx->color_primary_blue_y, 1.0},
    };
    // Unspecified transfer: the sRGB curve, as a viewer assumes.
    cmsToneCurve *curve = curve_for_transfer(transfer == 2 ? 13 : transfer);
    if (!curve || white.y <= 0 || points.Red.y <= 0 || points.Green.y <= 0 || points.Blue.y <= 0) {
        if (curve) cmsFreeToneCurve(curve);
        goto done;
    }
    cmsToneCurve *curves[3] = {curve, curve, curve};
    cmsHPROFILE profile = cmsCreateRGBProfile(&white, &points, curves);
    cmsFreeToneCurve(curve);
    if (!profile) goto done;
    char description[64];
    const char *named = primaries == 12 ? "Display P3" : primaries == 11 ? "DCI-P3" : primaries == 9 ? "BT.2020"
        : primaries == 1 ? "BT.709" : primaries == 5 || primaries == 6 ? "BT.601" : "H.273";
    snprintf(description, sizeof description, "%s (nclx %d/%d)", named, primaries, transfer);
    cmsMLU *mlu = cmsMLUalloc(NULL, 1);
    if (mlu) {
        cmsMLUsetASCII(mlu, "en", "US", description);
        cmsWriteTag(profile, cmsSigProfileDescriptionTag, mlu);
        cmsMLUfree(mlu);
    }
    cmsUInt32Number size = 0;
    if (cmsSaveProfileToMem(profile, NULL, &size) && size > 0 && (result = g_malloc(size))) {
        if (!cmsSaveProfileToMem(profile, result, &size)) { g_free(result); result = NULL; }
        *length = size;
    }
    cmsCloseProfile(profile);
done:
    if (nclx) heif_nclx_color_profile_free(nclx);
    if (handle) heif_image_handle_release(handle);
    heif_context_free(context);
    return result;
}

/// A HEIF image without an ICC profile gets the one its nclx box describes (on a copy: the
/// loaded image may sit in libvips' operation cache).
static VipsImage *with_nclx_profile(VipsImage *image, const char *path) {
    if (vips_image_get_typeof(image, VIPS_META_ICC_NAME)) return image;
    size_t length = 0;
    void *profile = nclx_profile(path, &length);
    if (!profile) return image;
    VipsImage *copy = NULL;
    if (vips_copy(image, &copy, NULL) != 0) {
        vips_error_clear();
        g_free(profile);
        return image;
    }
    g_object_unref(image);
    vips_image_set_blob_copy(copy, VIPS_META_ICC_NAME, profile, length);
    g_free(profile);
    return copy;
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
    if (status != 0) return NULL;
    return strcmp(loader, "heifload") == 0 ? with_nclx_profile(out, path) : out;
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

/* Savers strip every piece of metadata unless an ICC profile was attached on purpose. */
static int has_profile(VipsImage *image) {
    return vips_image_get_typeof(image, VIPS_META_ICC_NAME) != 0;
}

int vf_vips_save_jpeg(VipsImage *image, int quality, int half_chroma, void **buffer, size_t *length) {
    return vips_jpegsave_buffer(image, buffer, length, "Q", quality, "optimize_coding", TRUE, "strip", !has_profile(image),
                                "subsample_mode", half_chroma ? VIPS_FOREIGN_SUBSAMPLE_ON : VIPS_FOREIGN_SUBSAMPLE_AUTO, NULL);
}

int vf_vips_save_png(VipsImage *image, int compression, void **buffer, size_t *length) {
    return vips_pngsave_buffer(image, buffer, length, "compression", compression, "strip", !has_profile(image), NULL);
}

int vf_vips_save_webp(VipsImage *image, int quality, void **buffer, size_t *length) {
    return vips_webpsave_buffer(image, buffer, length, "Q", quality, "strip", !has_profile(image), NULL);
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

int vf_vips_rgb_profile_copy(VipsImage *image, void **data, size_t *length) {
    const void *blob = NULL;
    size_t size = 0;
    char unused[8];
    if (vf_vips_profile(image, unused, 0) != 1 || vips_image_get_interpretation(image) == VIPS_INTERPRETATION_CMYK
        || vips_image_get_bands(image) < 3) {
        return -1;
    }
    if (!vips_image_get_typeof(image, VIPS_META_ICC_NAME)
        || vips_image_get_blob(image, VIPS_META_ICC_NAME, &blob, &size) != 0 || !blob || size == 0) {
        vips_error_clear();
        return -1;
    }
    *data = g_memdup2(blob, size);
    *length = size;
    return *data ? 0 : -1;
}

int vf_vips_attach_profile(VipsImage *image, const void *data, size_t length) {
    if (!data || length == 0) return -1;
    vips_image_set_blob_copy(image, VIPS_META_ICC_NAME, data, length);
    return 0;
}

VipsImage *vf_vips_to_srgb8(VipsImage *image, int keep_profile) {
    VipsImage *current = image;
    g_object_ref(current);
    VipsInterpretation kind = vips_image_get_interpretation(current);
    VipsImage *next = NULL;
    char unused[8];
    int profile = vf_vips_profile(current, unused, 0);
    if (keep_profile && profile == 1 && kind != VIPS_INTERPRETATION_CMYK && vips_image_get_bands(current) >= 3) {
        // The colours stay as stored; only the sample format changes below (16-bit RGB is
        // narrowed in the same space).
        profile = 0;
    }
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

/// `premultiplied` (a reference this takes over) with its colour divided by alpha again and cast
/// back to 8 bits: the end of every resampling done with premultiplied alpha.
static VipsImage *unpremultiplied_uchar(VipsImage *premultiplied) {
    VipsImage *post = NULL, *out = NULL;
    int status = vips_unpremultiply(premultiplied, &post, NULL);
    g_object_unref(premultiplied);
    if (status != 0) return NULL;
    status = vips_cast(post, &out, VIPS_FORMAT_UCHAR, NULL);
    g_object_unref(post);
    return status == 0 ? out : NULL;
}

VipsImage *vf_vips_turn(VipsImage *image, double degrees, double cx, double cy, int width, int height,
                        int transparent_outside) {
    const double radians = degrees * G_PI / 180.0, c = cos(radians), s = sin(radians);
    VipsImage *opaque = NULL, *pre = NULL, *turned = NULL;
    if (vips_image_hasalpha(image)) {
        g_object_ref(image);
        opaque = image;
    } else if (vips_bandjoin_const1(image, &opaque, 255.0, NULL) != 0) {
        return NULL;
    }
    int status = vips_premultiply(opaque, &pre, NULL);
    g_object_unref(opaque);
    if (status != 0) return NULL;
    VipsInterpolate *bicubic = vips_interpolate_new("bicubic");
    VipsArrayInt *area = vips_array_int_newv(4, 0, 0, width, height);
    VipsArrayDouble *clear = vips_array_double_newv(4, 0.0, 0.0, 0.0, 0.0);
    // vips maps pixel indices (a pixel's centre is its index): the centre (cx, cy) is index
    // (cx - 0.5, cy - 0.5) in, and the result's middle is index (width / 2 - 0.5, ...) out.
    status = vips_affine(pre, &turned, c, -s, s, c,
                         "interpolate", bicubic, "oarea", area,
                         "idx", -(cx - 0.5), "idy", -(cy - 0.5),
                         "odx", width / 2.0 - 0.5, "ody", height / 2.0 - 0.5,
                         "extend", transparent_outside ? VIPS_EXTEND_BACKGROUND : VIPS_EXTEND_COPY,
                         "background", clear, "premultiplied", TRUE, NULL);
    g_object_unref(pre);
    g_object_unref(bicubic);
    vips_area_unref(VIPS_AREA(area));
    vips_area_unref(VIPS_AREA(clear));
    if (status != 0) return NULL;
    return unpremultiplied_uchar(turned);
}

VipsImage *vf_vips_resize(VipsImage *image, double hscale, double vscale) {
    VipsImage *out = NULL;
    if (!vips_image_hasalpha(image)) {
        return vips_resize(image, &out, hscale, "vscale", vscale, "kernel", VIPS_KERNEL_LANCZOS3, NULL) == 0 ? out : NULL;
    }
    // Resample colour weighted by coverage, or transparent pixels bleed their (meaningless)
    // colour into the edge as a dark or light fringe.
    VipsImage *pre = NULL, *scaled = NULL;
    if (vips_premultiply(image, &pre, NULL) != 0) return NULL;
    int status = vips_resize(pre, &scaled, hscale, "vscale", vscale, "kernel", VIPS_KERNEL_LANCZOS3, NULL);
    g_object_unref(pre);
    if (status != 0) return NULL;
    return unpremultiplied_uchar(scaled);
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
