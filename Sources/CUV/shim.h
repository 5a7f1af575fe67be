#ifndef MENUD_CUV_SHIM_H
#define MENUD_CUV_SHIM_H
#include <uv.h>
/* malloc_trim, for MenuLoop's MemoryRelease: Glibc's Swift module leaves it out. */
#include <malloc.h>
#include <sys/resource.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <semaphore.h>
#include <unistd.h>

/* Sets the calling thread's nice value (Linux keeps one per thread). Swift cannot
   call syscall(2), which is variadic, to learn the thread's id. */
static inline int menud_set_thread_nice(int nice) {
    return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice);
}
#endif
