#ifndef TACTUS_CSNDFILE_SHIM_H
#define TACTUS_CSNDFILE_SHIM_H
#include <sndfile.h>
#endif
