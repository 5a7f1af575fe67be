import CGtk

/// Letters of a label's plain text marked by Pango attributes, never by markup, so
/// that no `<`, `&` or `_` of a title is read: a row's access key underlined, and a
/// search answer's matched letters in bold, underlined, and in the colour of the
/// `match` class when a stylesheet gives it one.
enum MarkedLetters {
    enum Mark {
        case accessKey
        case match
    }

    /// Sets `text` on `label` with the Unicode scalars at `offsets` (0-based, as
    /// `find` gives them) marked; offsets past the text are left out.
    static func show(
        _ text: String, on label: UnsafeMutablePointer<GtkWidget>, marking offsets: [Int], as mark: Mark
    ) {
        gtk_label_set_text(gtk(label), text)
        let attributes = pango_attr_list_new()
        let wanted = Set(offsets)
        let color = mark == .match ? matchColor(label) : nil
        var byte = 0
        var runStart: Int?
        func close(at end: Int) {
            guard let start = runStart else { return }
            runStart = nil
            var marks: [UnsafeMutablePointer<PangoAttribute>] = [
                pango_attr_underline_new(PANGO_UNDERLINE_SINGLE)
            ]
            if mark == .match {
                marks.append(pango_attr_weight_new(PANGO_WEIGHT_BOLD))
                if let color { marks.append(pango_attr_foreground_new(color.0, color.1, color.2)) }
            }
            for attribute in marks {
                attribute.pointee.start_index = guint(start)
                attribute.pointee.end_index = guint(end)
                pango_attr_list_insert(attributes, attribute)
            }
        }
        for (k, scalar) in text.unicodeScalars.enumerated() {
            if wanted.contains(k) {
                if runStart == nil { runStart = byte }
            } else {
                close(at: byte)
            }
            byte += String(scalar).utf8.count
        }
        close(at: byte)
        gtk_label_set_attributes(gtk(label), attributes)
        pango_attr_list_unref(attributes)
    }

    /// The colour a stylesheet gives `.match` on this label, when it differs from
    /// the label's own: without such a rule the letters keep the row's colour, which
    /// stays readable when the row is selected.
    private static func matchColor(_ label: UnsafeMutablePointer<GtkWidget>) -> (UInt16, UInt16, UInt16)? {
        let context = gtk_widget_get_style_context(label)
        let state = gtk_style_context_get_state(context)
        var plain = GdkRGBA()
        gtk_style_context_get_color(context, state, &plain)
        gtk_style_context_save(context)
        gtk_style_context_add_class(context, "match")
        var styled = GdkRGBA()
        gtk_style_context_get_color(context, state, &styled)
        gtk_style_context_restore(context)
        guard styled.red != plain.red || styled.green != plain.green || styled.blue != plain.blue else {
            return nil
        }
        func channel(_ value: Double) -> UInt16 { UInt16(max(0, min(1, value)) * 65535) }
        return (channel(styled.red), channel(styled.green), channel(styled.blue))
    }
}
