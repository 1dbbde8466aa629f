// openh264-decode: a test oracle. Decodes an H.264 byte stream (Annex B) with the openh264
// library at the path given, the way GStreamer's openh264dec drives it (one access unit per
// DecodeFrameNoDelay call, then the pictures left in its reordering buffer at the end), and
// writes every picture it outputs to standard output as planar 4:2:0, rows unpadded.
//
// It loads the library by path, so one program runs Debian 12's openh264 2.3.1 and a later one
// (2.4.1 fixed the output of pictures waiting at an IDR, openh264 #3707) side by side; the
// decoder's C++ interface is the same in both (codec_api.h did not change).
//
//     openh264-decode LIBRARY STREAM.h264 > pictures.yuv
//
// Exit status 0 when every access unit decoded, 1 on a usage, library or decoding error.

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wels/codec_api.h>

typedef long (*CreateDecoder)(ISVCDecoder **);
typedef void (*DestroyDecoder)(ISVCDecoder *);

static int write_picture(unsigned char *planes[3], const SBufferInfo *info) {
    const int width = info->UsrData.sSystemBuffer.iWidth, height = info->UsrData.sSystemBuffer.iHeight;
    const int *strides = info->UsrData.sSystemBuffer.iStride;
    for (int plane = 0; plane < 3; plane++) {
        const int w = plane == 0 ? width : (width + 1) / 2, h = plane == 0 ? height : (height + 1) / 2;
        const int stride = strides[plane == 0 ? 0 : 1];
        for (int y = 0; y < h; y++) {
            if (fwrite(planes[plane] + (size_t)y * stride, 1, (size_t)w, stdout) != (size_t)w) return -1;
        }
    }
    return 0;
}

// The NAL unit type of the unit starting at `p` (after its start code).
static int nal_type(const unsigned char *p) { return p[0] & 0x1f; }

// Whether the slice NAL at `p` is the first of its picture: first_mb_in_slice, the slice
// header's first Exp-Golomb code, is 0 exactly when its first bit is 1.
static int starts_picture(const unsigned char *p, size_t size) { return size > 1 && (p[1] & 0x80); }

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: openh264-decode LIBRARY STREAM.h264\n");
        return 1;
    }
    void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        fprintf(stderr, "openh264-decode: %s\n", dlerror());
        return 1;
    }
    CreateDecoder create = (CreateDecoder)dlsym(library, "WelsCreateDecoder");
    DestroyDecoder destroy = (DestroyDecoder)dlsym(library, "WelsDestroyDecoder");
    if (!create || !destroy) {
        fprintf(stderr, "openh264-decode: %s is not an openh264 library\n", argv[1]);
        return 1;
    }
    FILE *file = fopen(argv[2], "rb");
    if (!file) {
        perror(argv[2]);
        return 1;
    }
    fseek(file, 0, SEEK_END);
    long length = ftell(file);
    fseek(file, 0, SEEK_SET);
    unsigned char *stream = length > 0 ? malloc((size_t)length) : NULL;
    if (!stream || fread(stream, 1, (size_t)length, file) != (size_t)length) {
        fprintf(stderr, "openh264-decode: cannot read %s\n", argv[2]);
        return 1;
    }
    fclose(file);

    ISVCDecoder *decoder = NULL;
    if (create(&decoder) != 0 || !decoder) {
        fprintf(stderr, "openh264-decode: WelsCreateDecoder failed\n");
        return 1;
    }
    SDecodingParam param;
    memset(&param, 0, sizeof param);
    param.sVideoProperty.eVideoBsType = VIDEO_BITSTREAM_AVC;
    if ((*decoder)->Initialize(decoder, &param) != 0) {
        fprintf(stderr, "openh264-decode: the decoder did not initialise\n");
        return 1;
    }

    // The start of each NAL unit (after its start code), then the stream's end.
    size_t capacity = 1024, count = 0;
    size_t *starts = malloc(capacity * sizeof *starts);
    for (size_t i = 0; starts && i + 3 <= (size_t)length; i++) {
        if (stream[i] == 0 && stream[i + 1] == 0 && stream[i + 2] == 1) {
            if (count + 1 >= capacity) {
                capacity *= 2;
                size_t *grown = realloc(starts, capacity * sizeof *starts);
                if (!grown) { free(starts); starts = NULL; break; }
                starts = grown;
            }
            starts[count++] = i + 3;
            i += 2;
        }
    }
    if (!starts) {
        fprintf(stderr, "openh264-decode: out of memory\n");
        return 1;
    }

    int failed = 0;
    size_t unit_start = 0;
    int has_slice = 0;
    unsigned char *planes[3];
    SBufferInfo info;
    // Access units: a new one starts at an access unit delimiter, parameter set or SEI after a
    // slice, or at a slice that starts a picture after a slice.
    for (size_t n = 0; n <= count; n++) {
        int boundary = n == count;
        if (!boundary) {
            const unsigned char *p = stream + starts[n];
            size_t size = (n + 1 < count ? starts[n + 1] - 3 : (size_t)length) - starts[n];
            int type = nal_type(p);
            int slice = type == 1 || type == 5;
            boundary = has_slice && ((type >= 6 && type <= 9) || (slice && starts_picture(p, size)));
            if (!boundary) { has_slice |= slice; continue; }
        }
        // Decode the access unit [unit_start, n), start codes included.
        if (n > unit_start) {
            size_t from = starts[unit_start] - 3;
            // A 4-byte start code's leading zero belongs to this unit; harmless either way.
            size_t to = n < count ? starts[n] - 3 : (size_t)length;
            memset(&info, 0, sizeof info);
            DECODING_STATE state = (*decoder)->DecodeFrameNoDelay(decoder, stream + from, (int)(to - from), planes, &info);
            if (state != dsErrorFree) {
                fprintf(stderr, "openh264-decode: access unit at byte %zu: decoding state 0x%x\n", from, (unsigned)state);
                failed = 1;
            }
            if (info.iBufferStatus == 1 && write_picture(planes, &info) != 0) failed = 1;
        }
        unit_start = n;
        has_slice = 0;
        if (n < count) {
            int type = nal_type(stream + starts[n]);
            has_slice = type == 1 || type == 5;
        }
    }
    // The pictures still waiting for their turn.
    int end = 1;
    (*decoder)->SetOption(decoder, DECODER_OPTION_END_OF_STREAM, &end);
    int remaining = 0;
    (*decoder)->GetOption(decoder, DECODER_OPTION_NUM_OF_FRAMES_REMAINING_IN_BUFFER, &remaining);
    for (int i = 0; i < remaining; i++) {
        memset(&info, 0, sizeof info);
        (*decoder)->FlushFrame(decoder, planes, &info);
        if (info.iBufferStatus == 1 && write_picture(planes, &info) != 0) failed = 1;
    }
    (*decoder)->Uninitialize(decoder);
    destroy(decoder);
    free(starts);
    free(stream);
    return failed || fflush(stdout) != 0;
}
