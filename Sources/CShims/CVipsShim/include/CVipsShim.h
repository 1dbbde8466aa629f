#ifndef VIEWFINDER_CVIPSSHIM_H
#define VIEWFINDER_CVIPSSHIM_H

#include <stddef.h>

// Thin, non-variadic wrappers over libvips calls that Swift cannot make directly
// (variadic option lists, GObject macros). Every function reports failure by
// returning non-zero or NULL; the message is then in vf_vips_last_error().

typedef struct _VipsImage VipsImage;

/// Starts libvips once per process. Returns 0 on success. With `load_modules` zero, libvips'
/// optional loaders (HEIF, JPEG XL, PDF, ImageMagick, OpenSlide) are not loaded.
int vf_vips_start(const char *program_name, int load_modules);

/// The accumulated libvips error text (may be empty); the buffer is cleared by vf_vips_clear_error().
const char *vf_vips_last_error(void);
void vf_vips_clear_error(void);

/// Wraps a copy of interleaved 8-bit pixels (bands = 1, 3 or 4) as an image.
VipsImage *vf_vips_image_from_pixels(const void *data, size_t size, int width, int height, int bands);

/// Opens a file lazily: only the header is read until pixels are asked for.
VipsImage *vf_vips_open_header(const char *path);

/// The loader libvips would pick for this file ("jpegload", ...), or NULL.
const char *vf_vips_loader_for(const char *path);

int vf_vips_width(VipsImage *image);
int vf_vips_height(VipsImage *image);
int vf_vips_bands(VipsImage *image);
/// A string metadata field (e.g. "exif-ifd2-DateTimeOriginal") copied into `buffer`; 0 when found.
int vf_vips_metadata_string(VipsImage *image, const char *name, char *buffer, size_t size);

/// The image's raw EXIF block (libvips' "exif-data"), copied into a g_malloc'd buffer that the
/// caller frees with vf_vips_free_buffer(); 0 when there is one.
int vf_vips_exif_blob(VipsImage *image, void **data, size_t *length);

/// EXIF orientation 1...8, or 1 when there is none.
int vf_vips_orientation(VipsImage *image);

/// Encoders into a g_malloc'd buffer that the caller frees with vf_vips_free_buffer().
/// JPEG at `quality`; `half_chroma` nonzero stores colour at half resolution both ways (4:2:0),
/// else libvips decides (full resolution from quality 90 up).
int vf_vips_save_jpeg(VipsImage *image, int quality, int half_chroma, void **buffer, size_t *length);
int vf_vips_save_png(VipsImage *image, int compression, void **buffer, size_t *length);
int vf_vips_save_webp(VipsImage *image, int quality, void **buffer, size_t *length);
void vf_vips_free_buffer(void *buffer);
/// JPEG with EXIF DateTime and DateTimeOriginal set to `date` ("YYYY:MM:DD HH:MM:SS").
int vf_vips_save_jpeg_dated(VipsImage *image, int quality, const char *date, void **buffer, size_t *length);

void vf_vips_unref(VipsImage *image);

// MARK: - Still-image pipeline (each returns a new reference, or NULL on failure)

/// Opens `path` for reading with shrink-on-load by `shrink` (1, 2, 4 or 8) where the loader
/// supports it (JPEG: shrink, WebP: scale); sequential access when `sequential` is non-zero.
VipsImage *vf_vips_load(const char *path, int shrink, int sequential);
/// Applies the EXIF orientation and removes the tag.
VipsImage *vf_vips_autorotate(VipsImage *image);
/// The embedded ICC profile: 0 when there is none, 1 when LittleCMS reads it and it fits the
/// image's colours (its description copied into `name`), -1 when it is damaged or does not fit.
int vf_vips_profile(VipsImage *image, char *name, size_t size);
/// Converts to 8-bit sRGB (through the embedded ICC profile when it is usable, CMYK without one
/// through a built-in profile, 16-bit and grey widened/narrowed), keeping an alpha band. With
/// `keep_profile` an RGB image with a usable RGB profile keeps its own colours (only its
/// format is narrowed): the caller embeds the profile in what it writes.
VipsImage *vf_vips_to_srgb8(VipsImage *image, int keep_profile);
/// A g_malloc'd copy of the embedded ICC profile of an RGB image whose usable RGB profile it
/// keeps under vf_vips_to_srgb8's keep_profile (free with vf_vips_free_buffer); non-zero otherwise.
int vf_vips_rgb_profile_copy(VipsImage *image, void **data, size_t *length);
/// Attaches an ICC profile to an image about to be saved: the savers then keep it (and only
/// it: images made from pixels carry no other metadata).
int vf_vips_attach_profile(VipsImage *image, const void *data, size_t length);
/// Whether the last band is alpha.
/// The part of the image at (left, top) of size width × height.
VipsImage *vf_vips_crop(VipsImage *image, int left, int top, int width, int height);
/// Resamples by the given factors with a Lanczos-3 kernel, alpha premultiplied around it.
VipsImage *vf_vips_resize(VipsImage *image, double hscale, double vscale);

/// A `width` × `height` picture of `image` turned by `degrees` clockwise about the point
/// (`cx`, `cy`) (continuous pixel coordinates: pixel (0, 0) spans 0…1), which lands in the
/// middle of the result; bicubic, alpha premultiplied around the resampling. Outside the image
/// is transparent when `transparent_outside`, else the nearest edge pixel repeated. The result
/// always has an alpha band.
VipsImage *vf_vips_turn(VipsImage *image, double degrees, double cx, double cy, int width, int height,
                        int transparent_outside);
/// Composites over an opaque colour, dropping alpha.
/// The image composited over white, alpha dropped; grey becomes three equal bands (new reference).
VipsImage *vf_vips_flatten_white(VipsImage *image);
/// Renders the pixels into a g_malloc'd buffer (free with vf_vips_free_buffer).
int vf_vips_pixels(VipsImage *image, void **buffer, size_t *length);

#endif
