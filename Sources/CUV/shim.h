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
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>

/* glibc's values, which its headers give only to _GNU_SOURCE builds; the Glibc
   module Swift imports is not one. */
#ifndef POSIX_SPAWN_SETSID
#define POSIX_SPAWN_SETSID 0x80
#endif
#ifndef O_CLOEXEC
#define O_CLOEXEC 02000000
#endif
#ifndef F_DUPFD_CLOEXEC
#define F_DUPFD_CLOEXEC 1030
#endif
extern int pipe2(int fds[2], int flags);
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *, int from);

/* sched_setattr(2)'s argument, which glibc does not declare. */
struct menud_sched_attr {
    unsigned int size, policy;
    unsigned long long flags;
    int nice;
    unsigned int priority;
    unsigned long long runtime, deadline, period;
};

/* Gives the calling thread a scheduler slice of `nanoseconds` (Linux 6.12's EEVDF
   takes a normal thread's `sched_runtime` as its slice), keeping its nice value: a
   thread with a short slice takes a processor at once when it wakes, where one with
   the default waits for the running thread's slice to end. Returns 0, or -1 with
   errno (an older kernel ignores the slice or refuses it). */
static inline int menud_set_thread_slice(unsigned long long nanoseconds) {
    pid_t thread = (pid_t)syscall(SYS_gettid);
    errno = 0;
    int nice = getpriority(PRIO_PROCESS, (id_t)thread);
    if (nice == -1 && errno != 0) return -1;
    struct menud_sched_attr attributes = {0};
    attributes.size = sizeof attributes;
    attributes.nice = nice;
    attributes.runtime = nanoseconds;
    return (int)syscall(SYS_sched_setattr, thread, &attributes, 0);
}

/* Starts a child for MenuLoop's ChildProcess without copying the daemon's address
   space: glibc's posix_spawn shares it with the child until exec (CLONE_VFORK), so
   spawning costs the same with a menu of a million nodes as with ten, where fork(2),
   which libuv's uv_spawn uses, copies every page table on the loop. The child gets
   /dev/null as input, `out` and `err` as its output (a descriptor to take, -1 for
   /dev/null, -2 for the daemon's own), no other descriptor, every signal at its
   default and none blocked, and with `detached` a session of its own. Returns 0 or
   an errno. */
static inline int menud_spawn(pid_t *pid, const char *file, char *const argv[], char *const envp[],
                              int out, int err, int detached) {
    extern char **environ;
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int rc = posix_spawn_file_actions_init(&actions);
    if (rc != 0) return rc;
    rc = posix_spawnattr_init(&attributes);
    if (rc != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return rc;
    }
    sigset_t all, none;
    sigfillset(&all);
    sigemptyset(&none);
    short flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | (detached ? POSIX_SPAWN_SETSID : 0);
    rc = posix_spawnattr_setflags(&attributes, flags);
    if (rc == 0) rc = posix_spawnattr_setsigdefault(&attributes, &all);
    if (rc == 0) rc = posix_spawnattr_setsigmask(&attributes, &none);
    if (rc == 0) rc = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    int streams[2] = {out, err};
    for (int k = 0; k < 2 && rc == 0; k++) {
        if (streams[k] >= 0)
            rc = posix_spawn_file_actions_adddup2(&actions, streams[k], k + 1);
        else if (streams[k] == -1)
            rc = posix_spawn_file_actions_addopen(&actions, k + 1, "/dev/null", O_WRONLY, 0);
    }
    /* A descriptor somebody opened without close-on-exec (a library's) stays ours. */
    if (rc == 0) rc = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    if (rc == 0) rc = posix_spawnp(pid, file, &actions, &attributes, argv, envp ? envp : environ);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return rc;
}

/* A descriptor that becomes readable when process `pid`, a child, has exited: the
   loop learns of the exit without a SIGCHLD handler. -1 with errno on failure. */
static inline int menud_pidfd_open(pid_t pid) {
    return (int)syscall(SYS_pidfd_open, pid, 0);
}

/* A pipe for a child's output: both ends close-on-exec and above the standard
   descriptors, so that a daemon started with one of them closed never hands a pipe
   end to a child as its 0, 1 or 2 by chance. Returns 0, or -1 with errno. */
static inline int menud_output_pipe(int ends[2]) {
    if (pipe2(ends, O_CLOEXEC) != 0) return -1;
    for (int k = 0; k < 2; k++) {
        if (ends[k] > 2) continue;
        int moved = fcntl(ends[k], F_DUPFD_CLOEXEC, 3);
        int saved = errno;
        close(ends[k]);
        if (moved < 0) {
            close(ends[1 - k]);
            errno = saved;
            return -1;
        }
        ends[k] = moved;
    }
    return 0;
}

/* Sets the calling thread's nice value (Linux keeps one per thread). Swift cannot
   call syscall(2), which is variadic, to learn the thread's id. */
static inline int menud_set_thread_nice(int nice) {
    return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice);
}
#endif
