import CommandLineKit
import Foundation
import Capture
import CoverPicker
import MediaIO
import MediaLibrary
import ViewfinderCore

/// The command-line front end: dispatches to a command and maps errors to exit statuses
/// (0 success, 1 failure, 2 bad usage).
enum ViewfinderTool {
    /// The commands, in the order `--help` lists them.
    static var commands: [any Command.Type] { [InfoCommand.self, CoverCommand.self, FilmstripCommand.self, ThumbnailCommand.self, ConvertCommand.self, TrimCommand.self, AvatarCommand.self, LibraryCommand.self, DevicesCommand.self, CaptureCommand.self, AnimateCommand.self, SampleCommand.self] }

    static let version = ViewfinderVersion.current

    /// The tool's `--help`, in the user's language.
    static func mainUsage() -> String {
        var text = tr("usage:") + " viewfinder COMMAND [OPTIONS]\n\n" + tr("""
        Viewfinder picks frame-exact video covers and filmstrips, converts and trims video to
        MP4, cuts avatars from photos, keeps a photo library, captures from cameras and renders
        animations; the desktop app is viewfinder-studio.
        """) + "\n\n"
        // TRANSLATORS: the heading over the list of commands in viewfinder --help.
        text += tr("commands:") + "\n"
        for command in commands {
            text += "  " + command.name.padding(toLength: 12, withPad: " ", startingAt: 0) + tr(command.summary) + "\n"
        }
        text += "\n" + tr("Run 'viewfinder COMMAND --help' for a command's options.") + "\n"
        text += "\n" + tr("options:") + "\n" + OptionSpec.helpLines(toolOptions)
        return text
    }

    /// The options taken without a command.
    static let toolOptions = [
        OptionSpec("help", short: "h", help: N_("Show this help ('viewfinder help COMMAND': a command's).")),
        OptionSpec("version", help: N_("Show the version.")),
        OptionSpec("man", help: N_("Print this manual page (roff; 'viewfinder --man | man -l -' shows it).")),
        OptionSpec("completions", value: "SHELL", help: N_("Print the completion script for bash, zsh or fish.")),
    ]

    /// The program, its options and its commands, for the manual page and the completions.
    static var reference: ProgramReference {
        ProgramReference(
            name: "viewfinder", summary: N_("frame-exact video covers, avatars, a photo library, cameras and animations"),
            synopsis: ["COMMAND [OPTIONS] [ARGUMENTS]", "--help | --version | --man | --completions SHELL"],
            description: N_("""
            Viewfinder picks frame-exact video covers and filmstrips, converts and trims video to MP4, cuts \
            avatars from photos (starting on the face), keeps a photo library, captures from cameras and \
            renders animations. Every command prints what it wrote; --json, where offered, prints it as JSON.

            The desktop app, with the same parts as components other programs can call as pickers, is \
            viewfinder-studio.
            """),
            version: version, options: toolOptions, commands: commands.map(ProgramReference.Entry.init),
            exitStatus: N_("""
            0 when the command succeeded; 1 when it failed (the reason is one line on standard error, \
            and nothing half-written is left); 2 for bad usage; 130 when interrupted (Ctrl-C), 143 when \
            terminated, after removing what was being written.
            """),
            seeAlso: ["viewfinder-studio(1)", "ffmpeg(1)"])
    }

    static func standardError(_ text: String) {
        // File names inside messages come from the user or a file: no control character of
        // theirs reaches the terminal (the messages' own line breaks stay).
        let safe = text.printable(keepingLineBreaks: true)
        FileHandle.standardError.write(Data((safe.hasSuffix("\n") ? safe : safe + "\n").utf8))
    }

    static func run(_ argv: [String]) -> Int32 {
        guard let first = argv.first else {
            standardError(mainUsage())
            return 2
        }
        switch first {
        case "--help", "-h", "help":
            if argv.count > 1, let command = commands.first(where: { $0.name == argv[1] }) {
                // 'help library import': the subcommand's help, else the command's.
                let path = CommandPath(command).descendant(named: argv.dropFirst().joined(separator: " ")) ?? CommandPath(command)
                print(path.usage, terminator: "")
            } else {
                print(mainUsage(), terminator: "")
            }
            return 0
        case "--version":
            print("viewfinder \(version)")
            return 0
        case "--man":
            print(ManualPage.render(reference), terminator: "")
            return 0
        case "--completions":
            guard argv.count == 2, let shell = ShellCompletion(rawValue: argv[1]) else {
                standardError("viewfinder: " + tr("--completions takes bash, zsh or fish") + "\n"
                                  + tr("usage:") + " viewfinder --completions bash|zsh|fish")
                return 2
            }
            print(shell.script(for: reference), terminator: "")
            return 0
        default:
            break
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            standardError("viewfinder: " + tr("unknown command '{command}'", ["command": first]) + "\n\n" + mainUsage())
            return 2
        }
        do {
            let invocation = try CommandPath(command).parse(Array(argv.dropFirst()))
            let arguments = invocation.arguments
            // What a script reads stays English: with --json, all the command prints.
            if arguments.flag("json") { Localization.useEnglish() }
            if arguments.wantsHelp {
                print(invocation.path.usage, terminator: "")
                return 0
            }
            return try invocation.path.command.run(arguments)
        } catch let error as UsageError {
            // The subcommand the error is about (`library import`), else the command.
            let path = error.command.flatMap(CommandPath(command).descendant(named:)) ?? CommandPath(command)
            standardError("viewfinder \(path.name): \(error.message)\n" + path.shortUsage)
            return 2
        } catch let error as MediaIOError where error == .cancelled {
            standardError("viewfinder: \(error)")
            return StopSignal.exitStatus
        } catch CoverPickerError.media(.cancelled) {
            standardError("viewfinder: \(MediaIOError.cancelled)")
            return StopSignal.exitStatus
        } catch let error as Terminated {
            standardError("viewfinder: \(error)")
            return 143
        } catch let error as LibraryError where error == .cancelled {
            standardError("viewfinder: \(error)")
            return StopSignal.exitStatus
        } catch {
            standardError("viewfinder: \(error)" + (hint(for: error).map { "; \($0)" } ?? ""))
            return 1
        }
    }

    /// What to type next, in this tool's words and the user's language, for errors the engines
    /// report in their own (they know no command-line flags).
    static func hint(for error: any Error) -> String? {
        switch error {
        case MediaIOError.cannotPassthrough: return tr("use --preset highest")
        case CaptureError.noCamera: return tr("use --device virtual for the test camera")
        case CaptureError.unknownDevice, CaptureError.unknownMicrophone: return tr("'viewfinder devices' lists them")
        default: return nil
        }
    }
}
