import MenuCore

/// The checks that need a whole node mapping: its type decides which keys apply and
/// how `value:` is read, and the type may be the last key written.
extension ConfigDecoder {
    /// Fills in the node from its draft, reporting what is wrong with it. Returns
    /// the node's id, its ``Siblings/hash(_:)-(String)`` and where it came from, for
    /// duplicate-id errors. `inout` only so that the draft is not copied.
    mutating func finish(_ draft: inout NodeDraft) -> (id: String, hash: UInt64, idMark: SourceMark) {
        let i = draft.node
        tree.close(i, childCount: draft.children.count)
        let inferred: NodeKind =
            draft.has(.children) || draft.has(.childrenCommand) || draft.has(.childrenFrom)
            ? .group : draft.has(.options) ? .choice : .item
        let kind = draft.type?.value ?? inferred
        tree.kinds[i] = kind
        // A misspelt type was already reported; judging keys against a guessed type
        // would only add noise.
        let kindKnown = draft.type != nil || !draft.has(.type)
        if kindKnown, draft.seen & ~kind.applicableKeyBits != 0 {
            for (key, mark) in draft.keys where !key.applies(to: kind) {
                error(mark, "'\(key.name)' does not apply to \(kind.withArticle)")
            }
        }

        var template: TitleTemplate?
        if let field = draft.title {
            template =
                draft.titleHasBrace ? self.template(field, kind: kindKnown ? kind : nil, isTitle: true) : nil
            if let template { tree.setTitle(i, template) } else { tree.titles[i] = field.value }
        } else if !draft.wrote(.title) {
            error(draft.mark, "missing 'title'")
        }
        if let field = draft.subtitle {
            tree.subtitles[i] =
                (ConfigDecoder.hasBrace(field.value)
                    ? self.template(field, kind: kindKnown ? kind : nil, isTitle: false) : nil)
                ?? TitleTemplate(literal: field.value)
        }
        if let icon = draft.icon { tree.icons[i] = icon.value }
        if let words = draft.keywords, !words.value.isEmpty {
            tree.keywords[i] = words.value.joined(separator: " ")
        }
        if let field = draft.key {
            if let key = MenuTree.keyByte(ofText: field.value) {
                tree.explicitKeys[i] = key
            } else {
                error(
                    field.mark,
                    "invalid key '\(YAMLEvent.clip(field.value))' (a key is one letter or digit: a-z, 0-9)")
            }
        }

        var idMark = draft.mark
        if let field = draft.id {
            idMark = field.mark
            if draft.idIsValid {
                tree.ids[i] = field.value
            } else {
                error(field.mark, ConfigDecoder.invalidID(field.value))
            }
        } else if let field = draft.title, !draft.has(.id) {
            idMark = field.mark
            let id = template.map { NodeID.derive(from: $0) } ?? NodeID.derive(fromText: field.value)
            tree.ids[i] = id
            if id.isEmpty {
                error(
                    draft.mark, "missing id (none can be derived from title '\(YAMLEvent.clip(field.value))')"
                )
            }
        }
        let id = tree.ids[i]
        let hash = draft.id != nil && draft.idIsValid ? draft.idHash : Siblings.hash(id)
        let result = (id, hash, idMark)

        guard kindKnown else { return result }
        let expanded = draft.expanded?.value ?? false
        if kind.isExpandable && expanded { tree.initiallyExpanded[i] = true }
        var rule: ValueRule?
        switch kind {
        case .group:
            if let command = draft.childrenCommand {
                if draft.has(.children) {
                    error(
                        command.keyMark,
                        "'children-cmd' and 'children' cannot both be given: the command supplies the children"
                    )
                }
                tree.childrenCommands[i] = command.value
            }
            if let source = childrenSource(draft) { tree.childrenSources[i] = source }
            if let every = refreshInterval(draft) { tree.refreshIntervals[i] = every }
            let explicit = draft.exclusive?.value
            tree.exclusive[i] = explicit ?? false
            if explicit == nil { groupsUsingDefaultExclusive.append(i) }
            if explicit != false, draft.children.expandedCount > 1, let problem = expandedConflict(in: i) {
                if explicit == true {
                    errors.append(problem)
                } else {
                    errorsIfExclusiveByDefault.append(problem)
                }
            }
        case .item:
            if let exec = draft.exec { tree.execs[i] = exec.value }
            if let confirm = draft.confirm {
                if draft.exec == nil {
                    error(confirm.keyMark, "'confirm' needs 'exec': there is nothing to confirm")
                } else {
                    tree.makeConfirmation(i, question: confirm.value, mark: confirm.keyMark)
                }
            }
        case .choice:
            let options = finishOptions(draft)
            if !options.isEmpty { rule = .choice(options: options) }
        case .range:
            rule = rangeRule(draft)
        case .toggle:
            rule = .toggle
        case .text:
            rule = .text(maxBytes: ValueRule.textLimit)
        case .date:
            rule = .date
        case .option:
            break
        }
        if let rule {
            tree.rules[i] = rule
            if let command = draft.onChange { tree.onChange[i] = command.value }
            if let source = valueSource(draft) { tree.valueSources[i] = source }
            var value: Value?
            if let field = draft.value {
                switch ConfigDecoder.parseValue(field.value, rule: rule) {
                case .success(let parsed): value = parsed
                case .failure(let problem): error(field.mark, problem.message)
                }
            }
            tree.initialValues[i] = value ?? rule.defaultValue
        }
        return result
    }

