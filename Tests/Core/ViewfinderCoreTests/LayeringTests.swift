import Foundation
import Testing
import ViewfinderTestSupport

/// The layers of design.md, checked on the sources: dependencies point down, features beside
/// each other stay apart, and no C module is imported so that its types could leak out of an
/// engine's public API (SwiftPM on Linux lets a target see modules it did not declare, so the
/// build alone does not enforce this).
@Suite("Layering")
struct LayeringTests {
    static let core: Set = ["Foundation"]
    static let cModules: Set = ["CFFmpeg", "CImageQuant", "CVips", "CVipsShim", "CExivShim", "CCairo", "CSQLite", "CCrypto", "CGtk", "CAdwaita", "CFaceShim", "CGExiv2", "CIntl",
                               "CPipeWire", "CPipeWireShim", "CGio"]
    static let engines: Set = ["MediaIO", "Imaging", "Store", "Faces"]

    /// What each module may import (besides itself); C modules only as `internal import`.
    static let allowed: [String: Set<String>] = [
        // gettext (glibc's libintl) for the translations, behind `tr`.
        "ViewfinderCore": core.union(["CIntl"]),
        // PipeWire cameras (and the Camera portal) through a C shim over libpipewire and GIO.
        "MediaIO": core.union(["ViewfinderCore", "Glibc", "CFFmpeg", "CImageQuant", "CPipeWireShim"]),
        "Imaging": core.union(["ViewfinderCore", "Glibc", "CVips", "CVipsShim", "CCairo", "CExivShim"]),
        "Store": core.union(["ViewfinderCore", "CSQLite", "CCrypto"]),
        "Faces": core.union(["ViewfinderCore", "CFaceShim"]),
        "CoverPicker": core.union(["ViewfinderCore"]).union(engines),
        "VideoEditing": core.union(["ViewfinderCore"]).union(engines),
        "AvatarCrop": core.union(["ViewfinderCore"]).union(engines),
        // A library's video poster is the cover the cover picker suggests: built on CoverPicker.
        "MediaLibrary": core.union(["ViewfinderCore", "Glibc", "CoverPicker"]).union(engines),
        "Capture": core.union(["ViewfinderCore"]).union(engines),
        "HUD": core.union(["ViewfinderCore"]),
        "Motion": core.union(["ViewfinderCore"]),
        "MotionRenderer": core.union(["ViewfinderCore", "Motion"]).union(engines),
        // Imaging for the box blur, premultiplied pixels and homographies it shares with the canvas.
        "StudioKit": core.union(["ViewfinderCore", "Imaging", "Glibc", "CGtk", "CAdwaita", "CCairo"]),
        "CommandLineKit": core.union(["ViewfinderCore"]),
        // Components: over StudioKit and every feature, never a front end or a C module.
        "ViewfinderUI": core.union(["ViewfinderCore", "StudioKit", "CoverPicker", "VideoEditing", "HUD", "AvatarCrop",
                                    "MediaLibrary", "Capture", "Motion", "MotionRenderer"]).union(engines),
        // The app's script driver: over the components it drives, never the app (it asks the app
        // through its `ScriptedApp` protocol) and never a component's import.
        "StudioAutomation": core.union(["ViewfinderCore", "StudioKit", "ViewfinderUI", "HUD", "MediaLibrary"]),
    ]

    /// The folder under `Sources/` that holds each layer's modules (design.md's table).
    static let layerFolders: [String: Set<String>] = [
        "Core": ["ViewfinderCore"],
        "CShims": cModules,
        "Engines": engines,
        "Features": ["CoverPicker", "VideoEditing", "AvatarCrop", "MediaLibrary", "Capture", "HUD", "Motion", "MotionRenderer"],
        "UI": ["StudioKit", "ViewfinderUI"],
        "Apps": ["viewfinder", "ViewfinderStudio", "StudioAutomation", "CommandLineKit"],
    ]

    /// `Sources/<layer>/<module>`.
    static func folder(of module: String) -> URL? {
        guard let layer = layerFolders.first(where: { $0.value.contains(module) })?.key else { return nil }
        return TestPaths.repository.appendingPathComponent("Sources/\(layer)/\(module)")
    }

    static func imports(of module: String) throws -> [(file: String, line: String)] {
        let folder = try #require(Self.folder(of: module), "\(module) is in no layer")
        var found: [(String, String)] = []
        for name in try FileManager.default.subpathsOfDirectory(atPath: folder.path) where name.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            for line in text.split(separator: "\n") where line.contains("import ") {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("import ") || trimmed.hasPrefix("internal import ") || trimmed.hasPrefix("@_exported import ")
                    || trimmed.hasPrefix("public import ") || trimmed.hasPrefix("@_implementationOnly import ") {
                    found.append((name, trimmed))
                }
            }
        }
        return found
    }

    @Test("each module imports only what its layer allows", arguments: allowed.keys.sorted())
    func layer(_ module: String) throws {
        let folder = try #require(Self.folder(of: module), "\(module) is in no layer")
        #expect(try FileManager.default.subpathsOfDirectory(atPath: folder.path).contains { $0.hasSuffix(".swift") },
                "no sources found for \(module)")
        let lines = try Self.imports(of: module)
        for (file, line) in lines {
            let imported = String(line.split(separator: " ").last ?? "")
            #expect(Self.allowed[module]?.contains(imported) == true, "\(module)/\(file): \(line)")
            if Self.cModules.contains(imported) {
                #expect(line.hasPrefix("internal import "), "\(module)/\(file): a C module must be an internal import: \(line)")
            }
        }
    }

    @Test("the folders under Sources/ are the layers, and each holds exactly its modules")
    func folders() throws {
        let sources = TestPaths.repository.appendingPathComponent("Sources")
        let layers = try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted()
        #expect(layers == Self.layerFolders.keys.sorted())
        for (layer, modules) in Self.layerFolders {
            let found = try FileManager.default.contentsOfDirectory(atPath: sources.appendingPathComponent(layer).path)
            #expect(Set(found) == modules, "Sources/\(layer) holds \(found.sorted())")
        }
    }
}
