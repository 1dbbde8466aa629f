#include "CExivShim.h"
#include <gexiv2/gexiv2.h>
#include <limits.h>
#include <stdint.h>
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

/// The JPEG's APP1 "Exif\0\0" segment, read from its header segments alone (the scan and the
/// other segments, ICC profiles and Photoshop blocks among them, are skipped, never read): a
/// g_malloc'ed copy in `*segment`. 1 when the file is a JPEG and the segment was found, 0 for
/// a JPEG without one, -1 for a file that is not a JPEG (or whose header is damaged).
static int jpeg_exif_segment(const char *path, unsigned char **segment, size_t *length) {
    *segment = NULL;
    *length = 0;
    FILE *file = fopen(path, "rb");
    if (!file) return -1;
    unsigned char bytes[4];
    int result = -1;
    if (fread(bytes, 1, 2, file) != 2 || bytes[0] != 0xFF || bytes[1] != 0xD8) goto done;
    for (int count = 0; count < 256; count++) {
        int marker;
        do { marker = fgetc(file); } while (marker == 0xFF);
        if (marker == EOF) goto done;
        if (marker == 0xD9 || marker == 0xDA) { result = 0; goto done; }  // end, or the scan: no EXIF before it
        if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) continue;  // markers without a length
        if (fread(bytes, 1, 2, file) != 2) goto done;
        size_t size = ((size_t)bytes[0] << 8 | bytes[1]);
        if (size < 2) goto done;
        size -= 2;
        if (marker == 0xE1 && size >= 6) {
            unsigned char *data = g_malloc(size);
            if (fread(data, 1, size, file) != size) { g_free(data); goto done; }
            if (memcmp(data, "Exif\0\0", 6) == 0) {
                *segment = data;
                *length = size;
                result = 1;
                goto done;
            }
            g_free(data);
        } else if (fseek(file, (long)size, SEEK_CUR) != 0) {
            goto done;
        }
    }
done:
    fclose(file);
    return result;
}

/// Big-endian unsigned integer of `size` bytes (0 to 8) at `p`.
static uint64_t be(const unsigned char *p, int size) {
    uint64_t value = 0;
    for (int i = 0; i < size; i++) value = value << 8 | p[i];
    return value;
}

/// A box inside `[start, end)`: its type, and its payload in `*payload`/`*payload_end`; 0 when
/// none fits there.
static int next_box(const unsigned char *start, const unsigned char *end, char type[5],
                    const unsigned char **payload, const unsigned char **payload_end) {
    if (end - start < 8) return 0;
    uint64_t size = be(start, 4);
    size_t header = 8;
    if (size == 1) {
        if (end - start < 16) return 0;
        size = be(start + 8, 8);
        header = 16;
    } else if (size == 0) {
        size = (uint64_t)(end - start);
    }
    if (size < header || size > (uint64_t)(end - start)) return 0;
    memcpy(type, start + 4, 4);
    type[4] = 0;
    *payload = start + header;
    *payload_end = start + size;
    return 1;
}

/// The id of the meta box's item of type "Exif" (its `iinf`), 0 when there is none.
static uint32_t heif_exif_item(const unsigned char *p, const unsigned char *end) {
    if (end - p < 6) return 0;
    int version = p[0];
    p += 4 + (version == 0 ? 2 : 4);
    char type[5];
    const unsigned char *q, *q_end;
    for (; next_box(p, end, type, &q, &q_end); p = q_end) {
        if (strcmp(type, "infe") != 0 || q_end - q < 4) continue;
        int infe_version = q[0];
        if (infe_version < 2) continue;
        const unsigned char *r = q + 4;
        int id_size = infe_version == 2 ? 2 : 4;
        if (q_end - r < id_size + 2 + 4) continue;
        uint32_t id = (uint32_t)be(r, id_size);
        if (memcmp(r + id_size + 2, "Exif", 4) == 0) return id;
    }
    return 0;
}

/// Where the item `id` lies in the file (its `iloc`, one extent, offsets from the file's
/// start): 1 with `*offset` and `*length`, else 0.
static int heif_item_location(const unsigned char *p, const unsigned char *end, uint32_t id, uint64_t *offset, uint64_t *length) {
    if (end - p < 8) return 0;
    int version = p[0];
    int offset_size = p[4] >> 4, length_size = p[4] & 15, base_size = p[5] >> 4;
    int index_size = version >= 1 ? p[5] & 15 : 0;
    p += 6;
    int count_size = version < 2 ? 2 : 4;
    if (end - p < count_size) return 0;
    uint64_t count = be(p, count_size);
    p += count_size;
    for (uint64_t i = 0; i < count; i++) {
        int id_size = version < 2 ? 2 : 4;
        if (end - p < id_size + (version >= 1 ? 2 : 0) + 2 + base_size + 2) return 0;
        uint32_t item = (uint32_t)be(p, id_size);
        p += id_size;
        int method = 0;
        if (version >= 1) { method = p[1] & 15; p += 2; }
        p += 2;  // data_reference_index
        uint64_t base = be(p, base_size);
        p += base_size;
        uint64_t extents = be(p, 2);
        p += 2;
        int extent_size = index_size + offset_size + length_size;
        if ((uint64_t)(end - p) < extents * (uint64_t)extent_size) return 0;
        if (item == id) {
            if (method != 0 || extents != 1) return 0;
            *offset = base + be(p + index_size, offset_size);
            *length = be(p + index_size + offset_size, length_size);
            return 1;
        }
        p += extents * extent_size;
    }
    return 0;
}

