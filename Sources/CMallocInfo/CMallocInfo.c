#include "CMallocInfo.h"
#include <malloc.h>

size_t menubench_allocated_bytes(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}
