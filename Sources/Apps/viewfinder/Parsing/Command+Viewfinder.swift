import CommandLineKit

// Every command here is one of viewfinder's, so its usage line names the tool.
extension Command {
    /// "viewfinder", for the usage line.
    static var toolName: String { "viewfinder" }
}
