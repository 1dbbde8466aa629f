#ifndef VIEWFINDER_CIMAGEQUANT_SHIM_H
#define VIEWFINDER_CIMAGEQUANT_SHIM_H
// libimagequant (pngquant's palette library; libvips' GIF saver uses it too): palettes from
// histograms, and pictures remapped onto a palette.
#include <libimagequant.h>
#endif
