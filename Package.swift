// swift-tools-version: 6.1
import Foundation
import PackageDescription

// menud and menuctl run on Linux only (Glibc, SO_PEERCRED, /proc/self), so the
// package names no Apple platform.
//
// menuctl, and menud and menud-popup in release builds, are linked with the Swift
// runtime in them (see their targets) unless this is set: sanitizers cannot
// instrument a static executable, so `.ci/sanitize` sets it.
let staticMenuctl = Context.environment["MENUD_DYNAMIC_MENUCTL"] == nil

// The Swift runtime linked in: lld because gold warns about a mktemp in the static
// Foundation archive. The libraries named are ones FoundationEssentials needs but
// does not autolink when linked this way. Sources/CUV/static holds a `libuv.a` that
// names Debian's static libuv, `libuv_a.a`, for pkg-config's `-luv`.
let staticSwift: [String] = [
    "-use-ld=lld", "-L\(Context.packageDirectory)/Sources/CUV/static",
    "-l_FoundationCShims", "-l_FoundationCollections", "-lswiftSynchronization",
]

// One static executable, for menuctl. menud links the Swift runtime the same way but
// the system's other libraries shared (`-static-stdlib`): its tray needs libsystemd,
// which Debian ships without a static archive.
let staticExecutable: [String] = ["-static-executable"] + staticSwift

// Release builds of menud, an executable, skip the runtime's exclusivity checks on
// class properties (`swift_beginAccess`): the connection, the command table and the
// daemon's parts are classes whose fields every request reads, and the checks would
// add 17–88% to a request's instructions (BENCHMARKS.md, "Hand-written pieces").
// No library has the flag: the model keeps its state in one value
// (`MenuCore/Model/ModelCore.swift`) and makes one checked access per operation.
// Debug builds, which the test suite and the sanitizer runs use, keep every check.
let releaseUncheckedExclusivity: [SwiftSetting] = [
    .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))
]

// The include paths of GTK 3 and gtk-layer-shell, for the popup's `CGtk`, from
// pkg-config; empty where they are not installed, and then only the popup fails to
// build. A system library's `pkgConfig:` would read the same files, but SwiftPM warns
// of the `-pthread` that glib's flags hold in every build of the package, the popup's
// or not (swift-package-manager #10549); the include paths are all the importer needs.
let gtkIncludeFlags: [String] = {
    let pkgConfig = Process()
    pkgConfig.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    pkgConfig.arguments = ["pkg-config", "--cflags-only-I", "gtk+-3.0", "gtk-layer-shell-0"]
    let output = Pipe()
    pkgConfig.standardOutput = output
    pkgConfig.standardError = FileHandle.nullDevice
    guard (try? pkgConfig.run()) != nil else { return [] }
    let flags = output.fileHandleForReading.readDataToEndOfFile()
    pkgConfig.waitUntilExit()
    guard pkgConfig.terminationStatus == 0 else { return [] }
    return String(decoding: flags, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" }).map(
        String.init)
}()

