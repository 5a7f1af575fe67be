import CGtk

/// A GTK object pointer as another of its types: GTK's `GTK_CONTAINER (w)` and the
/// like are macros, and its classes are plain C structs to Swift, so a widget is
/// passed to `gtk_container_add` as a `GtkContainer` by this cast. Only for an object
/// that is of that type, as GTK's own macros assume.
@inline(__always)
func gtk<T>(_ object: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<T>? {
    object?.assumingMemoryBound(to: T.self)
}

@inline(__always)
func gtk<T, U>(_ object: UnsafeMutablePointer<U>?) -> UnsafeMutablePointer<T>? {
    UnsafeMutableRawPointer(object)?.assumingMemoryBound(to: T.self)
}
