import Foundation
import ViewfinderCore

/// What a media picker's grid binds to: groups for a sidebar, a kind filter, an order, the
/// assets they select and their thumbnails. `LibraryBrowser` serves a library; `FolderBrowser`
/// a plain folder of photos and videos.
@MainActor
public protocol AssetBrowser: AnyObject {
    /// The sidebar's groups, with counts.
    var groups: [LibraryBrowser.GroupEntry] { get }
    /// The assets of `selectedGroup` that pass `filter`, in `order`.
    var assets: [Asset] { get }
    /// Why the last reload failed, if it did.
    var lastError: LibraryError? { get }
    /// Told after every reload, so the screen redraws.
    var onChange: (@MainActor () -> Void)? { get set }
    /// The group shown; changing it reloads.
    var selectedGroup: AssetGroup { get set }
    /// The kinds shown; changing it reloads.
    var filter: LibraryBrowser.KindFilter { get set }
    /// Newest or oldest first; changing it reloads.
    var order: SortOrder { get set }
    /// The file an asset's picture and data come from.
    func originalURL(of asset: Asset) throws(LibraryError) -> URL
    /// The asset's square, filled thumbnail of `side` pixels, made off the main actor.
    func thumbnail(for asset: Asset, side: Int) async throws(LibraryError) -> RasterImage
    /// Files still being read before they can show (a folder fills its grid as it reads).
    var pendingCount: Int { get }
    /// Files that were read and cannot show, each with why.
    var refusedFiles: [ImportFailure] { get }
}

extension AssetBrowser {
    /// A library's catalogue is read whole on each reload: nothing is left to read.
    public var pendingCount: Int { 0 }
    /// A library holds only what its imports took in.
    public var refusedFiles: [ImportFailure] { [] }
}

extension LibraryBrowser: AssetBrowser {}