let package = Package(
    name: "menud",
    // menud is released under the MIT license (LICENSE).
    products: [
        .executable(name: "menud", targets: ["menud"]),
        .executable(name: "menuctl", targets: ["menuctl"]),
        .executable(name: "menud-popup", targets: ["menud-popup"]),
        .library(name: "MenuCore", targets: ["MenuCore"]),
        .library(name: "MenuConfigLoading", targets: ["MenuConfigLoading"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        .systemLibrary(
            name: "CUV",
            pkgConfig: "libuv",
            providers: [.apt(["libuv1-dev"])]
        ),
        .systemLibrary(
            name: "CSystemd",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
        // The model: the menu's tree, expansion, values, visible rows and the changes
        // that commands make. It reads no file and parses no YAML, so that what serves
        // rows (menuctl's formats, the protocol) links no libyaml.
        .target(
            name: "MenuCore"
        ),
        // Config loading: the YAML reader over libyaml, the decoder with its checks and
        // templates, producing the `MenuTree` the model takes. It fills the tree's
        // arrays itself (a second, nested copy of a big menu would double its memory),
        // through MenuCore's `package` members.
        .target(
            name: "MenuConfigLoading",
            dependencies: ["MenuCore", "CYAML"]
        ),
        // The applications menu's desktop entries: finding them in the XDG data
        // directories, reading them, and the menu of nodes and launches they make.
        // Kept out of MenuCore, which does no I/O, and out of menud, so that its
        // parsing is tested on its own.
        .target(
            name: "MenuApplications",
            dependencies: ["MenuCore"]
        ),
        // Icon names resolved to image files by the freedesktop Icon Theme
        // Specification, for the menus that take files (openbox, labwc). Reads files,
        // so it is kept out of MenuCore; menuctl's formats use it.
        .target(name: "MenuIcons"),
        // The wire format, shared by both ends: request words, records and their
        // escaping, error codes, events, replies. It renders the model's values, so it
        // depends on MenuCore and never the reverse: the model knows nothing of the wire.
        .target(
            name: "MenuProtocol",
            dependencies: ["MenuCore"]
        ),
        // The plumbing of libc that the daemon and its clients share, without the
        // protocol: writing a whole buffer, a socket path as an address (and whether
        // anyone listens there), the socket's default path and its directory's checks.
        .target(name: "MenuSystem"),
        // The client side of the protocol on libc sockets: connection and reading
        // replies (with MenuProtocol's reader). Shared by menuctl, the popup and the tests.
        .target(
            name: "MenuClient",
            dependencies: ["MenuProtocol", "MenuSystem"]
        ),
        // Swift types over libuv's handles, one per kind of handle: the only code that
        // touches a libuv pointer or callback.
        .target(name: "MenuLoop", dependencies: ["CUV"]),
        // Swift types over sd-bus (libsystemd), driven by a MenuLoop loop: the only code
        // that touches an sd-bus pointer or callback. menud's tray publishes its objects
        // with these and works with values and closures.
        .target(name: "MenuBus", dependencies: ["CSystemd", "MenuLoop"]),
        .executableTarget(
            name: "menud",
            dependencies: [
                "MenuCore",
                "MenuConfigLoading",
                "MenuApplications",
                "MenuProtocol",
                "MenuSystem",
                "MenuLoop",
                "MenuBus",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: releaseUncheckedExclusivity,
            // The Swift runtime linked in for release builds, for its start-up
            // (BENCHMARKS.md, "load": the dynamic loader's work on the Swift libraries
            // was most of a small config's `menud --check`) and so that an installed
            // menud needs no toolchain. Debug builds stay dynamic, because the test
            // targets that depend on menud take in its linker flags.
            linkerSettings: staticMenuctl
                ? [
                    .unsafeFlags(
                        ["-static-stdlib"] + staticSwift, .when(platforms: [.linux], configuration: .release))
                ]
                : []
        ),
        .executableTarget(
            name: "menuctl",
            dependencies: [
                "MenuCore",
                "MenuProtocol",
                "MenuClient",
                "MenuSystem",
                "MenuIcons",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // menuctl runs once per status-bar click or key press, so its start-up is
            // its speed. Linked as one static executable it skips the dynamic loader's
            // work on a dozen Swift libraries (BENCHMARKS.md, "client"). SwiftPM's
            // --static-swift-stdlib would do less and applies to every product.
            linkerSettings: staticMenuctl ? [.unsafeFlags(staticExecutable, .when(platforms: [.linux]))] : []
        ),
        // GTK 3 and gtk-layer-shell, for menud-popup alone: menud and menuctl never link
        // a toolkit (MenudLinkageTests).
        // Its include paths come from `gtkIncludeFlags`, not from `pkgConfig:` here.
        .systemLibrary(
            name: "CGtk",
            providers: [.apt(["libgtk-3-dev", "libgtk-layer-shell-dev"])]
        ),
        // The popup's side of the protocol, without GTK: its one subscribed connection,
        // the requests it sends in order, and a slider's values sent one at a time.
        .target(
            name: "MenuPopup",
            dependencies: ["MenuProtocol", "MenuClient"]
        ),
        // The popup: the accordion drawn with GTK, a client of the running menud.
        .executableTarget(
            name: "menud-popup",
            dependencies: [
                "CGtk", "MenuCore", "MenuPopup", "MenuProtocol", "MenuClient", "MenuSystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [.unsafeFlags(gtkIncludeFlags.flatMap { ["-Xcc", $0] })],
            // Release builds link the Swift runtime in as menud's do, so that an
            // installed popup needs no toolchain (no Debian package has its libraries);
            // GTK, which ships no static archives, stays shared.
            linkerSettings: staticMenuctl
                ? [
                    .unsafeFlags(
                        ["-static-stdlib"] + staticSwift, .when(platforms: [.linux], configuration: .release))
                ]
                : []
        ),
        // glibc's mallinfo2, which the Glibc module does not export.
        .target(name: "CMallocInfo"),
        .executableTarget(
            name: "menubench",
            dependencies: [
                "MenuCore", "MenuConfigLoading", "MenuApplications", "MenuProtocol", "MenuClient",
                "MenuSystem", "MenuLoop",
                "MenuIcons", "CYAML", "CMallocInfo",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "MenuCoreTests",
            dependencies: [
                "MenuCore", "MenuConfigLoading", "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "MenuConfigLoadingTests",
            dependencies: [
                "MenuCore", "MenuConfigLoading", "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            // Read from disk via #filePath, not bundled as resources.
            exclude: ["Fixtures"]
        ),
        // The popup's logic that needs no window: which rows it makes widgets for.
        .testTarget(
            name: "MenuPopupTests",
            dependencies: [
                "MenuPopup",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "MenuIconsTests",
            dependencies: ["MenuIcons", "TestSupport"]
        ),
        .testTarget(
            name: "MenuApplicationsTests",
            dependencies: ["MenuApplications", "MenuCore", "TestSupport"]
        ),
        .testTarget(
            name: "MenuProtocolTests",
            dependencies: [
                "MenuCore", "MenuConfigLoading", "MenuProtocol", "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        // What the test targets share: a thread of its own for each test that blocks,
        // waits that say what they waited for, temporary directories, programs started
        // and reaped, /proc's process table, and the daemon harness that runs the built
        // menud and menuctl. It takes only libraries: a library cannot depend on an
        // executable, so what needs menud's internals stays in the target that tests them.
        .target(
            name: "TestSupport",
            dependencies: ["MenuProtocol", "MenuClient"],
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "MenuLoopTests",
            dependencies: ["MenuLoop", "TestSupport"]
        ),
        // MenuBus against real D-Bus services: python-dbusmock's on a private bus.
        .testTarget(
            name: "MenuBusTests",
            dependencies: ["MenuBus", "MenuLoop", "TestSupport"]
        ),
        // The connection and its dispatch, driven with bytes through an in-memory
        // transport: no socket, no loop running.
        .testTarget(
            name: "MenudConnectionTests",
            dependencies: [
                "menud", "MenuCore", "MenuConfigLoading", "MenuProtocol", "MenuLoop", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "EndToEndTests",
            // The tests run the real binaries from the build directory. `swift test` builds
            // every product; menud is listed to be sure, menuctl cannot be: a test target
            // takes in its executable dependencies' linker flags, and menuctl's static link
            // would then apply to the test bundle.
            dependencies: ["MenuCore", "MenuProtocol", "MenuClient", "MenuSystem", "menud", "TestSupport"],
            exclude: ["Fixtures"]
        ),
    ]
)
