import Foundation
import Testing
import ViewfinderTestSupport

/// `library`'s verbs are subcommands, each declaring its own options: help, refusals and the
/// parent's `--library` come from those declarations.
@Suite("library subcommands")
struct LibrarySubcommandTests {
    /// The long options a `--help` text lists (indented lines starting with "-").
    static func options(_ help: String) -> Set<String> {
        Set(help.split(separator: "\n").filter { $0.hasPrefix("  -") }.compactMap { line in
            line.split(separator: " ").first { $0.hasPrefix("--") }.map(String.init)
        })
    }

    @Test("each subcommand's --help shows its usage and only its own options, with --library", arguments: [
        (["import"], ["--album", "--move", "--thumbnail-size", "--quiet", "--json"]),
        (["list"], ["--type", "--sort", "--group", "--album", "--limit", "--timing", "--json"]),
        (["thumbnail"], ["--size", "--fill", "--output"]),
        (["export"], ["--output", "--strip-location"]),
        (["check"], ["--verify", "--rebuild", "--json"]),
        (["delete"], []),
        (["album", "create"], []),
    ])
    func subcommandHelp(_ verb: [String], _ own: [String]) throws {
        let help = try viewfinder(["library"] + verb + ["--help"])
        #expect(help.status == 0 && help.stderr.isEmpty)
        #expect(help.stdout.hasPrefix("usage: viewfinder library \(verb.joined(separator: " "))"), "\(help.stdout)")
        #expect(Self.options(help.stdout) == Set(own + ["--library", "--help"]), "\(verb): \(help.stdout)")
        #expect(try viewfinder(["help", "library"] + verb).stdout == help.stdout)
    }

    @Test("library --help lists every subcommand with its summary, and only the options they share")
    func parentHelp() throws {
        let help = try viewfinder("library", "--help").stdout
        #expect(help.contains("\nsubcommands:\n  init "), "\(help)")
        #expect(help.contains("\n  import      Store photos and videos in the library"), "\(help)")
        #expect(Self.options(help) == ["--library", "--help"])
        #expect(help.contains("Run 'viewfinder library SUBCOMMAND --help' for a subcommand's options."))
        // 'help' with a word that is no subcommand shows the command's help.
        #expect(try viewfinder("help", "library", "bogus").stdout == help)
    }

    @Test("an option of another subcommand is refused in one line, exit 2, before the library is touched", arguments: [
        (["delete", "1", "--json"], "--json is for library import, list, albums and check"),
        (["export", "1", "-o", "/tmp/never-written.jpg", "--fill"], "--fill is for library thumbnail"),
        (["--move", "list"], "--move is for library import"),
        (["album", "create", "Trip", "--album", "X"], "--album is for library import and list"),
    ])
    func optionOnTheWrongVerb(_ arguments: [String], _ message: String) throws {
        let folder = TestPaths.scratchFolder("wrong-verb").appendingPathComponent("Lib")
        let result = try viewfinder(["library", "--library", folder.path] + arguments)
        #expect(result.status == 2 && result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasSuffix(": " + message) == true && lines.first?.hasPrefix("viewfinder library ") == true, "\(result.stderr)")
        #expect(lines.count == 3 && lines[1].hasPrefix("usage: viewfinder library ") && !result.stderr.contains("options:"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    @Test("an unknown or missing subcommand is a usage error naming the subcommands")
    func unknownSubcommand() throws {
        let unknown = try viewfinder("library", "frobnicate")
        #expect(unknown.status == 2)
        #expect(unknown.stderr.hasPrefix("viewfinder library: unknown subcommand 'frobnicate'; expected init, import, list, albums, album, thumbnail, cover, export, delete or check\nusage: viewfinder library "), "\(unknown.stderr)")
        let album = try viewfinder("library", "album", "erase", "Trip")
        #expect(album.status == 2)
        #expect(album.stderr.hasPrefix("viewfinder library album: unknown subcommand 'erase'; expected create, rename, delete, add or remove\n"),
                "\(album.stderr)")
        let missing = try viewfinder("library", "--library", "/tmp")
        #expect(missing.status == 2 && missing.stderr.hasPrefix("viewfinder library: missing subcommand; expected init, "), "\(missing.stderr)")
    }

    @Test("--library, declared once on library, is taken after the subcommand too")
    func parentOptionAfterVerb() throws {
        let typo = TestPaths.scratchFolder("after-verb").appendingPathComponent("Libary")
        let result = try viewfinder("library", "list", "--library", typo.path)
        #expect(result.status == 1)
        #expect(result.stderr == "viewfinder: there is no library at \(typo.path); 'viewfinder library init' or an import makes one\n")
        let made = try viewfinder("library", "init", "--library", typo.path)
        #expect(made.status == 0 && made.stdout == "\(typo.path): library ready (0 assets)\n", "\(made.stderr)")
        let wrongCount = try viewfinder("library", "delete", "--library", typo.path)
        #expect(wrongCount.status == 2 && wrongCount.stderr.hasPrefix("viewfinder library delete: missing argument\n"), "\(wrongCount.stderr)")
    }
}
