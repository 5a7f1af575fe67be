#ifndef MENUD_CSYSTEMD_SHIM_H
#define MENUD_CSYSTEMD_SHIM_H
#include <systemd/sd-bus.h>

/* sd-bus describes an object's interface with a table of sd_bus_vtable entries,
 * written in C with the SD_BUS_* macros: designated initializers into a union,
 * which Swift cannot import. These functions are those macros, one entry each, so
 * that the table is built by sd-bus's own definitions and not by copying its
 * layout. The strings must outlive the registered table. */

static inline sd_bus_vtable menud_vtable_start(uint64_t flags) {
    sd_bus_vtable entry[] = { SD_BUS_VTABLE_START(flags) };
    return entry[0];
}

static inline sd_bus_vtable menud_vtable_method(
    const char *member, const char *signature, const char *result, sd_bus_message_handler_t handler,
    uint64_t flags) {
    sd_bus_vtable entry[] = { SD_BUS_METHOD(member, signature, result, handler, flags) };
    return entry[0];
}

static inline sd_bus_vtable menud_vtable_property(
    const char *member, const char *signature, sd_bus_property_get_t getter, uint64_t flags) {
    sd_bus_vtable entry[] = { SD_BUS_PROPERTY(member, signature, getter, 0, flags) };
    return entry[0];
}

static inline sd_bus_vtable menud_vtable_signal(const char *member, const char *signature, uint64_t flags) {
    sd_bus_vtable entry[] = { SD_BUS_SIGNAL(member, signature, flags) };
    return entry[0];
}

static inline sd_bus_vtable menud_vtable_end(void) {
    sd_bus_vtable entry[] = { SD_BUS_VTABLE_END };
    return entry[0];
}

/* SD_BUS_ERROR_NULL, for a Swift variable to start from. */
static inline sd_bus_error menud_bus_error_null(void) {
    sd_bus_error error = SD_BUS_ERROR_NULL;
    return error;
}
#endif
