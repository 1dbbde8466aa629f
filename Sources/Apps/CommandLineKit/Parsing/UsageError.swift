import ViewfinderCore

/// A mistake in how a tool was called; a tool reports it with the usage and exit status 2.
public struct UsageError: Error, Sendable, Equatable {
    /// What was wrong, in a person's words and language ("unknown option '--bogus'").
    public let message: String
    /// The command whose usage to show, or nil for the tool's own.
    public let command: String?

    /// A usage error saying `message` about `command`.
    public init(message: String, command: String?) {
        self.message = message
        self.command = command
    }
}

extension UsageError: ReadableError {
    /// The message, as `localizedDescription` and in string interpolation.
    public var description: String { message }
}
