/* GTK 3 and gtk-layer-shell for menud-popup, and what Swift cannot import from them:
   GTK's signal connection and its type casts are macros. menud and menuctl never
   import this module. */
#include <gtk/gtk.h>
#include <gtk-layer-shell.h>
#include <glib-unix.h>

/* g_signal_connect, a macro: connects `handler`, whatever its C signature, to
   `signal` of `instance`, with `data`; `destroy` runs on `data` when the handler is
   disconnected or the instance finalized. */
static inline gulong menud_popup_connect(gpointer instance, const char *signal, GCallback handler,
                                         gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, handler, data, destroy, (GConnectFlags)0);
}

/* The same connection run after the default handler (g_signal_connect_after). */
static inline gulong menud_popup_connect_after(gpointer instance, const char *signal,
                                               GCallback handler, gpointer data,
                                               GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, handler, data, destroy, G_CONNECT_AFTER);
}

/* GDK_IS_WAYLAND_DISPLAY without gdk/gdkwayland.h's own headers: whether the default
   display is a Wayland one, by its type's name. */
static inline gboolean menud_popup_display_is_wayland(void) {
    GdkDisplay *display = gdk_display_get_default();
    return display != NULL && g_str_has_prefix(G_OBJECT_TYPE_NAME(display), "GdkWayland");
}

/* A GdkEventKey's key value and modifier state; GdkEvent is a union Swift reads
   poorly. */
static inline guint menud_popup_event_keyval(GdkEventKey *event) { return event->keyval; }
static inline guint menud_popup_event_state(GdkEventKey *event) { return event->state; }
static inline GdkScrollDirection menud_popup_scroll_direction(GdkEventScroll *event) {
    return event->direction;
}
static inline gdouble menud_popup_scroll_delta_y(GdkEventScroll *event) { return event->delta_y; }
