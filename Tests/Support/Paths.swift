import Foundation

/// Where things are when the tests run: the repository, the shared media corpus, the built tool.
public enum TestPaths {
    /// The repository root (this file is Tests/Support/Paths.swift).
    public static let repository: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared/media` beside the repository: real-world files the tests must all handle.
    public static let media: URL = repository.deletingLastPathComponent()
        .appendingPathComponent("shared/media")

    /// The `viewfinder` executable built next to the test bundle.
    public static var tool: URL { executable(named: "viewfinder") }

    /// The `viewfinder-studio` desktop app built next to the test bundle.
    public static var studio: URL { executable(named: "viewfinder-studio") }

    /// A product of this package built next to the test bundle.
    public static func executable(named name: String) -> URL {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = bundle.deletingLastPathComponent()
        // The test binary may sit inside Package.xctest/ or directly in the build folder.
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return repository.appendingPathComponent(".build/debug/\(name)")
    }

    /// Every file in the media corpus under `folder` (e.g. "phone_video"), sorted.
    public static func mediaFiles(in folder: String) -> [URL] {
        let directory = media.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted()
            .filter { !["MANIFEST.md", "LICENSE", "SOURCE"].contains($0) }
            .map { directory.appendingPathComponent($0) }
    }

    /// A fresh, empty folder for one test.
    public static func scratchFolder(_ name: String = "test") -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("viewfinder-tests-\(ProcessInfo.processInfo.processIdentifier)")
            .appendingPathComponent("\(name)-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

extension TestPaths {
    /// scikit-image's sample photos (Debian's python3-skimage, which `scripts/install-deps`
    /// installs): real pictures with known contents, such as `astronaut.png`, a frontal portrait.
    public static let skimageData = URL(fileURLWithPath: "/usr/lib/python3/dist-packages/skimage/data")
}
