#ifndef MENUD_CUV_SHIM_H
#define MENUD_CUV_SHIM_H
#include <uv.h>
#endif
