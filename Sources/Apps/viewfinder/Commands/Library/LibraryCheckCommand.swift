import CommandLineKit
import Foundation
import MediaLibrary
import ViewfinderCore

/// `viewfinder library check`: repairs what a crash can leave and reports what it cannot.
enum LibraryCheckCommand: LibrarySubcommand {
    static let name = "check"
    static let summary = N_("Check the library: repair what a crash can leave, and report damage a repair cannot fix.")
    static let synopsis = "[--verify] [--rebuild] [--json]"
    static let verify = TypedOption.flag("verify", help: N_("Also re-hash every original and report any whose content changed."))
    static let rebuild = TypedOption.flag("rebuild", help: N_("Catalogue again the originals the catalogue no longer lists (instead of removing them)."))
    static let json = TypedOption.flag("json", help: N_("Print the report as JSON, field by field."))
    static let options = OptionSpec.list(verify, rebuild, json)

    static func run(_ library: MediaLibrary, folder: URL, _ arguments: ParsedArguments) throws -> Int32 {
        let repair = !library.isReadOnly
        let json = try arguments[Self.json]
        var rebuilt: [(String, JSONValue)] = []
        if try arguments[rebuild] {
            let (catalogued, failed) = try library.rebuildCatalogue()
            for failure in failed {
                ViewfinderTool.standardError("viewfinder: " + tr("{failure} (left in place)", ["failure": failure.description.printable()]))
            }
            if json {
                rebuilt = [("catalogued", .array(catalogued.map { .object([("id", .integer($0.id)), ("file", .string($0.originalFilename))]) })),
                           ("notCatalogued", .array(failed.map { .string($0.description) }))]
            } else {
                for asset in catalogued { print("\(asset.id)\t" + tr("catalogued") + "\t\(asset.originalFilename.printable())") }
                let values: KeyValuePairs<String, any CustomStringConvertible> = ["folder": folder.path.printable(), "failed": failed.count]
                print(failed.isEmpty
                      ? trn("{folder}: {count} original catalogued again", "{folder}: {count} originals catalogued again", catalogued.count, values)
                      : trn("{folder}: {count} original catalogued again, {failed} could not be (left in place)",
                            "{folder}: {count} originals catalogued again, {failed} could not be (left in place)", catalogued.count, values))
            }
        }
        let report = try library.check(repair: repair, verify: try arguments[verify])
        if json {
            print(checkJSON(report, folder: folder, repaired: repair, rebuilt: rebuilt).rendered())
            if report.needsAttention {
                ViewfinderTool.standardError("viewfinder: " + tr("the library at {folder} has damage a repair cannot fix", ["folder": folder.path]))
                return 1
            }
            return report.isClean || repair ? 0 : 1
        }
        return printCheck(report, folder: folder, repaired: repair)
    }

    /// `check --json`: what the check found (and, unless the library is read-only, removed),
    /// field by field; `rebuilt` adds what `--rebuild` catalogued again.
    private static func checkJSON(_ report: CheckReport, folder: URL, repaired: Bool, rebuilt: [(String, JSONValue)]) -> JSONValue {
        func strings(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }
        func ids(_ values: [Int64]) -> JSONValue { .array(values.map(JSONValue.integer)) }
        func damages(_ values: [CheckReport.Damage]) -> JSONValue {
            .array(values.map { .object([("id", .integer($0.id)), ("reason", .string($0.reason))]) })
        }
        return .object(JSONObject([
            ("library", .string(folder.path)),
            ("consistent", .bool(report.isClean)),
            ("repaired", .bool(repaired && !report.isClean)),
            ("needsAttention", .bool(report.needsAttention)),
            ("orphanFiles", strings(report.orphanFiles)),
            ("missingFiles", ids(report.missingFiles)),
            ("missingMotions", ids(report.missingMotions)),
            ("partialImports", .int(report.partialImports)),
            ("partialThumbnails", .int(report.partialThumbnails)),
            ("damagedRows", damages(report.damagedRows)),
            ("corruptOriginals", damages(report.corruptOriginals)),
            ("foreignEntries", strings(report.foreignEntries)),
            ("unaccountedOriginals", strings(report.unaccountedOriginals)),
        ] + rebuilt))
    }

    /// Prints what `check` found; exit 1 when damage remains that needs a person (or, on a
    /// read-only library, when anything is wrong).
    private static func printCheck(_ report: CheckReport, folder: URL, repaired: Bool) -> Int32 {
        if report.isClean {
            print(tr("{folder}: consistent", ["folder": folder.path]))
            return 0
        }
        // English says "file(s)" whatever the count; other languages take the right plural form.
        var parts = [trn("{count} orphan file(s)", "{count} orphan file(s)", report.orphanFiles.count),
                     trn("{count} row(s) without a file", "{count} row(s) without a file", report.missingFiles.count),
                     trn("{count} unfinished import(s)", "{count} unfinished import(s)", report.partialImports)]
        if !report.missingMotions.isEmpty {
            parts.append(trn("{count} Live Photo(s) without their motion (kept as photos)",
                             "{count} Live Photo(s) without their motion (kept as photos)", report.missingMotions.count))
        }
        if report.partialThumbnails > 0 {
            parts.append(trn("{count} unfinished thumbnail(s)", "{count} unfinished thumbnail(s)", report.partialThumbnails))
        }
        if !report.damagedRows.isEmpty { parts.append(trn("{count} damaged row(s)", "{count} damaged row(s)", report.damagedRows.count)) }
        let removable = report.foreignEntries.filter { !$0.hasSuffix("/") }
        if !removable.isEmpty { parts.append(trn("{count} link(s) or special file(s)", "{count} link(s) or special file(s)", removable.count)) }
        let found: KeyValuePairs<String, any CustomStringConvertible> = ["folder": folder.path, "list": parts.joinedAsDetails()]
        // TRANSLATORS: {list} is what check found, such as "2 orphan file(s), 0 row(s) without a file".
        print(repaired ? tr("{folder}: removed {list}", found) : tr("{folder}: found {list}", found))
        for damage in report.damagedRows { print("  \(damage)") }
        for entry in report.foreignEntries {
            print("  " + (entry.hasSuffix("/") ? tr("{entry}: a folder the library does not make (left alone)", ["entry": entry])
                                               : tr("{entry}: not the library's (never followed)", ["entry": entry])))
        }
        for damage in report.corruptOriginals { print("  " + tr("damaged: {damage} (kept)", ["damage": damage])) }
        if !report.unaccountedOriginals.isEmpty {
            print("  " + trn("{count} original but not one catalogue row: the catalogue was lost or emptied; nothing was removed",
                             "{count} originals but not one catalogue row: the catalogue was lost or emptied; nothing was removed",
                             report.unaccountedOriginals.count))
            print("  " + tr("to catalogue them again: {command}", ["command": "viewfinder library --library \(folder.path) check --rebuild"]))
        }
        if report.needsAttention {
            ViewfinderTool.standardError("viewfinder: " + tr("the library at {folder} has damage a repair cannot fix; see the lines above",
                                                             ["folder": folder.path]))
            return 1
        }
        return repaired ? 0 : 1
    }
}
