import Foundation
import Store

extension MediaLibrary {
    /// The user albums with their sizes, by name.
    public func albums() throws(LibraryError) -> [Album] {
        try catalogue {
            let statement = try database.prepare("""
                SELECT name, (SELECT COUNT(*) FROM album_assets WHERE album_id = albums.id) FROM albums ORDER BY name
                """)
            try statement.bind([])
            var result: [Album] = []
            while try statement.step() { result.append(Album(name: statement.text(0), count: Int(statement.int(1)))) }
            return result
        }
    }

    public func createAlbum(_ name: String) throws(LibraryError) {
        try requireWritable()
        let name = try Self.validName(name)
        if try albumID(name) != nil { throw .albumExists(name) }
        try catalogue { try database.prepare("INSERT INTO albums (name) VALUES (?)").run([.text(name)]) }
    }

    public func renameAlbum(_ name: String, to newName: String) throws(LibraryError) {
        try requireWritable()
        let newName = try Self.validName(newName)
        guard let id = try albumID(name) else { throw .noSuchAlbum(name) }
        if newName != name, try albumID(newName) != nil { throw .albumExists(newName) }
        try catalogue { try database.prepare("UPDATE albums SET name = ? WHERE id = ?").run([.text(newName), .int(id)]) }
    }

    /// Deletes the album; its assets stay in the library.
    public func deleteAlbum(_ name: String) throws(LibraryError) {
        try requireWritable()
        guard let id = try albumID(name) else { throw .noSuchAlbum(name) }
        try catalogue { try database.prepare("DELETE FROM albums WHERE id = ?").run([.int(id)]) }
    }

    /// Adds assets to an album (created if missing); an asset may be in several albums.
    public func add(_ ids: [Int64], toAlbum name: String) throws(LibraryError) {
        try requireWritable()
        for id in ids { _ = try asset(id: id) }
        let name = try Self.validName(name)
        // OR IGNORE: another process may create the same album at the same moment.
        try catalogue { try database.prepare("INSERT OR IGNORE INTO albums (name) VALUES (?)").run([.text(name)]) }
        guard let album = try albumID(name) else { throw .noSuchAlbum(name) }
        try catalogue {
            try database.transaction {
                let insert = try database.prepare("INSERT OR IGNORE INTO album_assets (album_id, asset_id) VALUES (?, ?)")
                for id in ids { try insert.run([.int(album), .int(id)]) }
            }
        }
    }

    public func remove(_ ids: [Int64], fromAlbum name: String) throws(LibraryError) {
        try requireWritable()
        guard let album = try albumID(name) else { throw .noSuchAlbum(name) }
        try catalogue {
            try database.transaction {
                let delete = try database.prepare("DELETE FROM album_assets WHERE album_id = ? AND asset_id = ?")
                for id in ids { try delete.run([.int(album), .int(id)]) }
            }
        }
    }

    private func albumID(_ name: String) throws(LibraryError) -> Int64? {
        try catalogue {
            let statement = try database.prepare("SELECT id FROM albums WHERE name = ?")
            try statement.bind([.text(name)])
            return try statement.step() ? statement.int(0) : nil
        }
    }

    static func validName(_ name: String) throws(LibraryError) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        // Control characters (tabs and line breaks among them) would make a text listing of
        // albums ambiguous, so a name never holds one.
        guard !trimmed.isEmpty, trimmed.count <= 200,
              !trimmed.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else {
            throw .invalidName(name)
        }
        return trimmed
    }
}
