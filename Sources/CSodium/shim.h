#ifndef HAPSCOPE_CSODIUM_SHIM_H
#define HAPSCOPE_CSODIUM_SHIM_H
#include <sodium.h>
#endif
