import MenuCore

/// Decodes one config straight from the YAML event stream into the flat arrays of a
/// ``MenuTree``: a node is appended when its mapping starts, which is pre-order, and
/// filled in when it ends. Nested menus are kept on an explicit stack of drafts
/// rather than by recursion, so input depth can never overflow the call stack, and
/// only the nodes currently open exist as drafts.
struct ConfigDecoder {
    let reader: YAMLEventReader
    var errors: [ConfigError] = []
    /// Template paths with where they were written, checked once the whole tree is known.
    var references: [(path: String, mark: SourceMark)] = []
    /// The groups whose `exclusive` was left to the settings, which may come after `menu:`.
    var groupsUsingDefaultExclusive: [Int] = []
    /// Errors that hold only if the settings make groups exclusive by default.
    var errorsIfExclusiveByDefault: [ConfigError] = []
    var exclusiveByDefault = false
    /// `settings: tray`.
    var tray = false
    /// The last title or subtitle parsed as a template. Templated titles tend to
    /// repeat (`Volume {value}` in one group after another), and parsing costs more
    /// than comparing; one entry keeps memory flat however many differ.
    var lastTemplate: (text: String, template: TitleTemplate)?
    /// The document is a bare list of nodes (a `children-cmd`'s output) rather than
    /// a config with `menu:`.
    let nodesOnly: Bool
    /// What has been decoded so far; meaningful only when no errors were recorded.
    var tree: MenuTree

    init(reader: YAMLEventReader, nodesOnly: Bool = false) {
        self.reader = reader
        self.nodesOnly = nodesOnly
        tree = MenuTree(file: reader.file)
        if let size = reader.inputSize { tree.reserveCapacity(forBytes: size) }
    }

    var file: String { reader.file }

    mutating func error(_ mark: SourceMark, _ message: String) {
        errors.append(ConfigError(file: file, mark: mark, message: message))
    }

    /// Decodes the document into ``tree``.
    mutating func decode() throws(LoadStop) {
        let start = SourceMark(line: 1, column: 1)
        var event = try reader.next()
        if event.kind == .streamEnd {
            error(start, "empty config")
            return
        }
        event = try reader.next()
        if nodesOnly, event.kind == .sequenceStart {
            try decodeNodes(event)
        } else if !nodesOnly, event.kind == .mappingStart {
            try decodeTop(event)
        } else if event.isNull {
            error(start, "empty config")
        } else if nodesOnly {
            error(event.mark, "expected a list of nodes, got \(reader.summary(event))")
            try reader.skip(event)
        } else {
            error(event.mark, "expected a mapping with 'menu', got \(reader.summary(event))")
            try reader.skip(event)
        }
        _ = try reader.next()  // document end
        event = try reader.next()
        if event.kind == .documentStart {
            error(event.mark, "only one YAML document is allowed")
        }
        if exclusiveByDefault {
            errors += errorsIfExclusiveByDefault
            if errors.isEmpty {
                for group in groupsUsingDefaultExclusive { tree.exclusive[group] = true }
            }
        }
        checkReferences()
    }

    private mutating func decodeTop(_ mapping: YAMLEvent) throws(LoadStop) {
        var menuLine: Int?
        var settingsLine: Int?
        /// `menux:` is reported as unknown, and not `menu` as missing too.
        var menuMisspelt = false
        while true {
            let key = try reader.next()
            if key.kind == .mappingEnd { break }
            guard let name = try keyName(key) else { continue }
            let value = try reader.next()
            switch name {
            case "menu":
                if let line = menuLine {
                    error(key.mark, "duplicate key 'menu' (first at line \(line))")
                    try reader.skip(value)
                } else {
                    menuLine = key.mark.line
                    try decodeNodes(value)
                }
            case "settings":
                if let line = settingsLine {
                    error(key.mark, "duplicate key 'settings' (first at line \(line))")
                    try reader.skip(value)
                } else {
                    settingsLine = key.mark.line
                    try decodeSettings(value)
                }
            default:
                let known = ["menu", "settings"]
                let near = KeySuggestion.nearest(to: name, in: known)
                error(key.mark, KeySuggestion.unknownKey(name, known: known, near: near))
                if near == "menu" { menuMisspelt = true }
                try reader.skip(value)
            }
        }
        if menuLine == nil && !menuMisspelt { error(mapping.mark, "missing 'menu'") }
    }

