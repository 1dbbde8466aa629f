// Choose a video's cover without a screen: the exact frame 40 % of the way in, saved as a JPEG.
// Run: swift run cover-example VIDEO COVER.jpg
import CoverPicker
import Foundation
import Imaging

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    print("usage: cover-example VIDEO COVER.jpg")
    exit(2)
}
let session = CoverPickerSession(video: URL(fileURLWithPath: arguments[1]))   // limit 30 s, 6-frame strip
session.onPreviewChange = { preview in                                        // keyframe first, then exact
    print("preview at \(preview.frame.time)\(preview.isExact ? " (exact)" : "")")
}
do {
    try await session.open()                      // checks the limit, builds the strip, shows frame 0
    _ = try await session.moveSlider(to: 0.4)
    let cover = try await session.complete()      // the exact frame and its time
    try ImageEncoder.write(cover.image, to: URL(fileURLWithPath: arguments[2]))
    print("cover: the frame at \(cover.time)")
} catch {
    print("cover-example: \(error.localizedDescription)")
    exit(1)
}
