#ifndef TACTUS_CEBUR128_SHIM_H
#define TACTUS_CEBUR128_SHIM_H
#include <ebur128.h>
#endif