    private mutating func decodeSettings(_ value: YAMLEvent) throws(LoadStop) {
        guard value.kind == .mappingStart else {
            error(value.mark, "expected a mapping, got \(reader.summary(value))")
            try reader.skip(value)
            return
        }
        var seen: [String: Int] = [:]
        while true {
            let key = try reader.next()
            if key.kind == .mappingEnd { return }
            guard let name = try keyName(key) else { continue }
            let value = try reader.next()
            if name != "exclusive" && name != "tray" {
                error(key.mark, KeySuggestion.unknownKey(name, known: ["exclusive", "tray"]))
                try reader.skip(value)
            } else if let line = seen[name] {
                error(key.mark, "duplicate key '\(name)' (first at line \(line))")
                try reader.skip(value)
            } else {
                seen[name] = key.mark.line
                if name == "exclusive" {
                    exclusiveByDefault = try readBool(value) ?? false
                } else {
                    tray = try readBool(value) ?? false
                }
            }
        }
    }

    /// Reads a list of nodes (`menu:`) and everything below it.
    private mutating func decodeNodes(_ list: YAMLEvent) throws(LoadStop) {
        guard list.kind == .sequenceStart else {
            error(list.mark, "expected a list of nodes, got \(reader.summary(list))")
            try reader.skip(list)
            return
        }
        var top = Siblings()
        // The nodes being read, outermost first: `drafts[0..<depth]`, of which the
        // first `made` are initialized. Each draft is reused for every node at its
        // depth and lives in fixed storage, so that reading a node copies, allocates
        // and reference-counts nothing beyond the strings it keeps.
        let keyCount = NodeKey.all.count
        let drafts = UnsafeMutablePointer<NodeDraft>.allocate(capacity: MenuTree.maxDepth)
        let keyMarks = UnsafeMutablePointer<SourceMark>.allocate(
            capacity: MenuTree.maxDepth * keyCount)
        var made = 0
        defer {
            drafts.deinitialize(count: made)
            drafts.deallocate()
            keyMarks.deallocate()
        }
        var depth = 0
        var topEntries = 0
        while true {
            let event = try reader.next()
            if depth == 0 || drafts[depth - 1].inChildren {
                if depth == 0 && event.kind != .sequenceEnd { topEntries += 1 }
                switch event.kind {
                case .sequenceEnd:
                    guard depth > 0 else {
                        if topEntries == 0 { error(list.mark, "'menu' has no nodes") }
                        return
                    }
                    drafts[depth - 1].inChildren = false
                case .mappingStart:
                    let node: Int
                    if depth > 0 {
                        if depth == MenuTree.maxDepth {
                            throw LoadStop(
                                error: ConfigError(
                                    file: file, mark: event.mark,
                                    message: "menu is nested deeper than \(MenuTree.maxDepth) levels"
                                ),
                                isSyntax: false)
                        }
                        let parent = drafts + (depth - 1)
                        node = tree.append(
                            parent: parent.pointee.node, depth: depth,
                            position: parent.pointee.children.count,
                            mark: event.mark)
                    } else {
                        node = tree.append(parent: -1, depth: 0, position: top.count, mark: event.mark)
                    }
                    if depth == made {
                        (drafts + made).initialize(to: NodeDraft(keyMarks: keyMarks + made * keyCount))
                        made += 1
                    }
                    drafts[depth].start(mark: event.mark, node: node)
                    depth += 1
                default:
                    error(event.mark, "expected a node (a mapping), got \(reader.summary(event))")
                    try reader.skip(event)
                }
                continue
            }
            let draft = drafts + (depth - 1)
            switch event.kind {
            case .mappingEnd:
                let (id, hash, idMark) = finish(&draft.pointee)
                let node = draft.pointee.node
                let expanded = tree.initiallyExpanded[node]
                let keyMark = draft.pointee.key?.mark
                depth -= 1
                if depth > 0 {
                    add(
                        id, hash: hash, node: node, idMark: idMark, keyMark: keyMark,
                        to: &drafts[depth - 1].children, expanded: expanded)
                } else {
                    add(
                        id, hash: hash, node: node, idMark: idMark, keyMark: keyMark, to: &top,
                        expanded: expanded)
                }
            case .scalar:
                let key = reader.nodeKey
                // The only key text ever needed is an unknown key's, for its message.
                let unknownName = key == nil ? reader.text : ""
                let value = try reader.next()
                guard let key else {
                    let near = KeySuggestion.nearest(to: unknownName, in: NodeKey.names)
                    error(event.mark, KeySuggestion.unknownKey(unknownName, known: NodeKey.names, near: near))
                    if let meant = near.flatMap(NodeKey.init(name:)) { draft.pointee.misspelt |= meant.bit }
                    try reader.skip(value)
                    continue
                }
                if draft.pointee.has(key) {
                    let first = draft.pointee.mark(of: key)
                    error(event.mark, "duplicate key '\(key.name)' (first at line \(first.line))")
                    try reader.skip(value)
                    continue
                }
                draft.pointee.record(key, at: event.mark)
                if key == .children {
                    if value.kind == .sequenceStart {
                        draft.pointee.inChildren = true
                    } else {
                        error(value.mark, "expected a list of nodes, got \(reader.summary(value))")
                        try reader.skip(value)
                    }
                } else {
                    try readField(key, keyMark: event.mark, value: value, into: &draft.pointee)
                }
            default:
                _ = try keyName(event)
            }
        }
    }

