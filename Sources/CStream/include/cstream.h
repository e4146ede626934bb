#ifndef NFCTRACE_CSTREAM_H
#define NFCTRACE_CSTREAM_H
#include <stdio.h>
#include <sys/types.h>

/// Reads up to `size` bytes into `buffer`; returns the count, 0 at end, -1 on error.
typedef ssize_t (*nfctrace_read_fn)(void *cookie, char *buffer, size_t size);

/// An unbuffered read-only stdio stream whose bytes come from `read(cookie, …)` (glibc fopencookie).
/// libpcap reads pcap/pcapng through it, so nfctrace can peek at an input before handing it over.
FILE *nfctrace_open_read_stream(void *cookie, nfctrace_read_fn read);
#endif
