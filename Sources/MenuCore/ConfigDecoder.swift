/// Decodes one config straight from the YAML event stream. Nested menus are kept on
/// an explicit stack of drafts rather than by recursion, so input depth can never
/// overflow the call stack, and only the nodes currently open exist as drafts.
struct ConfigDecoder {
    /// Deepest menu accepted. Deeper menus cannot be navigated anyway, and the bound
    /// lets later passes over the finished tree recurse safely.
    static let maxMenuDepth = 64

    let reader: YAMLEventReader
    var errors: [ConfigError] = []
    /// Template paths with where they were written, checked once the whole tree is known.
    var references: [(path: String, mark: SourceMark)] = []
    /// For each group, in the order groups are finished (children before parents):
    /// whether `exclusive` was left to the settings, which may come after `menu:`.
    var groupUsesDefaultExclusive: [Bool] = []
    /// Errors that hold only if the settings make groups exclusive by default.
    var errorsIfExclusiveByDefault: [ConfigError] = []
    var exclusiveByDefault = false
    /// The document is a bare list of nodes (a `children-cmd`'s output) rather than
    /// a config with `menu:`.
    let nodesOnly: Bool

    init(reader: YAMLEventReader, nodesOnly: Bool = false) {
        self.reader = reader
        self.nodesOnly = nodesOnly
    }

    var file: String { reader.file }

    mutating func error(_ mark: SourceMark, _ message: String) {
        errors.append(ConfigError(file: file, mark: mark, message: message))
    }

