/// The checks that need a whole node mapping: its type decides which keys apply and
/// how `value:` is read, and the type may be the last key written.
extension ConfigDecoder {
    /// Builds the node from its draft, reporting what is wrong with it. The returned
    /// mark is where the id came from, for duplicate-id errors.
    mutating func finish(_ draft: NodeDraft) -> (NodeSpec, SourceMark) {
        let inferred: NodeKind =
            draft.has(.children) || draft.has(.childrenCommand)
            ? .group : draft.has(.options) ? .choice : .item
        let kind = draft.type?.value ?? inferred
        // A misspelt type was already reported; judging keys against a guessed type
        // would only add noise.
        let kindKnown = draft.type != nil || !draft.has(.type)
        if kindKnown, draft.seen & ~kind.applicableKeyBits != 0 {
            for (key, mark) in draft.keys where !key.applies(to: kind) {
                error(mark, "'\(key.rawValue)' does not apply to \(kind.withArticle)")
            }
        }

        var title = TitleTemplate(literal: "")
        if let field = draft.title {
            title = template(field, kind: kindKnown ? kind : nil, isTitle: true)
        } else if !draft.has(.title) {
            error(draft.mark, "missing 'title'")
        }
        var spec = NodeSpec(id: "", kind: kind, title: title, mark: draft.mark)
        spec.subtitle = draft.subtitle.map { template($0, kind: kindKnown ? kind : nil, isTitle: false) }
        spec.icon = draft.icon?.value

        var idMark = draft.mark
        if let field = draft.id {
            idMark = field.mark
            if NodeID.isValid(field.value) {
                spec.id = field.value
            } else {
                error(field.mark, ConfigDecoder.invalidID(field.value))
            }
        } else if let field = draft.title, !draft.has(.id) {
            idMark = field.mark
            spec.id = NodeID.derive(from: title)
            if spec.id.isEmpty {
                error(
                    draft.mark, "missing id (none can be derived from title '\(YAMLEvent.clip(field.value))')"
                )
            }
        }

        guard kindKnown else { return (spec, idMark) }
        var rule: ValueRule?
        switch kind {
        case .group:
            spec.children = draft.children.nodes
            if let command = draft.childrenCommand {
                if draft.has(.children) {
                    error(
                        command.keyMark,
                        "'children-cmd' and 'children' cannot both be given: the command supplies the children"
                    )
                }
                spec.childrenCommand = command.value
            }
            spec.expanded = draft.expanded?.value ?? false
            let explicit = draft.exclusive?.value
            spec.exclusive = explicit ?? false
            groupUsesDefaultExclusive.append(explicit == nil)
            if explicit != false, let problem = expandedConflict(in: spec) {
                if explicit == true {
                    errors.append(problem)
                } else {
                    errorsIfExclusiveByDefault.append(problem)
                }
            }
        case .item:
            spec.exec = draft.exec?.value
        case .choice:
            spec.expanded = draft.expanded?.value ?? false
            spec.children = finishOptions(draft)
            if !spec.children.isEmpty { rule = .choice(options: spec.children.map(\.id)) }
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
            spec.rule = rule
            spec.onChange = draft.onChange?.value
            if let field = draft.value {
                switch ConfigDecoder.parseValue(field.value, rule: rule) {
                case .success(let value): spec.value = value
                case .failure(let problem): error(field.mark, problem.message)
                }
            }
            if spec.value == nil { spec.value = rule.defaultValue }
        }
        return (spec, idMark)
    }

    static func invalidID(_ id: String) -> String {
        "invalid id '\(YAMLEvent.clip(id))' (use only letters, digits, '.', '_' and '-')"
    }

    /// Parses a title or subtitle and checks the placeholders that can be judged
    /// from this node alone; paths to other nodes wait for the whole tree.
    private mutating func template(_ field: Field<String>, kind: NodeKind?, isTitle: Bool) -> TitleTemplate {
        // Most titles have no placeholders; skipping the parser for them keeps big
        // configs quick to load.
        guard field.value.utf8.contains(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") }) else {
            return TitleTemplate(literal: field.value)
        }
        let parsed = TitleTemplate(parsing: field.value)
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
    private func expandedConflict(in group: NodeSpec) -> ConfigError? {
        var first: NodeSpec?
        for child in group.children where child.kind.isExpandable && child.expanded {
            guard let open = first else {
                first = child
                continue
            }
            return ConfigError(
                file: file, mark: child.mark,
                message:
                    "'\(child.id)' starts expanded, but exclusive group '\(group.id)' already has '\(open.id)' expanded"
            )
        }
        return nil
    }

    private mutating func finishOptions(_ draft: NodeDraft) -> [NodeSpec] {
        guard let field = draft.options else {
            if !draft.has(.options) { error(draft.mark, "a choice needs 'options'") }
            return []
        }
        if field.value.isEmpty {
            error(field.mark, "a choice needs at least one option")
            return []
        }
        var options = Siblings()
        for option in field.value {
            var spec = NodeSpec(id: "", kind: .option, title: TitleTemplate(literal: ""), mark: option.mark)
            spec.icon = option.icon?.value
            if let title = option.title {
                spec.title = TitleTemplate(literal: title.value)
            } else {
                error(option.mark, "missing 'title'")
            }
            var idMark = option.mark
            if let id = option.id {
                idMark = id.mark
                spec.id = id.value
                if !NodeID.isValid(id.value) {
                    if option.isShortForm {
                        let suggested = NodeID.derive(from: spec.title)
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
                spec.id = NodeID.derive(from: spec.title)
                if spec.id.isEmpty {
                    error(
                        option.mark,
                        "missing id (none can be derived from title '\(YAMLEvent.clip(title.value))')")
                }
            }
            add(spec, idMark: idMark, to: &options)
        }
        return options.nodes
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

    /// Reads `value:` through the same rule `set` uses; only the YAML-specific part
    /// (booleans written as yes/no, quoting) is decided here.
    static func parseValue(_ scalar: YAMLEvent, rule: ValueRule) -> Result<Value, ValueError> {
        switch rule {
        case .toggle:
            if let on = scalar.bool { return rule.parse(on ? "true" : "false") }
            if !scalar.isPlain {
                return .failure(ValueError("expected a boolean (true or false), got \(scalar.summary)"))
            }
        case .range:
            if scalar.number == nil {
                return .failure(ValueError("expected a number, got \(scalar.summary)"))
            }
        default:
            break
        }
        return rule.parse(scalar.text)
    }
}
