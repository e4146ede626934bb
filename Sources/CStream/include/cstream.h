#ifndef NFCTRACE_CSTREAM_H
#define NFCTRACE_CSTREAM_H
#include <stdio.h>
#include <sys/types.h>

/// Reads up to `size` bytes into `buffer`; returns the count, 0 at end, -1 on error.
typedef ssize_t (*nfctrace_read_fn)(void *cookie, char *buffer, size_t size);

/// A buffered read-only stdio stream whose bytes come from `read(cookie, …)` (glibc fopencookie,
/// Darwin funopen).
/// libpcap reads pcap/pcapng through it, so nfctrace can peek at an input before handing it over.
FILE *nfctrace_open_read_stream(void *cookie, nfctrace_read_fn read);

/// Bytes the stream has buffered but its reader has not consumed yet (glibc or BSD FILE internals),
/// so that the reader's position is known without an unbuffered, slow stream.
size_t nfctrace_stream_buffered(FILE *stream);

/// A pseudo-terminal: both sides open, the slave's path in `name` (`size` bytes). 0 on success,
/// -1 with errno set. openpty is in <pty.h> on Linux and <util.h> on Darwin, which Swift's libc
/// modules do not both import; `emulate --pn532` serves a PN532 on it.
int nfctrace_openpty(int *master, int *slave, char *name, size_t size);

/// Flushes stdout: 0 when everything printed to it reached its file, -1 with errno set when a
/// write failed, now or earlier (stdio's error flag). In C because Swift 6 does not let code
/// name the global `stdout`.
int nfctrace_flush_stdout(void);
#endif
