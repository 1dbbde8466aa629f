/// A failure while doing the work: one line on stderr, exit status 1, in the user's language.
struct RuntimeError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