    private mutating func readField(
        _ key: NodeKey, keyMark: SourceMark, value: YAMLEvent, into draft: inout NodeDraft
    ) throws(LoadStop) {
        // Spelled out per type: a generic helper here was not specialized and cost
        // a metadata lookup per key.
        func text() throws(LoadStop) -> Field<String>? {
            guard let s = try readString(value) else { return nil }
            return Field(value: s, keyMark: keyMark, mark: value.mark)
        }
        func flag() throws(LoadStop) -> Field<Bool>? {
            guard let b = try readBool(value) else { return nil }
            return Field(value: b, keyMark: keyMark, mark: value.mark)
        }
        func number() throws(LoadStop) -> Field<Double>? {
            guard let n = try readNumber(value) else { return nil }
            return Field(value: n, keyMark: keyMark, mark: value.mark)
        }
        switch key {
        case .id:
            guard let id = try text() else { return }
            let bytes = reader.bytes
            draft.idIsValid = NodeID.isValid(bytes)
            // An invalid id is replaced in `finish`, which hashes the replacement.
            if draft.idIsValid { draft.idHash = Siblings.hash(bytes) }
            draft.id = id
        case .title:
            guard let title = try text() else { return }
            draft.titleHasBrace = ConfigDecoder.hasBrace(reader.bytes)
            draft.title = title
        case .subtitle: draft.subtitle = try text()
        case .icon: draft.icon = try text()
        case .exec: draft.exec = try text()
        case .onChange: draft.onChange = try text()
        case .childrenCommand: draft.childrenCommand = try text()
        case .valueCommand: draft.valueCommand = try text()
        case .valueListen: draft.valueListen = try text()
        case .interval: draft.interval = try text()
        case .refresh: draft.refresh = try text()
        case .childrenFrom: draft.childrenFrom = try text()
        case .key: draft.key = try text()
        case .keywords:
            if let words = try readStrings(value) {
                draft.keywords = Field(value: words, keyMark: keyMark, mark: value.mark)
            }
        case .confirm:
            // `true` asks the default question, `false` nothing; any other text is the question.
            if value.kind == .scalar, value.isPlain, let ask = reader.scalar(value).bool {
                if ask { draft.confirm = Field(value: "", keyMark: keyMark, mark: value.mark) }
            } else if let question = try text() {
                if question.value.isEmpty {
                    error(value.mark, "'confirm' needs a question, or true for the default one")
                } else {
                    draft.confirm = question
                }
            }
        case .expanded: draft.expanded = try flag()
        case .exclusive: draft.exclusive = try flag()
        case .min: draft.min = try number()
        case .max: draft.max = try number()
        case .step: draft.step = try number()
        case .type:
            guard let name = try readString(value) else { return }
            if let kind = NodeKind(rawValue: name), NodeKind.configurable.contains(kind) {
                draft.type = Field(value: kind, keyMark: keyMark, mark: value.mark)
            } else {
                let valid = NodeKind.configurable.map(\.rawValue).joined(separator: ", ")
                error(value.mark, "unknown type '\(YAMLEvent.clip(name))' (expected one of: \(valid))")
            }
        case .value:
            if value.kind == .scalar && !value.isNull {
                draft.value = Field(value: reader.scalar(value), keyMark: keyMark, mark: value.mark)
            } else {
                error(value.mark, "expected a value, got \(reader.summary(value))")
                try reader.skip(value)
            }
        case .options:
            if let options = try readOptions(value) {
                draft.options = Field(value: options, keyMark: keyMark, mark: value.mark)
            }
        case .children: break
        }
    }

