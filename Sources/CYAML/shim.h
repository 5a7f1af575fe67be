#ifndef MENUD_CYAML_SHIM_H
#define MENUD_CYAML_SHIM_H
#include <yaml.h>
#endif