    /// The menus of the document; meaningful only when no errors were recorded.
    mutating func decode() throws(LoadStop) -> [NodeSpec] {
        let start = SourceMark(line: 1, column: 1)
        var event = try reader.next()
        if event.kind == .streamEnd {
            error(start, "empty config")
            return []
        }
        event = try reader.next()
        var menus: [NodeSpec] = []
        if nodesOnly, event.kind == .sequenceStart {
            menus = try decodeNodes(event)
        } else if !nodesOnly, event.kind == .mappingStart {
            menus = try decodeTop(event)
        } else if event.isNull {
            error(start, "empty config")
        } else if nodesOnly {
            error(event.mark, "expected a list of nodes, got \(event.summary)")
            try reader.skip(event)
        } else {
            error(event.mark, "expected a mapping with 'menu', got \(event.summary)")
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
                var next = 0
                ConfigDecoder.applyDefaultExclusive(&menus, flags: groupUsesDefaultExclusive, next: &next)
            }
        }
        checkReferences(in: menus)
        return menus
    }

    private mutating func decodeTop(_ mapping: YAMLEvent) throws(LoadStop) -> [NodeSpec] {
        var menus: [NodeSpec] = []
        var menuLine: Int?
        var settingsLine: Int?
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
                    menus = try decodeNodes(value)
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
                error(key.mark, KeySuggestion.unknownKey(name, known: ["menu", "settings"]))
                try reader.skip(value)
            }
        }
        if menuLine == nil { error(mapping.mark, "missing 'menu'") }
        return menus
    }

    private mutating func decodeSettings(_ value: YAMLEvent) throws(LoadStop) {
        guard value.kind == .mappingStart else {
            error(value.mark, "expected a mapping, got \(value.summary)")
            try reader.skip(value)
            return
        }
        var exclusiveLine: Int?
        while true {
            let key = try reader.next()
            if key.kind == .mappingEnd { return }
            guard let name = try keyName(key) else { continue }
            let value = try reader.next()
            if name != "exclusive" {
                error(key.mark, KeySuggestion.unknownKey(name, known: ["exclusive"]))
                try reader.skip(value)
            } else if let line = exclusiveLine {
                error(key.mark, "duplicate key 'exclusive' (first at line \(line))")
                try reader.skip(value)
            } else {
                exclusiveLine = key.mark.line
                exclusiveByDefault = try readBool(value) ?? false
            }
        }
    }

    /// Reads a list of nodes (`menu:`) and everything below it.
    private mutating func decodeNodes(_ list: YAMLEvent) throws(LoadStop) -> [NodeSpec] {
        guard list.kind == .sequenceStart else {
            error(list.mark, "expected a list of nodes, got \(list.summary)")
            try reader.skip(list)
            return []
        }
        var top = Siblings()
        // The node being read is kept apart from its ancestors: working on an array
        // element in place is not guaranteed, and copying drafts showed in profiles.
        var current: NodeDraft?
        var ancestors: [NodeDraft] = []
        var topEntries = 0
        while true {
            let event = try reader.next()
            if current == nil || current!.inChildren {
                if current == nil && event.kind != .sequenceEnd { topEntries += 1 }
                switch event.kind {
                case .sequenceEnd:
                    if current == nil {
                        if topEntries == 0 { error(list.mark, "'menu' has no nodes") }
                        return top.nodes
                    }
                    current!.inChildren = false
                case .mappingStart:
                    if let parent = current {
                        if ancestors.count + 1 == ConfigDecoder.maxMenuDepth {
                            throw LoadStop(
                                error: ConfigError(
                                    file: file, mark: event.mark,
                                    message: "menu is nested deeper than \(ConfigDecoder.maxMenuDepth) levels"
                                ),
                                isSyntax: false)
                        }
                        ancestors.append(parent)
                    }
                    current = NodeDraft(mark: event.mark)
                default:
                    error(event.mark, "expected a node (a mapping), got \(event.summary)")
                    try reader.skip(event)
                }
                continue
            }
            switch event.kind {
            case .mappingEnd:
                let (spec, idMark) = finish(current.take()!)
                current = ancestors.popLast()
                if current == nil {
                    add(spec, idMark: idMark, to: &top)
                } else {
                    add(spec, idMark: idMark, to: &current!.children)
                }
            default:
                guard let name = try keyName(event) else { continue }
                let value = try reader.next()
                guard let key = NodeKey(rawValue: name) else {
                    error(event.mark, KeySuggestion.unknownKey(name, known: NodeKey.names))
                    try reader.skip(value)
                    continue
                }
                if current!.has(key) {
                    let first = current!.mark(of: key)
                    error(event.mark, "duplicate key '\(name)' (first at line \(first.line))")
                    try reader.skip(value)
                    continue
                }
                current!.record(key, at: event.mark)
                if key == .children {
                    if value.kind == .sequenceStart {
                        current!.inChildren = true
                    } else {
                        error(value.mark, "expected a list of nodes, got \(value.summary)")
                        try reader.skip(value)
                    }
                } else {
                    try readField(key, keyMark: event.mark, value: value, into: &current!)
                }
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
        case .id: draft.id = try text()
        case .title: draft.title = try text()
        case .subtitle: draft.subtitle = try text()
        case .icon: draft.icon = try text()
        case .exec: draft.exec = try text()
        case .onChange: draft.onChange = try text()
        case .childrenCommand: draft.childrenCommand = try text()
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
                draft.value = Field(value: value, keyMark: keyMark, mark: value.mark)
            } else {
                error(value.mark, "expected a value, got \(value.summary)")
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
            error(list.mark, "expected a list of options, got \(list.summary)")
            try reader.skip(list)
            return nil
        }
        var options: [OptionDraft] = []
        while true {
            let event = try reader.next()
            switch event.kind {
            case .sequenceEnd:
                return options
            case .scalar where !event.text.isEmpty && !event.isNull:
                let name = Field(value: event.text, keyMark: event.mark, mark: event.mark)
                options.append(OptionDraft(mark: event.mark, id: name, title: name, isShortForm: true))
            case .mappingStart:
                options.append(try readOptionMapping(event))
            default:
                error(event.mark, "expected an option (a name or a mapping), got \(event.summary)")
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
                error(key.mark, KeySuggestion.unknownKey(name, known: ["id", "title", "icon"]))
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
        if key.kind == .scalar { return key.text }
        error(key.mark, "expected a key, got \(key.summary)")
        try reader.skip(key)
        try reader.skip(try reader.next())
        return nil
    }

    private mutating func readString(_ value: YAMLEvent) throws(LoadStop) -> String? {
        if value.kind == .scalar && !value.isNull { return value.text }
        error(value.mark, "expected a string, got \(value.summary)")
        try reader.skip(value)
        return nil
    }

    private mutating func readBool(_ value: YAMLEvent) throws(LoadStop) -> Bool? {
        if let b = value.bool { return b }
        error(value.mark, "expected a boolean (true or false), got \(value.summary)")
        try reader.skip(value)
        return nil
    }

    private mutating func readNumber(_ value: YAMLEvent) throws(LoadStop) -> Double? {
        if let n = value.number { return n }
        error(value.mark, "expected a number, got \(value.summary)")
        try reader.skip(value)
        return nil
    }

    mutating func add(_ spec: NodeSpec, idMark: SourceMark, to siblings: inout Siblings) {
        if !spec.id.isEmpty {
            if let line = siblings.firstLine[spec.id] {
                error(idMark, "duplicate id '\(spec.id)' (first at line \(line))")
            } else {
                siblings.firstLine[spec.id] = idMark.line
            }
        }
        siblings.nodes.append(spec)
    }

    /// Walks groups in the order they were finished; recursion is bounded by
    /// `maxMenuDepth`.
    private static func applyDefaultExclusive(_ nodes: inout [NodeSpec], flags: [Bool], next: inout Int) {
        for i in nodes.indices {
            applyDefaultExclusive(&nodes[i].children, flags: flags, next: &next)
            if nodes[i].kind == .group, next < flags.count {
                if flags[next] { nodes[i].exclusive = true }
                next += 1
            }
        }
    }
}
