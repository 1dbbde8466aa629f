import Foundation
import Testing
import ViewfinderTestSupport

/// What lets another package depend on Viewfinder by version (SwiftPM refuses `unsafeFlags` in a
/// versioned dependency) and lets SwiftPM say what to install when a system library is missing:
/// checked on the manifest as SwiftPM reads it (`swift package dump-package`).
@Suite("Package manifest")
struct PackageManifestTests {
    struct Manifest: Decodable {
        struct Product: Decodable { let name: String; let targets: [String] }
        struct Target: Decodable {
            struct Dependency: Decodable {
                let byName: [String?]?
                let target: [String?]?
                var name: String? { (byName ?? target)?.first ?? nil }
            }
            let name: String
            let type: String
            let pkgConfig: String?
            let providers: [[String: [[String]]]]?
            let settings: [Setting]
            let dependencies: [Dependency]
        }
        struct Setting: Decodable {
            let kind: [String: AnyDecodable]
            let tool: String
        }
        struct AnyDecodable: Decodable { init(from decoder: Decoder) throws {} }
        let products: [Product]
        let targets: [Target]
    }

    /// `swift test` holds the lock on .build, so SwiftPM reads the manifest with a scratch folder of its own.
    static func manifest() throws -> Manifest {
        let scratch = TestPaths.scratchFolder("manifest")
        let result = try Subprocess.run("swift", ["package", "--package-path", TestPaths.repository.path,
                                                  "--scratch-path", scratch.path, "dump-package"], timeout: 120)
        return try JSONDecoder().decode(Manifest.self, from: Data(result.stdout.utf8))
    }

    /// Every target a library or program product reaches, through target dependencies.
    static func productClosure(_ manifest: Manifest) -> [Manifest.Target] {
        let byName = Dictionary(manifest.targets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var seen = Set<String>(), stack = manifest.products.flatMap(\.targets)
        while let name = stack.popLast() {
            guard seen.insert(name).inserted, let target = byName[name] else { continue }
            stack += target.dependencies.compactMap(\.name)
        }
        return manifest.targets.filter { seen.contains($0.name) }
    }

    /// System libraries that are the C library's own headers (no pkg-config module exists).
    static let partOfTheCLibrary: Set = ["CIntl"]

    @Test("no target a product reaches has unsafe flags; every system library names its pkg-config module and apt package")
    func versionedDependencyRules() throws {
        let manifest = try Self.manifest()
        let reached = Self.productClosure(manifest)
        #expect(reached.count >= 20)
        for target in reached {
            let unsafe = target.settings.filter { $0.kind.keys.contains("unsafeFlags") }
            #expect(unsafe.isEmpty, "\(target.name) has unsafeFlags (\(unsafe.map(\.tool)))")
            guard target.type == "system" else { continue }
            // gettext is part of glibc itself, which has no pkg-config module.
            #expect(target.pkgConfig?.isEmpty == false || Self.partOfTheCLibrary.contains(target.name),
                    "system library \(target.name) names no pkg-config module")
            let apt = target.providers?.compactMap { $0["apt"]?.first }.flatMap { $0 } ?? []
            #expect(!apt.isEmpty, "system library \(target.name) names no apt package")
        }
    }

    @Test("the products an app embedding the components needs are libraries, StudioKit among them")
    func products() throws {
        let names = Set(try Self.manifest().products.map(\.name))
        for needed in ["ViewfinderCore", "CoverPicker", "AvatarCrop", "MediaLibrary", "Capture", "HUD", "ViewfinderUI", "StudioKit"] {
            #expect(names.contains(needed), "no product \(needed)")
        }
    }

    @Test("the face shim's opencv4 header folder is the system's, reached through its link")
    func openCVHeaders() throws {
        let link = TestPaths.repository.appendingPathComponent("Sources/CShims/CFaceShim/opencv4")
        let destination = try FileManager.default.destinationOfSymbolicLink(atPath: link.path)
        #expect(destination == "/usr/include/opencv4")
        #expect(FileManager.default.fileExists(atPath: link.appendingPathComponent("opencv2/objdetect.hpp").path))
    }
}
