#ifndef VIEWFINDER_CFFMPEG_SHIM_H
#define VIEWFINDER_CFFMPEG_SHIM_H

#include <errno.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>
#include <libavutil/channel_layout.h>
#include <libavutil/audio_fifo.h>

// FFmpeg exposes these as function-like macros, which Swift cannot import.
static inline int vf_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int vf_averror_eof(void) { return AVERROR_EOF; }
static inline int vf_averror_enomem(void) { return AVERROR(ENOMEM); }
static inline int64_t vf_av_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline int vf_av_time_base(void) { return AV_TIME_BASE; }

static inline void vf_av_strerror(int code, char *buffer, size_t size) {
    if (av_strerror(code, buffer, size) < 0) {
        snprintf(buffer, size, "error %d", code);
    }
}

#endif
