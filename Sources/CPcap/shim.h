#ifndef NFCTRACE_CPCAP_SHIM_H
#define NFCTRACE_CPCAP_SHIM_H
#define _GNU_SOURCE 1
#include <stdio.h>
#include <pcap/pcap.h>
#endif
