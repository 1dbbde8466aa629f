import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

/// README.md's Swift samples (blocks fenced ```swift) are the programs in Examples/, word for word,
/// so that what a reader copies is what `make test` builds (and the package checks build again
/// against a version tag). A manifest fragment is fenced ```swift Package.swift: the package
/// checks write a manifest of that form.
@Suite("README samples")
struct ReadmeSampleTests {
    /// The fenced ```swift blocks of a Markdown text, in order.
    static func swiftBlocks(in markdown: String) -> [String] {
        var blocks: [String] = [], current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" {
                current = []
            } else if let lines = current, line == "```" {
                blocks.append(lines.joined(separator: "\n") + "\n")
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    @Test("each Swift block in README.md is one of Examples/'s programs, and each program is shown")
    func samplesAreTheExamples() throws {
        let root = TestPaths.repository
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let blocks = Self.swiftBlocks(in: readme)
        let examples = root.appendingPathComponent("Examples")
        let programs = try FileManager.default.contentsOfDirectory(atPath: examples.path).sorted().compactMap { name in
            let main = examples.appendingPathComponent("\(name)/main.swift")
            return FileManager.default.fileExists(atPath: main.path) ? (name, try String(contentsOf: main, encoding: .utf8)) : nil
        }
        #expect(programs.count >= 3)
        for (index, block) in blocks.enumerated() {
            #expect(programs.contains { $0.1 == block },
                    "README.md's Swift block \(index + 1) is not any Examples/*/main.swift: \(block.prefix(80))")
        }
        for (name, text) in programs {
            #expect(blocks.contains(text), "Examples/\(name) is not shown in README.md")
        }
    }

    @Test("the README's Install section names the current version")
    func installVersion() throws {
        let readme = try String(contentsOf: TestPaths.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let version = ViewfinderVersion.current
        #expect(readme.contains("dist/viewfinder_\(version)_amd64.deb"))
        #expect(readme.contains("from: \"\(version)\""))
    }

    @Test("the block reader finds fenced Swift blocks and nothing else")
    func blockReader() {
        let text = "intro\n```swift\nlet a = 1\n```\n```sh\nls\n```\n```swift\nprint(a)\n\n```\n"
        #expect(Self.swiftBlocks(in: text) == ["let a = 1\n", "print(a)\n\n"])
    }
}
