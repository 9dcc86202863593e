// block.cpp — a CUDA thread block on the host, in one of two modes:
//
//   - user-level threads (the default): every CUDA thread has its own stack
//     and registers and they take turns on the launching OS thread,
//     switching at barriers. Between two barriers a thread runs alone until
//     it reaches the next one: one of the interleavings CUDA allows, the
//     same every run, and fast (a switch is a few instructions), so that
//     the end-to-end runs cover the simulation's own sizes;
//   - OS threads (SOFTGRASP_STANDIN_THREADS=os): every CUDA thread is a
//     pthread and all run at once under the kernel's barriers (a mutex and
//     a condition variable), so the interleavings are the OS scheduler's,
//     on every core. Each barrier is a round of futex wake-ups (tens of µs
//     for a 256-thread block on two cores): make cuda-test runs the
//     backend suite this way, the longer runs the first way.
//
// Barriers. __syncthreads waits for every live thread of the block;
// __syncwarp for every lane of the caller's warp.
#include "shim.h"
#include "standin.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if !defined(__x86_64__)
#error "the stand-in's block runtime switches threads with x86-64 code"
#endif

// sg_switch saves the callee-saved registers on the current stack, stores
// its pointer in *save, and resumes the thread whose stack pointer is to.
extern "C" void sg_switch(void** save, void* to);
asm(R"(
    .text
    .globl sg_switch
    .hidden sg_switch
    .type sg_switch, @function
sg_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size sg_switch, .-sg_switch
)");

namespace {

const size_t kStack = 128 * 1024; // per CUDA thread, with a guard page below

struct warp_state {
    int arrived;
    unsigned generation;
};

} // namespace

struct sg_block {
    sg_dim3 grid, block, idx;
    int threads, live;
    // os: every CUDA thread is an OS thread (SOFTGRASP_STANDIN_THREADS=os);
    // the barriers then wait on mu and cv.
    bool os;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    void (*call)(void**);
    void** params;
    void* scheduler; // the launching thread's saved stack pointer
    struct thread {
        void* sp;
        sg_dim3 idx;
        bool done;
    } t[1024];
    int arrived;
    unsigned generation;
    warp_state warps[32];
    char* stacks;
    size_t stackBytes;
};

thread_local sg_block* sg_current_block;
thread_local int sg_current_thread;

const sg_dim3& sg_thread_idx() { return sg_current_block->t[sg_current_thread].idx; }
const sg_dim3& sg_block_idx() { return sg_current_block->idx; }
const sg_dim3& sg_block_dim() { return sg_current_block->block; }
const sg_dim3& sg_grid_dim() { return sg_current_block->grid; }

// yield hands over to the next unfinished thread of the block, in turn
// (round robin), without going through the scheduler: one switch instead
// of two per thread at every barrier. The thread resumes on its next turn.
static void yield()
{
    sg_block* b = sg_current_block;
    int from = sg_current_thread, t = from;
    do {
        t = t + 1 == b->threads ? 0 : t + 1;
    } while (b->t[t].done);
    if (t == from) {
        return;
    }
    sg_current_thread = t;
    sg_switch(&b->t[from].sp, b->t[t].sp);
}

// wait_os is wait_at for OS threads: expected is read under the block's
// mutex (a block barrier waits for the threads still running).
static void wait_os(sg_block* b, int* arrived, unsigned* generation, int warpLanes)
{
    pthread_mutex_lock(&b->mu);
    unsigned g = *generation;
    int expected = warpLanes > 0 ? warpLanes : b->live;
    if (++*arrived >= expected) {
        *arrived = 0;
        ++*generation;
        pthread_cond_broadcast(&b->cv);
    } else {
        while (*generation == g) {
            pthread_cond_wait(&b->cv, &b->mu);
        }
    }
    pthread_mutex_unlock(&b->mu);
}

// wait_at arrives at a barrier of expected threads and returns once all
// have arrived.
static void wait_at(int* arrived, unsigned* generation, int expected)
{
    unsigned g = *generation;
    if (++*arrived >= expected) {
        *arrived = 0;
        ++*generation;
        return;
    }
    while (*generation == g) {
        yield();
    }
}

void __syncthreads()
{
    sg_block* b = sg_current_block;
    if (b->os) {
        wait_os(b, &b->arrived, &b->generation, 0);
        return;
    }
    wait_at(&b->arrived, &b->generation, b->live);
}

// warp_lanes is the number of threads in warp w (the last may be partial).
static int warp_lanes(const sg_block* b, int w)
{
    int n = b->threads - 32 * w;
    return n < 32 ? n : 32;
}

// __syncwarp waits for every lane of the calling thread's warp. The kernels
// call it with the full mask only, from warps whose every lane takes part.
void __syncwarp(unsigned)
{
    sg_block* b = sg_current_block;
    int w = sg_current_thread / 32;
    warp_state& ws = b->warps[w];
    if (b->os) {
        wait_os(b, &ws.arrived, &ws.generation, warp_lanes(b, w));
        return;
    }
    wait_at(&ws.arrived, &ws.generation, warp_lanes(b, w));
}