/// The EXIF of a HEIF file (its "Exif" item, the TIFF header after the item's 4-byte offset),
/// read from the meta box and that item alone: 1 with a g_malloc'ed copy, 0 for a HEIF whose
/// EXIF this cannot find, -1 for a file that is not HEIF.
static int heif_exif(const char *path, unsigned char **exif, size_t *exif_length, uint64_t *exif_offset) {
    *exif = NULL;
    *exif_length = 0;
    *exif_offset = 0;
    FILE *file = fopen(path, "rb");
    if (!file) return -1;
    int result = -1;
    unsigned char header[16];
    unsigned char *meta = NULL;
    if (fread(header, 1, 12, file) != 12 || memcmp(header + 4, "ftyp", 4) != 0) goto done;
    uint64_t ftyp = be(header, 4);
    if (ftyp < 12 || fseek(file, (long)ftyp, SEEK_SET) != 0) goto done;
    result = 0;
    // The meta box follows the ftyp box, or the media data (some phones write that first).
    uint64_t position = ftyp, meta_size = 0;
    for (int count = 0; count < 16 && !meta_size; count++) {
        if (fseek(file, (long)position, SEEK_SET) != 0 || fread(header, 1, 16, file) < 8) goto done;
        uint64_t size = be(header, 4);
        if (size == 1) size = be(header + 8, 8);
        if (size < 8 || position > (uint64_t)LONG_MAX - size) goto done;
        if (memcmp(header + 4, "meta", 4) == 0) meta_size = size;
        else position += size;
    }
    if (!meta_size || fseek(file, (long)position + 8, SEEK_SET) != 0) goto done;
    if (meta_size < 12 || meta_size > (16u << 20)) goto done;
    meta = g_malloc(meta_size - 8);
    if (fread(meta, 1, meta_size - 8, file) != meta_size - 8) goto done;
    const unsigned char *p = meta + 4, *end = meta + (meta_size - 8), *q, *q_end;
    const unsigned char *iinf = NULL, *iinf_end = NULL, *iloc = NULL, *iloc_end = NULL;
    char type[5];
    for (; next_box(p, end, type, &q, &q_end); p = q_end) {
        if (strcmp(type, "iinf") == 0) { iinf = q; iinf_end = q_end; }
        if (strcmp(type, "iloc") == 0) { iloc = q; iloc_end = q_end; }
    }
    uint32_t id = iinf ? heif_exif_item(iinf, iinf_end) : 0;
    uint64_t offset = 0, length = 0;
    if (!id || !iloc || !heif_item_location(iloc, iloc_end, id, &offset, &length)) goto done;
    if (length < 4 || length > (16u << 20) || offset > (uint64_t)LONG_MAX || fseek(file, (long)offset, SEEK_SET) != 0) goto done;
    unsigned char *item = g_malloc(length);
    if (fread(item, 1, length, file) != length) { g_free(item); goto done; }
    uint64_t skip = 4 + be(item, 4);
    // Some phones (Samsung's motion photos) give the offset as 0 and still begin the block
    // with JPEG's "Exif\0\0" marker: the TIFF header follows it.
    if (skip + 6 < length && memcmp(item + skip, "Exif\0\0", 6) == 0) skip += 6;
    if (skip >= length) { g_free(item); goto done; }
    memmove(item, item + skip, length - skip);
    *exif = item;
    *exif_length = length - skip;
    *exif_offset = offset + skip;
    result = 1;
done:
    g_free(meta);
    fclose(file);
    return result;
}

static int read_app1(const unsigned char *data, size_t length, vf_photo_metadata *out, char *error, size_t error_size);

int vf_exiv_read(const char *path, vf_photo_metadata *out, char *error, size_t error_size) {
    reset(out);
    // A JPEG's values all come from its EXIF (gexiv2 reads GPS, exposure and the rest there
    // alone): reading that one segment spares exiv2 parsing the whole file.
    unsigned char *segment = NULL;
    size_t length = 0;
    switch (jpeg_exif_segment(path, &segment, &length)) {
    case 1: {
        int status = read_app1(segment, length, out, error, error_size);
        g_free(segment);
        return status;
    }
    case 0:
        return 2;
    default:
        break;
    }
    // HEIF, which this exiv2 cannot open (it hands the file to its QuickTime reader, which
    // can spin on a damaged one): its EXIF item, found through the meta box; else 1, and the
    // caller asks libvips.
    uint64_t offset = 0;
    switch (heif_exif(path, &segment, &length, &offset)) {
    case 1: {
        int status = read_app1(segment, length, out, error, error_size);
        g_free(segment);
        if (status == 0) return 0;
        reset(out);
        return 1;
    }
    case 0:
        return 1;
    default:
        break;
    }
    GExiv2Metadata *metadata = open_file(path, error, error_size);
    if (!metadata) return -1;
    fill(metadata, out);
    int found = gexiv2_metadata_has_exif(metadata);
    g_object_unref(metadata);
    return found ? 0 : 1;
}

