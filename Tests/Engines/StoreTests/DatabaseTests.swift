import Foundation
import Synchronization
import Testing
import ViewfinderTestSupport

@testable import Store

@Suite("SQLite store")
struct DatabaseTests {
    func database() throws -> Database {
        try Database(path: TestPaths.scratchFolder("db").appendingPathComponent("t.sqlite").path)
    }

    @Test("two connections creating the same new file at once both open it in WAL mode")
    func concurrentCreation() throws {
        for attempt in 0..<20 {
            let path = TestPaths.scratchFolder("db-race-\(attempt)").appendingPathComponent("new.sqlite").path
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 2) { _ in
                do {
                    let db = try Database(path: path)
                    try db.execute("CREATE TABLE IF NOT EXISTS t (x INTEGER)")
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(failures.withLock { $0 }.isEmpty, "attempt \(attempt)")
        }
    }

    @Test("prepared statements bind and read every type")
    func roundTrip() throws {
        let db = try database()
        try db.execute("CREATE TABLE t (i INTEGER, d REAL, s TEXT, n TEXT)")
        try db.prepare("INSERT INTO t VALUES (?, ?, ?, ?)").run([.int(-7), .double(2.5), .text("héllo 'x'"), .null])
        let row = try db.prepare("SELECT i, d, s, n FROM t")
        try row.bind([])
        #expect(try row.step())
        #expect(row.int(0) == -7 && row.double(1) == 2.5 && row.text(2) == "héllo 'x'" && row.isNull(3))
        #expect(try !row.step())
    }

    @Test("a failing transaction leaves nothing behind")
    func rollback() throws {
        let db = try database()
        try db.execute("CREATE TABLE t (v TEXT UNIQUE)")
        #expect(throws: StoreError.self) {
            try db.transaction {
                try db.prepare("INSERT INTO t VALUES ('a')").run()
                try db.prepare("INSERT INTO t VALUES ('a')").run()
            }
        }
        let count = try db.prepare("SELECT COUNT(*) FROM t")
        try count.bind([])
        _ = try count.step()
        #expect(count.int(0) == 0)
    }

    @Test("errors are typed: constraint, read-only, not a database")
    func typedErrors() throws {
        let folder = TestPaths.scratchFolder("db-errors")
        let path = folder.appendingPathComponent("t.sqlite").path
        do {
            let db = try Database(path: path)
            try db.execute("CREATE TABLE t (v TEXT UNIQUE); INSERT INTO t VALUES ('a')")
            #expect(throws: StoreError.constraint(message: "UNIQUE constraint failed: t.v")) {
                try db.prepare("INSERT INTO t VALUES ('a')").run()
            }
        }
        let reader = try Database(path: path, readOnly: true)
        #expect(throws: StoreError.readOnly(path: path)) { try reader.prepare("INSERT INTO t VALUES ('b')").run() }
        let junk = folder.appendingPathComponent("junk.sqlite")
        try Data(repeating: 7, count: 4096).write(to: junk)
        #expect(throws: StoreError.self) { try Database(path: junk.path).execute("SELECT 1 FROM sqlite_master") }
    }
}
