import CYAML
import Glibc

/// The floor for loading: read the file and pull every libyaml event, building
/// nothing. `menud --check` does this and more, so the ratio between the two is what
/// the loader itself costs.
enum RawParse {
    /// Returns the number of events, or nil when the file cannot be read or parsed.
    static func events(inFile path: String) -> Int? {
        guard let f = fopen(path, "rb") else { return nil }
        defer { fclose(f) }
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return nil }
        defer { yaml_parser_delete(&parser) }
        yaml_parser_set_input_file(&parser, f)
        var count = 0
        var event = yaml_event_t()
        while true {
            guard yaml_parser_parse(&parser, &event) == 1 else { return nil }
            let done = event.type == YAML_STREAM_END_EVENT
            yaml_event_delete(&event)
            count += 1
            if done { return count }
        }
    }
}
