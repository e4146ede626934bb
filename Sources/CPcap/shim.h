#ifndef NFCTRACE_CPCAP_SHIM_H
#define NFCTRACE_CPCAP_SHIM_H
#include <pcap/pcap.h>
#endif
