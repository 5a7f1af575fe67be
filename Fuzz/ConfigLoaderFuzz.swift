// libFuzzer target: any bytes as a config file. The loader must return a config or
// errors, never crash, hang or read out of bounds.

import MenuConfigLoading
import MenuCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfigLoader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    switch ConfigLoader.load(bytes: bytes, file: "fuzz.yaml") {
    case .success(let config):
        // A loaded config must also build a model whose rows can be listed.
        let model = MenuModel(config: config)
        _ = try? model.expandAll()
        _ = model.rows()
    case .failure(let errors):
        precondition(!errors.errors.isEmpty, "a failed load must say why")
    }
    return 0
}
