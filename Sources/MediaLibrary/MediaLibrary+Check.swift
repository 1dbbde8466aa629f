import Foundation
import Store

/// What `check()` found (and, with `repair`, fixed).
public struct CheckReport: Sendable, Equatable {
    /// Stored files no row refers to (left by a crash between the file and its row).
    public var orphanFiles: [String] = []
    /// Rows whose file is missing.
    public var missingFiles: [Int64] = []
    /// Unfinished imports in the incoming folder.
    public var partialImports = 0

    /// True when nothing was wrong.
    public var isClean: Bool { orphanFiles.isEmpty && missingFiles.isEmpty && partialImports == 0 }
}

extension MediaLibrary {
    /// Compares the catalogue with the folder; with `repair`, removes orphan files, rows whose
    /// file is gone, and unfinished imports.
    @discardableResult
    public func check(repair: Bool = true) throws(LibraryError) -> CheckReport {
        if repair { try requireWritable() }
        var report = CheckReport()
        let manager = FileManager.default
        var known: [String: Int64] = [:]
        try catalogue {
            let statement = try database.prepare("SELECT id, path FROM assets")
            try statement.bind([])
            while try statement.step() { known[statement.text(1)] = statement.int(0) }
        }
        let originals = folder.appendingPathComponent("originals")
        var onDisk = Set<String>()
        if let walker = manager.enumerator(atPath: originals.path) {
            while let item = walker.nextObject() as? String {
                let relative = "originals/\(item)"
                var isDirectory: ObjCBool = false
                if manager.fileExists(atPath: folder.appendingPathComponent(relative).path, isDirectory: &isDirectory),
                   !isDirectory.boolValue {
                    onDisk.insert(relative)
                }
            }
        }
        report.orphanFiles = onDisk.subtracting(known.keys).sorted()
        report.missingFiles = known.filter { !onDisk.contains($0.key) }.map(\.value).sorted()
        let incoming = folder.appendingPathComponent(".incoming")
        let partials = (try? manager.contentsOfDirectory(atPath: incoming.path)) ?? []
        report.partialImports = partials.count
        guard repair else { return report }
        for path in report.orphanFiles { try? manager.removeItem(at: folder.appendingPathComponent(path)) }
        for name in partials { try? manager.removeItem(at: incoming.appendingPathComponent(name)) }
        if !report.missingFiles.isEmpty {
            try catalogue {
                try database.transaction {
                    let delete = try database.prepare("DELETE FROM assets WHERE id = ?")
                    for id in report.missingFiles { try delete.run([.int(id)]) }
                }
            }
        }
        return report
    }
}