// Atomic in both modes (user-level threads never run at the same time;
// OS threads do).
int atomicMin(int* address, int val)
{
    int old = __atomic_load_n(address, __ATOMIC_SEQ_CST);
    while (val < old && !__atomic_compare_exchange_n(address, &old, val, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
    }
    return old;
}

int atomicAdd(int* address, int val)
{
    return __atomic_fetch_add(address, val, __ATOMIC_SEQ_CST);
}

// thread_main is the bottom of every CUDA thread's stack: it runs the
// kernel and hands back to the scheduler for good.
static void thread_main()
{
    sg_block* b = sg_current_block;
    b->call(b->params);
    b->t[sg_current_thread].done = true;
    b->live--;
    // A barrier that waited only for this thread is complete.
    if (b->arrived > 0 && b->arrived >= b->live) {
        b->arrived = 0;
        b->generation++;
    }
    sg_switch(&b->t[sg_current_thread].sp, b->scheduler);
    abort(); // a finished thread is never resumed
}

// start lays out thread t's stack so that the first switch to it enters
// thread_main as if called, with the stack aligned as the ABI wants.
static void start(sg_block* b, int t)
{
    char* lo = b->stacks + (size_t)t * kStack;
    uintptr_t top = ((uintptr_t)(lo + kStack)) & ~(uintptr_t)15;
    void** sp = (void**)top;
    *--sp = nullptr;              // thread_main's return address: none
    *--sp = (void*)thread_main;   // where sg_switch returns to
    for (int i = 0; i < 6; i++) { // rbp rbx r12 r13 r14 r15
        *--sp = nullptr;
    }
    b->t[t].sp = sp;
    b->t[t].done = false;
}

// os_thread is the body of CUDA thread t as an OS thread.
struct os_arg {
    sg_block* b;
    int t;
};

static void* os_thread(void* p)
{
    os_arg* a = (os_arg*)p;
    sg_current_block = a->b;
    sg_current_thread = a->t;
    a->b->call(a->b->params);
    sg_block* b = a->b;
    pthread_mutex_lock(&b->mu);
    b->live--;
    // A barrier that waited only for this thread is complete.
    if (b->arrived > 0 && b->arrived >= b->live) {
        b->arrived = 0;
        b->generation++;
        pthread_cond_broadcast(&b->cv);
    }
    pthread_mutex_unlock(&b->mu);
    return nullptr;
}

// run_block_os runs the block with one OS thread per CUDA thread, all at
// once, under the kernel's own barriers: the interleavings are the OS
// scheduler's, on as many cores as there are.
static int run_block_os(sg_block* b)
{
    static os_arg args[1024];
    static pthread_t ids[1024];
    for (int t = 0; t < b->threads; t++) {
        unsigned x = t % b->block.x, y = (t / b->block.x) % b->block.y, z = t / (b->block.x * b->block.y);
        b->t[t].idx = sg_dim3{x, y, z};
    }
    b->live = b->threads;
    b->arrived = 0;
    b->generation = 0;
    memset(b->warps, 0, sizeof b->warps);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, kStack);
    for (int t = 0; t < b->threads; t++) {
        args[t] = os_arg{b, t};
        if (pthread_create(&ids[t], &attr, os_thread, &args[t]) != 0) {
            // The threads started would wait at a barrier for this one.
            fprintf(stderr, "cuda stand-in: cannot start CUDA thread %d of %d as an OS thread\n", t, b->threads);
            abort();
        }
    }
    pthread_attr_destroy(&attr);
    for (int t = 0; t < b->threads; t++) {
        pthread_join(ids[t], nullptr);
    }
    return 0;
}

static int run_block(sg_block* b)
{
    for (int t = 0; t < b->threads; t++) {
        unsigned x = t % b->block.x, y = (t / b->block.x) % b->block.y, z = t / (b->block.x * b->block.y);
        b->t[t].idx = sg_dim3{x, y, z};
        start(b, t);
    }
    b->live = b->threads;
    b->arrived = 0;
    b->generation = 0;
    memset(b->warps, 0, sizeof b->warps);
    sg_current_block = b;
    while (b->live > 0) {
        for (int t = 0; t < b->threads; t++) {
            if (!b->t[t].done) {
                sg_current_thread = t;
                sg_switch(&b->scheduler, b->t[t].sp);
            }
        }
    }
    sg_current_block = nullptr;
    return 0;
}

int sg_run_grid(void (*call)(void**), void** params, sg_dim3 grid, sg_dim3 block)
{
    int threads = (int)(block.x * block.y * block.z);
    if (threads < 1 || threads > 1024) {
        return -1;
    }
    // One launch at a time in the process: the kernels' __shared__
    // variables are statics (shim.h), and so is run_block_os's state.
    static pthread_mutex_t launch = PTHREAD_MUTEX_INITIALIZER;
    struct unlock {
        ~unlock() { pthread_mutex_unlock(&launch); }
    };
    pthread_mutex_lock(&launch);
    unlock release;
    static sg_block* b;
    if (!b) {
        b = (sg_block*)calloc(1, sizeof *b);
        if (!b) {
            return -1;
        }
    }
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t need = (size_t)threads * kStack;
    if (b->stackBytes < need) {
        if (b->stacks) {
            munmap(b->stacks - page, b->stackBytes + page);
        }
        char* m = (char*)mmap(nullptr, need + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) {
            b->stacks = nullptr;
            b->stackBytes = 0;
            return -1;
        }
        mprotect(m, page, PROT_NONE); // an overflowing stack faults
        b->stacks = m + page;
        b->stackBytes = need;
    }
    static bool os = [] {
        const char* v = getenv("SOFTGRASP_STANDIN_THREADS");
        return v && strcmp(v, "os") == 0;
    }();
    if (os && !b->os) {
        pthread_mutex_init(&b->mu, nullptr);
        pthread_cond_init(&b->cv, nullptr);
    }
    b->os = os;
    b->grid = grid;
    b->block = block;
    b->threads = threads;
    b->call = call;
    b->params = params;
    for (unsigned z = 0; z < grid.z; z++) {
        for (unsigned y = 0; y < grid.y; y++) {
            for (unsigned x = 0; x < grid.x; x++) {
                b->idx = sg_dim3{x, y, z};
                if (b->os) {
                    run_block_os(b);
                } else {
                    run_block(b);
                }
            }
        }
    }
    return 0;
}
