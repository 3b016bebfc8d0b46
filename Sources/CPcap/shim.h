#ifndef HAPSCOPE_CPCAP_SHIM_H
#define HAPSCOPE_CPCAP_SHIM_H
#include <pcap/pcap.h>
#include <stdio.h>
#endif
