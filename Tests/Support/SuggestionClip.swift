import Foundation
import ViewfinderCore

/// An 8 s, 30 fps clip of stretches a cover must avoid or prefer, made with the ffmpeg CLI:
/// 0–1 s black, 1–2 s a fade from black, 2–2.5 s white (a flash), 2.5–3.5 s heavily blurred,
/// then three sharp, well-exposed scenes: 3.5–5 s a Mandelbrot set, 5–6.5 s a test pattern,
/// 6.5–8 s colour bars. Keyframes every 0.5 s.
public enum SuggestionClip {
    /// The sharp scenes, as [start, end) in seconds.
    public static let sharpScenes: [Range<Double>] = [3.5..<5, 5..<6.5, 6.5..<8]

    public static func make(in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("stretches.mp4")
        let size = "s=320x180:r=30"
        let sources = [
            "color=c=black:\(size):d=1",
            "testsrc2=\(size):d=1,fade=in:d=1",
            "color=c=white:\(size):d=0.5",
            "testsrc2=\(size):d=1,gblur=sigma=12",
            "mandelbrot=\(size),trim=duration=1.5",
            "testsrc2=\(size):d=1.5",
            "smptehdbars=\(size):d=1.5",
        ]
        var arguments = ["-v", "error", "-y"]
        for source in sources { arguments += ["-f", "lavfi", "-i", source] }
        let inputs = sources.indices.map { "[\($0)]" }.joined()
        arguments += ["-filter_complex", "\(inputs)concat=n=\(sources.count):v=1[v]", "-map", "[v]",
                      "-c:v", "libx264", "-preset", "veryfast", "-crf", "18", "-g", "15", "-pix_fmt", "yuv420p", url.path]
        let made = try Subprocess.run("ffmpeg", arguments)
        guard made.status == 0 else { throw SubprocessError.failed("ffmpeg", made.stderr) }
        return url
    }

    /// Which sharp scene a time lies in, nil for none.
    public static func scene(of seconds: Double) -> Int? {
        sharpScenes.firstIndex { $0.contains(seconds) }
    }
}

extension SuggestionClip {
    /// The shots of `makeWithFace`, as [start, end) in seconds: scikit-image's coffee cup,
    /// motorcycle, astronaut portrait (on grey) and rocket, 1.5 s each.
    public static let faceShots: [Range<Double>] = [0..<1.5, 1.5..<3, 3..<4.5, 4.5..<6]
    /// Which of `faceShots` shows the face.
    public static let faceShot = 2

    /// A 6 s, 30 fps, 640×360 clip of four sharp, well-exposed still shots from scikit-image's
    /// photos in `photos`, one of them a person (her face a fifth of the frame's height), made
    /// with the ffmpeg CLI. Without faces weighed the motorcycle scores best (it is the sharpest).
    public static func makeWithFace(in folder: URL, photos: URL) throws -> URL {
        let url = folder.appendingPathComponent("faces.mp4")
        var arguments = ["-v", "error", "-y"]
        for name in ["coffee.png", "motorcycle_left.png", "astronaut.png", "rocket.jpg"] {
            arguments += ["-loop", "1", "-framerate", "30", "-t", "1.5", "-i", photos.appendingPathComponent(name).path]
        }
        let fill = "scale=640:360,setsar=1,format=yuv420p"
        arguments += ["-filter_complex",
                      "[0]\(fill)[a];[1]\(fill)[b];[2]scale=360:360,pad=640:360:140:0:color=0x808080,setsar=1,format=yuv420p[p];"
                      + "[3]\(fill)[d];[a][b][p][d]concat=n=4:v=1[v]",
                      "-map", "[v]", "-c:v", "libx264", "-preset", "veryfast", "-crf", "18", "-g", "15",
                      "-pix_fmt", "yuv420p", url.path]
        let made = try Subprocess.run("ffmpeg", arguments)
        guard made.status == 0 else { throw SubprocessError.failed("ffmpeg", made.stderr) }
        return url
    }
}
