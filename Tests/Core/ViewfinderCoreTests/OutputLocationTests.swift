import Foundation
import Testing
import ViewfinderCore

@Suite("Where outputs may go")
struct OutputLocationTests {
    /// A fresh folder with a library folder in it, and a link to that library beside it.
    func layout() throws -> (root: URL, library: URL, link: URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("outputs-\(UUID().uuidString)")
        let library = root.appendingPathComponent("Library")
        try FileManager.default.createDirectory(at: library.appendingPathComponent("originals"), withIntermediateDirectories: true)
        let link = root.appendingPathComponent("shortcut")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: library)
        return (root, library, link)
    }

    @Test("inside a library, by its path or through a link, is refused; beside it is not")
    func insideLibrary() throws {
        let (root, library, link) = try layout()
        defer { try? FileManager.default.removeItem(at: root) }
        let environment = ["VIEWFINDER_LIBRARY": root.appendingPathComponent("elsewhere").path]
        for inside in [library.appendingPathComponent("originals/x.mp4"), link.appendingPathComponent("x.mp4"), library] {
            #expect(OutputLocation.isInside(inside, folder: library), "\(inside.path)")
            #expect(throws: OutputLocation.Refusal.self) {
                try OutputLocation.check(inside, libraries: [library], environment: environment)
            }
        }
        let beside = root.appendingPathComponent("Library-copy.mp4")
        #expect(!OutputLocation.isInside(beside, folder: library))
        try OutputLocation.check(beside, libraries: [library], environment: environment)
        // The default library (from the environment) is protected without being named.
        #expect(throws: OutputLocation.Refusal.self) {
            try OutputLocation.check(library.appendingPathComponent("y.jpg"), environment: ["VIEWFINDER_LIBRARY": library.path])
        }
    }

    @Test("the input itself, a missing folder and a folder as the target are refused, each in one line")
    func otherRefusals() throws {
        let (root, library, _) = try layout()
        defer { try? FileManager.default.removeItem(at: root) }
        let environment = ["VIEWFINDER_LIBRARY": root.appendingPathComponent("elsewhere").path]
        let input = root.appendingPathComponent("in.mp4")
        try Data([1]).write(to: input)
        let cases: [(URL, String)] = [
            (input, "is the input"),
            (root.appendingPathComponent("missing/out.mp4"), "does not exist"),
            (library.appendingPathComponent("originals"), "inside the photo library"),
            (root, "cannot write"),
        ]
        for (output, words) in cases {
            do {
                try OutputLocation.check(output, input: input, libraries: [library], environment: environment)
                Issue.record("\(output.path) was accepted")
            } catch {
                #expect(error.description.contains(words) && !error.description.contains("\n"), "\(error.description)")
            }
        }
    }

    @Test("the default library: $VIEWFINDER_LIBRARY, else $XDG_DATA_HOME/viewfinder/Library")
    func defaultFolder() {
        #expect(OutputLocation.defaultLibraryFolder(environment: ["VIEWFINDER_LIBRARY": "/srv/photos"]).path == "/srv/photos")
        #expect(OutputLocation.defaultLibraryFolder(environment: ["XDG_DATA_HOME": "/d"]).path == "/d/viewfinder/Library")
        #expect(OutputLocation.defaultLibraryFolder(environment: ["VIEWFINDER_LIBRARY": "", "XDG_DATA_HOME": "/d"]).path
                == "/d/viewfinder/Library")
    }
}
