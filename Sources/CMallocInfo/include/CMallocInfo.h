#ifndef CMALLOCINFO_H
#define CMALLOCINFO_H
#include <stddef.h>

/// Bytes allocated with malloc and not yet freed (glibc's mallinfo2), for
/// menubench's memory figures: what a structure holds, not what the process kept.
size_t menubench_allocated_bytes(void);

#endif
