import CommandLineKit
import Foundation
import MediaIO
import ViewfinderCore

/// `viewfinder devices`: the cameras on this machine.
enum DevicesCommand: Command {
    static let name = "devices"
    static let summary = "List the cameras (V4L2) with their sizes, frame rates and flash."
    static let synopsis = "[--json]"
    static let positionalCount = 0...0
    static let options = [OptionSpec("json", help: "Print JSON.")]
    static let discussion = "The virtual test camera (--device virtual in capture) is always there and not listed."

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let cameras = CaptureDevice.cameras()
        if arguments.flag("json") {
            print(JSONValue.array(cameras.map { camera in
                .object([
                    ("id", .string(camera.id)), ("name", .string(camera.name)), ("position", .string(camera.position.rawValue)),
                    ("sizes", .array(camera.sizes.map { .string("\($0.width)x\($0.height)") })),
                    ("frameRates", .array(camera.frameRates.map(JSONValue.int))), ("flash", .bool(camera.hasFlash)),
                    ("mediaTypes", .array([.string("photo"), .string("video")])),
                ])
            }).rendered())
        } else if cameras.isEmpty {
            print("no camera found (capture --device virtual uses the test camera)")
        } else {
            for camera in cameras {
                let sizes = camera.sizes.map { "\($0.width)x\($0.height)" }.joined(separator: ", ")
                print("\(camera.id)\t\(camera.name)\t\(sizes)\t\(camera.frameRates.map(String.init).joined(separator: "/")) fps\t\(camera.hasFlash ? "flash" : "no flash")")
            }
        }
        return 0
    }
}
