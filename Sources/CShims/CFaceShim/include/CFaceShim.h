#ifndef VIEWFINDER_CFACESHIM_H
#define VIEWFINDER_CFACESHIM_H
// A plain-C face on OpenCV's cascade face detector (objdetect): no C++ type crosses into Swift.
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One face: its box in the pixels of the picture that was searched, and how many of the
/// detector's overlapping windows agreed on it (at least the `min_votes` asked for).
typedef struct {
    double x, y, width, height;
    int votes;
} vf_face;

/// A loaded cascade. Searching is serialised inside (OpenCV's classifier keeps scratch
/// buffers), so one detector may be shared between threads.
typedef struct vf_face_detector vf_face_detector;

/// Loads the cascade in the XML file at `path`; NULL with a reason in `error` on failure.
vf_face_detector *vf_face_detector_open(const char *path, char *error, size_t error_size);

/// Frees a detector (NULL is ignored).
void vf_face_detector_close(vf_face_detector *detector);

/// Searches an 8-bit picture of `channels` interleaved channels (1 grey, 3 RGB, 4 RGBA; `stride`
/// bytes a row) for faces. The picture is first made grey and `scale` times its size (0 < scale
/// ≤ 1, by area averaging; not histogram-equalised: on photos with large bright or dark
/// backgrounds that lost faces the plain copy kept); then faces whose side is at least `min_side` pixels of that copy are searched for, from one window
/// size to the next by `scale_step` (> 1), keeping boxes that at least `min_votes` windows agree
/// on. Boxes are given in the pixels of the picture passed in. Writes up to `capacity` faces to
/// `out` and returns how many were found in all (which may be more than `capacity`), or -1 with a
/// reason in `error`.
int vf_face_detector_find(vf_face_detector *detector, const uint8_t *pixels, int width, int height, int channels,
                          int stride, double scale, int min_side, double scale_step, int min_votes,
                          vf_face *out, int capacity, char *error, size_t error_size);

#ifdef __cplusplus
}
#endif
#endif