    private mutating func readOptions(_ list: YAMLEvent) throws(LoadStop) -> [OptionDraft]? {
        guard list.kind == .sequenceStart else {
            error(list.mark, "expected a list of options, got \(reader.summary(list))")
            try reader.skip(list)
            return nil
        }
        var options: [OptionDraft] = []
        while true {
            let event = try reader.next()
            switch event.kind {
            case .sequenceEnd:
                return options
            case .scalar where !reader.bytes.isEmpty && !event.isNull:
                let name = Field(value: reader.text, keyMark: event.mark, mark: event.mark)
                options.append(OptionDraft(mark: event.mark, id: name, title: name, isShortForm: true))
            case .mappingStart:
                options.append(try readOptionMapping(event))
            default:
                error(event.mark, "expected an option (a name or a mapping), got \(reader.summary(event))")
                try reader.skip(event)
            }
        }
    }

    private mutating func readOptionMapping(_ mapping: YAMLEvent) throws(LoadStop) -> OptionDraft {
        var option = OptionDraft(mark: mapping.mark)
        var firstLines: [String: Int] = [:]
        while true {
            let key = try reader.next()
            if key.kind == .mappingEnd { return option }
            guard let name = try keyName(key) else { continue }
            let value = try reader.next()
            guard name == "id" || name == "title" || name == "icon" else {
                let known = ["id", "title", "icon"]
                let near = KeySuggestion.nearest(to: name, in: known)
                error(key.mark, KeySuggestion.unknownKey(name, known: known, near: near))
                if near == "title" { option.misspeltTitle = true }
                try reader.skip(value)
                continue
            }
            if let line = firstLines[name] {
                error(key.mark, "duplicate key '\(name)' (first at line \(line))")
                try reader.skip(value)
                continue
            }
            firstLines[name] = key.mark.line
            let text = try readString(value).map { Field(value: $0, keyMark: key.mark, mark: value.mark) }
            switch name {
            case "id": option.id = text
            case "title": option.title = text
            default: option.icon = text
            }
        }
    }

    /// The text of a scalar key. Other keys are reported and skipped with their value.
    private mutating func keyName(_ key: YAMLEvent) throws(LoadStop) -> String? {
        if key.kind == .scalar { return reader.text }
        error(key.mark, "expected a key, got \(reader.summary(key))")
        try reader.skip(key)
        try reader.skip(try reader.next())
        return nil
    }

    private mutating func readString(_ value: YAMLEvent) throws(LoadStop) -> String? {
        if value.kind == .scalar && !value.isNull { return reader.text }
        error(value.mark, "expected a string, got \(reader.summary(value))")
        try reader.skip(value)
        return nil
    }

    /// One string, or a list of strings.
    private mutating func readStrings(_ value: YAMLEvent) throws(LoadStop) -> [String]? {
        guard value.kind == .sequenceStart else { return try readString(value).map { [$0] } }
        var strings: [String] = []
        while true {
            let event = try reader.next()
            if event.kind == .sequenceEnd { return strings }
            if let s = try readString(event) { strings.append(s) }
        }
    }

    private mutating func readBool(_ value: YAMLEvent) throws(LoadStop) -> Bool? {
        if value.kind == .scalar, value.isPlain, let b = reader.scalar(value).bool { return b }
        error(value.mark, "expected a boolean (true or false), got \(reader.summary(value))")
        try reader.skip(value)
        return nil
    }

    private mutating func readNumber(_ value: YAMLEvent) throws(LoadStop) -> Double? {
        if value.kind == .scalar, value.isPlain, let n = reader.scalar(value).number { return n }
        error(value.mark, "expected a number, got \(reader.summary(value))")
        try reader.skip(value)
        return nil
    }

    /// Counts node `node`, whose id is `id`, among `siblings`, reporting a duplicate id
    /// and an explicit key (written at `keyMark`) that a sibling has already.
    mutating func add(
        _ id: String, hash: UInt64, node: Int, idMark: SourceMark, keyMark: SourceMark?,
        to siblings: inout Siblings, expanded: Bool
    ) {
        if expanded { siblings.expandedCount += 1 }
        if !id.isEmpty, let line = siblings.add(id, hash: hash, node: node, line: idMark.line, ids: tree.ids)
        {
            error(idMark, "duplicate id '\(id)' (first at line \(line))")
        }
        if let keyMark, let key = tree.explicitKeys[node],
            let first = siblings.add(key: key, node: node, line: keyMark.line)
        {
            let name = tree.ids[first.node].isEmpty ? "a sibling" : "sibling '\(tree.ids[first.node])'"
            error(
                keyMark,
                "key '\(Character(Unicode.Scalar(key)))' is taken: \(name) (line \(first.line)) has it already"
            )
        }
        siblings.count += 1
    }
}