int vf_exiv_read_exif(const unsigned char *data, size_t length, vf_photo_metadata *out, char *error, size_t error_size) {
    reset(out);
    return read_app1(data, length, out, error, error_size);
}

static int read_app1(const unsigned char *data, size_t length, vf_photo_metadata *out, char *error, size_t error_size) {
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

int vf_heif_strip_gps(const char *path, char *error, size_t error_size);

int vf_exiv_strip_location(const char *path, char *error, size_t error_size) {
    gexiv2_log_set_level(GEXIV2_LOG_LEVEL_MUTE);
    // HEIF, which this exiv2 cannot write (it kept the GPS and said nothing): its EXIF item's
    // GPS directory is emptied in place. A HEIF whose EXIF item is not found is left to the
    // caller's check.
    unsigned char *probe = NULL;
    size_t probe_length = 0;
    uint64_t probe_offset = 0;
    int heif = heif_exif(path, &probe, &probe_length, &probe_offset);
    g_free(probe);
    if (heif == 1) return vf_heif_strip_gps(path, error, error_size);
    if (heif == 0) return 0;
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

/// A TIFF value of `size` bytes at `p`, in the block's byte order.
static uint32_t tiff_value(const unsigned char *p, int size, int little) {
    uint32_t value = 0;
    for (int i = 0; i < size; i++) value = little ? value | (uint32_t)p[i] << (8 * i) : value << 8 | p[i];
    return value;
}

/// Empties the GPS IFD of a TIFF-structured EXIF block in place: each entry's out-of-line
/// value and the entry itself become zero bytes, and the IFD holds no entries (IFD0 still
/// points at it, a valid empty directory). 1 when there was a GPS IFD, 0 when there was none,
/// -1 when the block cannot be read.
static int blank_gps(unsigned char *tiff, size_t length) {
    if (length < 8) return -1;
    int little = tiff[0] == 'I' && tiff[1] == 'I';
    if (!little && !(tiff[0] == 'M' && tiff[1] == 'M')) return -1;
    uint32_t ifd0 = tiff_value(tiff + 4, 4, little);
    if ((uint64_t)ifd0 + 2 > length) return -1;
    uint32_t count = tiff_value(tiff + ifd0, 2, little);
    if ((uint64_t)ifd0 + 2 + 12 * (uint64_t)count > length) return -1;
    uint32_t gps = 0;
    for (uint32_t i = 0; i < count; i++) {
        const unsigned char *entry = tiff + ifd0 + 2 + 12 * i;
        if (tiff_value(entry, 2, little) == 0x8825) gps = tiff_value(entry + 8, 4, little);
    }
    if (!gps) return 0;
    if ((uint64_t)gps + 2 > length) return -1;
    uint32_t entries = tiff_value(tiff + gps, 2, little);
    if ((uint64_t)gps + 2 + 12 * (uint64_t)entries > length) return -1;
    static const int type_size[] = {0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8};
    for (uint32_t i = 0; i < entries; i++) {
        unsigned char *entry = tiff + gps + 2 + 12 * i;
        uint32_t type = tiff_value(entry + 2, 2, little), values = tiff_value(entry + 4, 4, little);
        uint64_t size = type < 13 ? (uint64_t)type_size[type] * values : 0;
        if (size > 4) {
            uint32_t at = tiff_value(entry + 8, 4, little);
            if ((uint64_t)at + size <= length) memset(tiff + at, 0, size);
        }
        memset(entry, 0, 12);
    }
    tiff[gps] = 0;
    tiff[gps + 1] = 0;
    return 1;
}

int vf_heif_strip_gps(const char *path, char *error, size_t error_size) {
    unsigned char *tiff = NULL;
    size_t length = 0;
    uint64_t offset = 0;
    if (heif_exif(path, &tiff, &length, &offset) != 1) {
        if (error && error_size) snprintf(error, error_size, "no EXIF item found in this HEIF file");
        return -1;
    }
    int status = blank_gps(tiff, length);
    if (status < 0) {
        g_free(tiff);
        if (error && error_size) snprintf(error, error_size, "its EXIF block cannot be read");
        return -1;
    }
    if (status == 1) {
        FILE *file = fopen(path, "r+b");
        int written = file && offset <= (uint64_t)LONG_MAX && fseek(file, (long)offset, SEEK_SET) == 0
            && fwrite(tiff, 1, length, file) == length;
        if (file && fclose(file) != 0) written = 0;
        if (!written) {
            g_free(tiff);
            if (error && error_size) snprintf(error, error_size, "cannot rewrite its EXIF block");
            return -1;
        }
    }
    g_free(tiff);
    return 0;
}
