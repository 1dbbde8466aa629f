/// The version of Viewfinder: the package, the `viewfinder` tool and Viewfinder Studio say the
/// same, from this one place.
public enum ViewfinderVersion {
    /// "MAJOR.MINOR.PATCH".
    public static let current = "0.9.0"
}
