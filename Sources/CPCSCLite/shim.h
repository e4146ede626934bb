#ifndef NFCTRACE_CPCSCLITE_SHIM_H
#define NFCTRACE_CPCSCLITE_SHIM_H
// pcsc-lite's headers on Linux (pkg-config libpcsclite adds -I/usr/include/PCSC), the PCSC
// framework's on macOS: the same SCard* API, with LONG and DWORD of other widths.
#if defined(__APPLE__)
#include <PCSC/winscard.h>
#include <PCSC/wintypes.h>
#else
#include <winscard.h>
#endif
#endif
