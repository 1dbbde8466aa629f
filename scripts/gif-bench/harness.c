// GIF quantiser bench: raw RGB frames in, GIF out. Modes: vips (vips_gifsave: cgif + libimagequant,
// per-frame palettes), liq (libimagequant global palette from sampled frames + cgif).
#include <vips/vips.h>
#include <libimagequant.h>
#include <cgif.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
int main(int argc, char **argv) {
    if (argc < 8) { fprintf(stderr, "harness MODE in.rgb W H N FPS out.gif\n"); return 2; }
    const char *mode = argv[1]; int w = atoi(argv[3]), h = atoi(argv[4]), n = atoi(argv[5]), fps = atoi(argv[6]);
    size_t fb = (size_t)w * h * 3; unsigned char *rgb = malloc(fb * n);
    FILE *f = fopen(argv[2], "rb"); if (!f || fread(rgb, 1, fb * n, f) != fb * n) { fprintf(stderr, "short read\n"); return 1; } fclose(f);
    double t0 = now();
    if (!strcmp(mode, "vips")) {
        if (VIPS_INIT(argv[0])) return 1;
        VipsImage *img = vips_image_new_from_memory(rgb, fb * n, w, h * n, 3, VIPS_FORMAT_UCHAR);
        VipsImage *copy; vips_copy(img, &copy, NULL);
        vips_image_set_int(copy, "page-height", h);
        int *delays = malloc(sizeof(int) * n); for (int i = 0; i < n; i++) delays[i] = 1000 / fps;
        vips_image_set_array_int(copy, "delay", delays, n); vips_image_set_int(copy, "loop", 0);
        double effort = argc > 8 ? atof(argv[8]) : 7;
        if (vips_gifsave(copy, argv[7], "dither", 1.0, "effort", (int)effort, NULL)) { fprintf(stderr, "%s\n", vips_error_buffer()); return 1; }
        g_object_unref(copy); g_object_unref(img);
    } else {
        unsigned char *rgba = malloc((size_t)w * h * 4);
        liq_attr *attr = liq_attr_create(); liq_set_speed(attr, 4);
        liq_histogram *hist = liq_histogram_create(attr);
        int step = n / 12 > 1 ? n / 12 : 1;
        for (int i = 0; i < n; i += step) {
            unsigned char *src = rgb + fb * i, *tmp = malloc((size_t)w * h * 4);
            for (int p = 0; p < w * h; p++) { tmp[4*p] = src[3*p]; tmp[4*p+1] = src[3*p+1]; tmp[4*p+2] = src[3*p+2]; tmp[4*p+3] = 255; }
            liq_image *im = liq_image_create_rgba(attr, tmp, w, h, 0);
            liq_histogram_add_image(hist, attr, im); liq_image_destroy(im); free(tmp);
        }
        liq_result *res; if (liq_histogram_quantize(hist, attr, &res) != LIQ_OK) return 1;
        liq_set_dithering_level(res, argc > 8 ? atof(argv[8]) : 1.0);
        const liq_palette *pal = liq_get_palette(res);
        uint8_t gpal[768] = {0}; for (unsigned i = 0; i < pal->count; i++) { gpal[3*i] = pal->entries[i].r; gpal[3*i+1] = pal->entries[i].g; gpal[3*i+2] = pal->entries[i].b; }
        CGIF_Config cfg = {0}; cfg.pGlobalPalette = gpal; cfg.numGlobalPaletteEntries = pal->count; cfg.path = argv[7];
        cfg.attrFlags = CGIF_ATTR_IS_ANIMATED; cfg.width = w; cfg.height = h; cfg.numLoops = 0;
        CGIF *gif = cgif_newgif(&cfg); unsigned char *idx = malloc((size_t)w * h);
        for (int i = 0; i < n; i++) {
            unsigned char *src = rgb + fb * i;
            for (int p = 0; p < w * h; p++) { rgba[4*p] = src[3*p]; rgba[4*p+1] = src[3*p+1]; rgba[4*p+2] = src[3*p+2]; rgba[4*p+3] = 255; }
            liq_image *im = liq_image_create_rgba(attr, rgba, w, h, 0);
            liq_write_remapped_image(res, im, idx, (size_t)w * h); liq_image_destroy(im);
            CGIF_FrameConfig fc = {0}; fc.pImageData = idx; fc.delay = 100 / fps;
            fc.genFlags = CGIF_FRAME_GEN_USE_TRANSPARENCY | CGIF_FRAME_GEN_USE_DIFF_WINDOW;
            cgif_addframe(gif, &fc);
        }
        cgif_close(gif); liq_result_destroy(res); liq_histogram_destroy(hist); liq_attr_destroy(attr);
    }
    printf("%.3f\n", now() - t0);
    return 0;
}
