#ifndef VIEWFINDER_CINTL_SHIM_H
#define VIEWFINDER_CINTL_SHIM_H
// GNU gettext as glibc carries it (libintl is part of libc: nothing to link), and the locale
// calls that choose the catalogue's language.
#include <libintl.h>
#include <locale.h>
#endif
