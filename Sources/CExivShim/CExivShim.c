#include "CExivShim.h"
#include <gexiv2/gexiv2.h>
#include <stdio.h>
#include <string.h>

static void set_error(char *error, size_t size, GError *gerror, const char *fallback) {
    if (error && size > 0) snprintf(error, size, "%s", gerror && gerror->message ? gerror->message : fallback);
    if (gerror) g_error_free(gerror);
}

static void copy_raw(GExiv2Metadata *metadata, const char *tag, char *out, size_t size) {
    out[0] = 0;
    if (!gexiv2_metadata_try_has_tag(metadata, tag, NULL)) return;
    gchar *value = gexiv2_metadata_try_get_tag_string(metadata, tag, NULL);
    if (!value) return;
    snprintf(out, size, "%s", value);
    g_free(value);
}

static GExiv2Metadata *open_file(const char *path, char *error, size_t size) {
    GExiv2Metadata *metadata = gexiv2_metadata_new();
    GError *gerror = NULL;
    if (!gexiv2_metadata_open_path(metadata, path, &gerror)) {
        set_error(error, size, gerror, "cannot read the metadata");
        g_object_unref(metadata);
        return NULL;
    }
    return metadata;
}

static void fill(GExiv2Metadata *metadata, vf_photo_metadata *out) {
    gdouble lon = 0, lat = 0, alt = 0;
    if (gexiv2_metadata_try_get_gps_longitude(metadata, &lon, NULL) && gexiv2_metadata_try_get_gps_latitude(metadata, &lat, NULL)) {
        out->has_gps = 1;
        out->latitude = lat;
        out->longitude = lon;
        if (gexiv2_metadata_try_get_gps_altitude(metadata, &alt, NULL)) {
            out->has_altitude = 1;
            out->altitude = alt;
        }
    }
    copy_raw(metadata, "Exif.Image.Make", out->make, sizeof out->make);
    copy_raw(metadata, "Exif.Image.Model", out->model, sizeof out->model);
    copy_raw(metadata, "Exif.Photo.LensModel", out->lens, sizeof out->lens);
    copy_raw(metadata, "Exif.Image.Software", out->software, sizeof out->software);
    gint num = 0, den = 0;
    if (gexiv2_metadata_try_get_exposure_time(metadata, &num, &den, NULL) && den > 0) {
        out->exposure_num = num;
        out->exposure_den = den;
    }
    gdouble fnumber = gexiv2_metadata_try_get_fnumber(metadata, NULL);
    out->f_number = fnumber > 0 ? fnumber : 0;
    gint iso = gexiv2_metadata_try_get_iso_speed(metadata, NULL);
    out->iso = iso > 0 ? iso : 0;
    gdouble focal = gexiv2_metadata_try_get_focal_length(metadata, NULL);
    out->focal_length = focal > 0 ? focal : 0;
    if (gexiv2_metadata_try_has_tag(metadata, "Exif.Photo.Flash", NULL)) {
        out->flash = (int)gexiv2_metadata_try_get_tag_long(metadata, "Exif.Photo.Flash", NULL);
    }
    copy_raw(metadata, "Exif.Photo.DateTimeOriginal", out->date, sizeof out->date);
    copy_raw(metadata, "Exif.Photo.OffsetTimeOriginal", out->offset, sizeof out->offset);
}

static void reset(vf_photo_metadata *out) {
    memset(out, 0, sizeof(*out));
    out->flash = -1;
    gexiv2_log_set_level(GEXIV2_LOG_LEVEL_MUTE);
}

int vf_exiv_read(const char *path, vf_photo_metadata *out, char *error, size_t error_size) {
    reset(out);
    GExiv2Metadata *metadata = open_file(path, error, error_size);
    if (!metadata) return -1;
    fill(metadata, out);
    int found = gexiv2_metadata_has_exif(metadata);
    g_object_unref(metadata);
    return found ? 0 : 1;
}

int vf_exiv_read_exif(const unsigned char *data, size_t length, vf_photo_metadata *out, char *error, size_t error_size) {
    reset(out);
    static const unsigned char marker[6] = {'E', 'x', 'i', 'f', 0, 0};
    // gexiv2 wants the APP1 form: "Exif\0\0" before the TIFF header.
    unsigned char *segment = NULL;
    size_t size = length;
    if (length < 6 || memcmp(data, marker, 6) != 0) {
        segment = g_malloc(length + 6);
        memcpy(segment, marker, 6);
        memcpy(segment + 6, data, length);
        size = length + 6;
    }
    GExiv2Metadata *metadata = gexiv2_metadata_new();
    GError *gerror = NULL;
    gboolean ok = gexiv2_metadata_from_app1_segment(metadata, segment ? segment : data, (glong)size, &gerror);
    g_free(segment);
    if (!ok) {
        set_error(error, error_size, gerror, "cannot read the EXIF block");
        g_object_unref(metadata);
        return -1;
    }
    fill(metadata, out);
    g_object_unref(metadata);
    return 0;
}

/// Tags naming a place, beyond the GPS block.
static const char *place_tags[] = {
    "Xmp.photoshop.City", "Xmp.photoshop.State", "Xmp.photoshop.Country",
    "Xmp.iptc.Location", "Xmp.iptc.CountryCode", "Xmp.iptcExt.LocationCreated", "Xmp.iptcExt.LocationShown",
    "Iptc.Application2.City", "Iptc.Application2.SubLocation", "Iptc.Application2.ProvinceState",
    "Iptc.Application2.CountryCode", "Iptc.Application2.CountryName",
    NULL,
};

int vf_exiv_strip_location(const char *path, char *error, size_t error_size) {
    gexiv2_log_set_level(GEXIV2_LOG_LEVEL_MUTE);
    GExiv2Metadata *metadata = open_file(path, error, error_size);
    if (!metadata) return -1;
    GError *gerror = NULL;
    gexiv2_metadata_try_delete_gps_info(metadata, &gerror);
    if (gerror) {
        set_error(error, error_size, gerror, "cannot remove the GPS tags");
        g_object_unref(metadata);
        return -1;
    }
    // XMP's own GPS properties (delete_gps_info covers EXIF's GPS IFD).
    gchar **xmp = gexiv2_metadata_get_xmp_tags(metadata);
    for (gchar **tag = xmp; tag && *tag; tag++) {
        if (g_str_has_prefix(*tag, "Xmp.exif.GPS")) gexiv2_metadata_try_clear_tag(metadata, *tag, NULL);
    }
    g_strfreev(xmp);
    for (const char **tag = place_tags; *tag; tag++) gexiv2_metadata_try_clear_tag(metadata, *tag, NULL);
    if (!gexiv2_metadata_save_file(metadata, path, &gerror)) {
        set_error(error, error_size, gerror, "cannot write the metadata");
        g_object_unref(metadata);
        return -1;
    }
    g_object_unref(metadata);
    return 0;
}
