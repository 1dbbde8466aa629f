import Capture
import Foundation
import MediaLibrary

extension LibraryContents {
    /// What `library` and its Captures hold now, by kind.
    public init(_ library: MediaLibrary) throws(LibraryError) {
        func kinds(in group: AssetGroup) throws(LibraryError) -> Set<MediaType> {
            var found: Set<MediaType> = []
            if try library.count(FetchRequest(group: group, kinds: AssetKind.stills)) > 0 { found.insert(.photo) }
            if try library.count(FetchRequest(group: group, kinds: [.video])) > 0 { found.insert(.video) }
            return found
        }
        self.init(all: try kinds(in: .all), captures: try kinds(in: .captures))
    }
}

extension LibraryContents {
    /// What a plain folder holds, by kind (it has no Captures).
    @MainActor
    public init(_ folder: FolderBrowser) {
        let kinds = Set(folder.groups.filter { $0.count > 0 }.compactMap { entry -> MediaType? in
            entry.group == .photos ? .photo : entry.group == .videos ? .video : nil
        })
        self.init(all: kinds, captures: [])
    }
}

extension MediaSources {
    /// The sources a picker over the library in `libraryFolder` has: what that library and its
    /// Captures hold (none when it cannot be opened), and the cameras that open. Capture cannot
    /// look into the library itself (features stay apart), so the components layer asks it.
    public init(libraryFolder: URL, allowVirtualCamera: Bool = false) {
        let contents = (try? MediaLibrary(folder: libraryFolder, readOnly: true)).flatMap { try? LibraryContents($0) }
        self.init(library: contents, allowVirtualCamera: allowVirtualCamera)
    }
}
