/// One D-Bus interface of a published object: its methods, properties and signals,
/// with Swift closures for what sd-bus calls. ``BusConnection/publish(_:at:)`` turns
/// it into sd-bus's table; sd-bus then checks each call's signature, and answers
/// `Introspect`, `Get`, `GetAll` and wrong signatures itself.
public struct BusInterface {
    public struct Method {
        public var member: String
        /// The arguments' signature, such as `ia{sv}`.
        public var signature: String
        /// The reply's signature.
        public var result: String
        /// Answers the call through ``BusCall``, now or later; a thrown error is the
        /// answer at once.
        public var handler: (BusCall) throws(BusReplyError) -> Void

        public init(
            _ member: String, _ signature: String, _ result: String,
            handler: @escaping (BusCall) throws(BusReplyError) -> Void
        ) {
            self.member = member
            self.signature = signature
            self.result = result
            self.handler = handler
        }
    }

    public struct Property {
        public var member: String
        public var signature: String
        /// The value now; its signature must be ``signature``.
        public var get: () -> BusValue

        public init(_ member: String, _ signature: String, get: @escaping () -> BusValue) {
            self.member = member
            self.signature = signature
            self.get = get
        }
    }

    public struct Signal {
        public var member: String
        public var signature: String

        public init(_ member: String, _ signature: String) {
            self.member = member
            self.signature = signature
        }
    }

    public var name: String
    public var methods: [Method]
    public var properties: [Property]
    public var signals: [Signal]

    public init(name: String, methods: [Method] = [], properties: [Property] = [], signals: [Signal] = []) {
        self.name = name
        self.methods = methods
        self.properties = properties
        self.signals = signals
    }
}
