extension Duration {
    /// The duration in seconds, as the log and error rows show it (`0.5`, `5.0`).
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