    static func invalidID(_ id: String) -> String {
        "invalid id '\(YAMLEvent.clip(id))' (use only letters, digits, '.', '_' and '-')"
    }

    /// Whether `text` may hold a placeholder. Most titles are plain text, and
    /// skipping the parser and the template for them keeps big configs quick to load.
    static func hasBrace(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { hasBrace($0) }
    }

    static func hasBrace(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.contains { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") }
    }

    /// Parses a title or subtitle that ``hasBrace(_:)`` and checks the placeholders
    /// that can be judged from this node alone; paths to other nodes wait for the
    /// whole tree.
    private mutating func template(_ field: Field<String>, kind: NodeKind?, isTitle: Bool) -> TitleTemplate? {
        let parsed: TitleTemplate
        if let last = lastTemplate, last.text == field.value {
            parsed = last.template
        } else {
            parsed = TitleTemplate(parsing: field.value)
            lastTemplate = (field.value, parsed)
        }
        var reportedValue = false
        var reportedTitle = false
        for segment in parsed.segments {
            switch segment {
            case .ownValue:
                if let kind, !kind.holdsValue, !reportedValue {
                    error(field.mark, "'{value}' needs a node with a value, and this is \(kind.withArticle)")
                    reportedValue = true
                }
            case .ownTitle:
                if isTitle, !reportedTitle {
                    error(field.mark, "'{title}' cannot be used in a title, which it would refer to")
                    reportedTitle = true
                }
            case .reference(let path):
                references.append((path, field.mark))
            case .literal:
                break
            }
        }
        return parsed
    }

    /// The second branch that starts expanded in an exclusive group.
    private func expandedConflict(in group: Int) -> ConfigError? {
        var first: Int?
        for child in tree.children(group) where tree.initiallyExpanded[child] {
            guard let open = first else {
                first = child
                continue
            }
            return ConfigError(
                file: file, mark: tree.mark(child),
                message:
                    "'\(tree.ids[child])' starts expanded, but exclusive group '\(tree.ids[group])' already has '\(tree.ids[open])' expanded"
            )
        }
        return nil
    }

    /// Appends the choice's options as its children and returns their ids.
    private mutating func finishOptions(_ draft: NodeDraft) -> [String] {
        guard let field = draft.options else {
            if !draft.wrote(.options) { error(draft.mark, "a choice needs 'options'") }
            return []
        }
        if field.value.isEmpty {
            error(field.mark, "a choice needs at least one option")
            return []
        }
        let choice = draft.node
        let depth = Int(tree.depths[choice]) + 1
        var options = Siblings()
        var ids: [String] = []
        for (position, option) in field.value.enumerated() {
            let i = tree.append(parent: choice, depth: depth, position: position, mark: option.mark)
            tree.kinds[i] = .option
            if let icon = option.icon { tree.icons[i] = icon.value }
            if let title = option.title {
                tree.titles[i] = title.value
            } else if !option.misspeltTitle {
                error(option.mark, "missing 'title'")
            }
            var idMark = option.mark
            if let id = option.id {
                idMark = id.mark
                tree.ids[i] = id.value
                if !NodeID.isValid(id.value) {
                    if option.isShortForm {
                        let suggested = NodeID.derive(fromText: tree.titles[i])
                        error(
                            id.mark,
                            "option '\(YAMLEvent.clip(id.value))' is not a valid id; write it as "
                                + "{id: \(suggested.isEmpty ? "..." : suggested), title: \(YAMLEvent.clip(id.value))}"
                        )
                    } else {
                        error(id.mark, ConfigDecoder.invalidID(id.value))
                    }
                }
            } else if let title = option.title {
                idMark = title.mark
                tree.ids[i] = NodeID.derive(fromText: title.value)
                if tree.ids[i].isEmpty {
                    error(
                        option.mark,
                        "missing id (none can be derived from title '\(YAMLEvent.clip(title.value))')")
                }
            }
            add(
                tree.ids[i], hash: Siblings.hash(tree.ids[i]), node: i, idMark: idMark, keyMark: nil,
                to: &options,
                expanded: false)
            ids.append(tree.ids[i])
        }
        tree.close(choice, childCount: field.value.count)
        return ids
    }

    /// `value-cmd`, `value-listen` and `interval`, checked: each command must say
    /// something, and `interval` only paces a `value-cmd`.
    private mutating func valueSource(_ draft: NodeDraft) -> ValueSource? {
        guard draft.valueCommand != nil || draft.valueListen != nil || draft.interval != nil else {
            return nil
        }
        var source = ValueSource()
        for (field, key) in [(draft.valueCommand, NodeKey.valueCommand), (draft.valueListen, .valueListen)] {
            guard let field else { continue }
            if field.value.allSatisfy(\.isWhitespace) {
                error(field.mark, "'\(key.name)' needs a command")
            } else if key == .valueCommand {
                source.command = field.value
            } else {
                source.listen = field.value
            }
        }
        if let interval = draft.interval {
            if draft.valueCommand == nil {
                error(interval.keyMark, "'interval' needs 'value-cmd': it says how often that command runs")
            }
            switch DurationText.parse(interval.value) {
            case .success(let duration): source.interval = duration
            case .failure(let problem): error(interval.mark, "'interval' \(problem.message)")
            }
        }
        return source.command == nil && source.listen == nil ? nil : source
    }

    /// `children-from`, checked: a known source, on a group whose children come
    /// from nowhere else.
    private mutating func childrenSource(_ draft: NodeDraft) -> ChildrenSource? {
        guard let field = draft.childrenFrom else { return nil }
        let source = ChildrenSource(rawValue: field.value)
        if source == nil {
            let known = ChildrenSource.allCases.map(\.rawValue).joined(separator: ", ")
            error(
                field.mark,
                "unknown 'children-from' '\(YAMLEvent.clip(field.value))' (expected one of: \(known))")
        }
        if draft.has(.children) {
            error(
                field.keyMark,
                "'children-from' and 'children' cannot both be given: the children come from '\(YAMLEvent.clip(field.value))'"
            )
        }
        if draft.has(.childrenCommand) {
            error(
                field.keyMark,
                "'children-from' and 'children-cmd' cannot both be given: the children come from one of them"
            )
        }
        return source
    }

    /// `refresh`, checked: it paces a `children-cmd`, so a group without one has
    /// nothing to run again.
    private mutating func refreshInterval(_ draft: NodeDraft) -> Duration? {
        guard let refresh = draft.refresh else { return nil }
        if draft.childrenCommand == nil {
            error(
                refresh.keyMark,
                "'refresh' needs 'children-cmd': it says how often that command runs again while the group is open"
            )
        }
        switch DurationText.parse(refresh.value) {
        case .success(let duration): return draft.childrenCommand == nil ? nil : duration
        case .failure(let problem):
            error(refresh.mark, "'refresh' \(problem.message)")
            return nil
        }
    }

    private mutating func rangeRule(_ draft: NodeDraft) -> ValueRule? {
        let low = draft.min?.value ?? 0
        let high = draft.max?.value ?? 100
        var valid = true
        if let step = draft.step, step.value <= 0 {
            error(step.mark, "'step' must be greater than 0")
            valid = false
        }
        if low > high {
            let mark = (draft.max ?? draft.min)!.mark
            error(mark, "'min' \(Value.format(low)) is greater than 'max' \(Value.format(high))")
            valid = false
        }
        return valid ? .range(min: low, max: high, step: draft.step?.value ?? 0) : nil
    }

    /// Reads `value:` by the very rule `set` uses (``ValueRule/parse(_:)``); the only
    /// YAML-specific part is quoting, which makes a scalar text and so no boolean or number.
    static func parseValue(_ scalar: YAMLScalar, rule: ValueRule) -> Result<Value, ValueError> {
        switch rule {
        case .toggle where !scalar.isPlain:
            return .failure(ValueError("expected a boolean (true or false), got \(scalar.summary)"))
        case .range where !scalar.isPlain:
            return .failure(ValueError("expected a number, got \(scalar.summary)"))
        default:
            return rule.parse(scalar.text)
        }
    }
}
