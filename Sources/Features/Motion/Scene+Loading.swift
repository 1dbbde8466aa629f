import Foundation
import ViewfinderCore

extension Scene {
    /// The scene in the JSON file at `url`: refused when it is missing, a folder, larger than
    /// `SceneLimits.maxSceneBytes` (checked before reading) or unreadable, else parsed.
    public static func load(contentsOf url: URL) throws(SceneError) -> Scene {
        let path = url.path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw SceneError(path: "", message: tr("{file}: no such file", ["file": path]))
        }
        guard !isFolder.boolValue else { throw SceneError(path: "", message: tr("{file} is a folder, not a scene file", ["file": path])) }
        let bytes = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
        guard bytes <= SceneLimits.maxSceneBytes else {
            throw SceneError(path: "", message: tr("{file} is {size} MiB; a scene file may be at most {limit} MiB",
                                                        ["file": path, "size": bytes >> 20, "limit": SceneLimits.maxSceneBytes >> 20]))
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw SceneError(path: "", message: tr("cannot read {file}: {reason}", ["file": path, "reason": (error as NSError).localizedDescription]))
        }
        do {
            return try parse(data)
        } catch let error as SceneError {
            throw error
        } catch {
            throw SceneError(path: "", message: "\(error)")
        }
    }
}
