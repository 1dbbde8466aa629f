#ifndef VIEWFINDER_CEXIVSHIM_H
#define VIEWFINDER_CEXIVSHIM_H
// A plain-C face on gexiv2 (exiv2's GObject binding): no glib type crosses into Swift.
#include <stddef.h>

/// What a photo's EXIF/XMP/IPTC says; strings are empty and flags 0 when a tag is absent.
typedef struct {
    int has_gps;
    double latitude, longitude;   // degrees, south and west negative
    int has_altitude;
    double altitude;              // metres, below sea level negative
    char make[128], model[128], lens[128], software[128];
    int exposure_num, exposure_den;   // exposure time, 0/0 when absent
    double f_number;                  // 0 when absent
    int iso;                          // 0 when absent
    double focal_length;              // millimetres, 0 when absent
    int flash;                        // the EXIF Flash value, -1 when absent
    char date[32];                    // EXIF DateTimeOriginal "YYYY:MM:DD HH:MM:SS", empty when absent
    char offset[16];                  // EXIF OffsetTimeOriginal "+02:00", empty when absent
} vf_photo_metadata;

/// Reads the metadata of the file at `path`: 0 on success, 1 when the file opened but showed
/// no EXIF (what it had is in `out`), 2 for a JPEG without EXIF (nothing more to find), -1
/// with a reason in `error` when it could not be read. A JPEG's EXIF segment is read alone.
int vf_exiv_read(const char *path, vf_photo_metadata *out, char *error, size_t error_size);

/// Reads a raw EXIF block ("Exif\0\0" and a TIFF header, or the TIFF header alone), for
/// formats this exiv2 cannot open itself (HEIF: libvips hands over its EXIF). 0 on success.
int vf_exiv_read_exif(const unsigned char *data, size_t length, vf_photo_metadata *out, char *error, size_t error_size);

/// Removes every location tag (EXIF GPS, XMP exif:GPS*, XMP and IPTC place names) from the file
/// at `path`, rewriting its metadata only (pixels untouched). 0 on success.
int vf_exiv_strip_location(const char *path, char *error, size_t error_size);

/// Empties the GPS directory of a HEIF file's EXIF item in place (this exiv2 cannot write
/// HEIF): the GPS values become zero bytes, the file keeps its size and every other byte.
/// 0 on success (also when there was no GPS directory).
int vf_heif_strip_gps(const char *path, char *error, size_t error_size);

#endif
