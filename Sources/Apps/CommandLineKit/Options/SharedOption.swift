import Foundation
import ViewfinderCore

/// The options both programs take in several commands, each declared and read in one place;
/// a command gives its own help line where the value means something of its own to it.
public enum SharedOption {
    /// `--max-duration S`: the longest video a command takes (or records). With
    /// `zeroMeansNoLimit`, 0 lifts the limit; without it, only more than 0 seconds is accepted.
    public static func maxDuration(help: String, zeroMeansNoLimit: Bool) -> TypedOption<DurationLimitChoice> {
        let range: SecondsRange = zeroMeansNoLimit ? .nonNegative() : .positive()
        return TypedOption("max-duration", value: "S", help: help, absent: { .absent }) { text throws(InvalidValueError) in
            let time = try range.time(parsing: text)
            return time == .zero ? .unlimited : .atMost(time)
        }
    }

    /// `--dark` and `--light`: the theme to start with, nil (neither given) for the desktop's;
    /// both given is a usage error.
    public static func theme(dark: String, light: String) -> TypedOption<Theme?> {
        TypedOption(specs: [OptionSpec("dark", help: dark), OptionSpec("light", help: light)]) { arguments throws(UsageError) in
            switch (arguments.flag("dark"), arguments.flag("light")) {
            case (true, true): throw arguments.usageError(tr("choose --dark or --light, not both"))
            case (true, false): return .dark
            case (false, true): return .light
            case (false, false): return nil
            }
        }
    }

    /// `--library DIR`: the photo library's folder, else `$VIEWFINDER_LIBRARY`, else
    /// `$XDG_DATA_HOME/viewfinder/Library` (see `OutputLocation.defaultLibraryFolder`), read
    /// from `environment` when the option is read.
    public static func library(help: String,
                               environment: @escaping @Sendable () -> [String: String] = { ProcessInfo.processInfo.environment })
        -> TypedOption<URL> {
        TypedOption("library", value: "DIR", help: help, absent: { OutputLocation.defaultLibraryFolder(environment: environment()) }) {
            URL(fileURLWithPath: $0)
        }
    }

    /// `--shape circle|square`: an avatar's crop, in any case of letters; nil when not given (the
    /// command's default, or a replayed spec's).
    public static func shape(value: String, help: String) -> TypedOption<CropShape?> {
        TypedOption("shape", value: value, help: help, absent: { nil }) { text throws(InvalidValueError) in
            switch text.lowercased() {
            case "circle": return .circle
            case "square": return .square
            default: throw InvalidValueError(tr("expected circle or square, not '{text}'", ["text": text]))
            }
        }
    }

    /// `--script FILE`: a file of steps to play, nil when not given.
    public static func script(help: String) -> TypedOption<URL?> {
        TypedOption("script", value: "FILE", help: help, absent: { nil }) { URL(fileURLWithPath: $0) }
    }
}

/// What `--max-duration` asked for.
public enum DurationLimitChoice: Sendable, Equatable {
    /// Not given: the command's default.
    case absent
    /// 0: no limit.
    case unlimited
    /// At most this long.
    case atMost(MediaTime)

    /// The longest accepted, nil for no limit: `fallback` when not given.
    public func maximum(default fallback: MediaTime?) -> MediaTime? {
        switch self {
        case .absent: fallback
        case .unlimited: nil
        case .atMost(let time): time
        }
    }
}

/// A theme asked for on the command line.
public enum Theme: Sendable, Equatable {
    /// `--dark`.
    case dark
    /// `--light`.
    case light
}
