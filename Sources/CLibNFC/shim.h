#ifndef NFCTRACE_CLIBNFC_SHIM_H
#define NFCTRACE_CLIBNFC_SHIM_H
#include <nfc/nfc.h>
#endif
