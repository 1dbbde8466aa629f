import Foundation
import Imaging
import Testing
import ViewfinderCore
import ViewfinderTestSupport

extension StudioWindowTests {
    @Suite("Studio: the HUD's styles against golden screenshots")
    struct HUDStyleTests {
        /// Each golden: its name and the `hud` step that shows it. None animates once shown (no
        /// spinner), so a screenshot taken when the HUD is visible is one exact picture.
        static let styles: [(name: String, step: String)] = [
            ("hud-light-blur", "hud determinate fade blur"),
            ("hud-dark-blur", "hud annular fade dark"),
            ("hud-solid", "hud bar fade solid"),
            ("hud-coloured", "hud bar fade solid content=ff8000 label-color=ffffff details-color=80c0ff "
                + "track=ff800040 line=ffffff label-font=Serif:16:bold details-font=Monospace:10"),
            ("hud-image", "hud image fade blur"),
            ("hud-icon", "hud icon fade dark"),
            // Any widget of the app, live: the header's main menu button.
            ("hud-widget", "hud widget fade solid"),
            ("hud-blurred-view", "hud text fade blurview"),
        ]

        @Test("light and dark blur, solid, coloured content, image, icon and widget custom views, blurred view: each as its golden")
        func goldens() async throws {
            let font = try Goldens.sansIsDejaVu()
            try #require(font.hasPrefix("DejaVuSans.ttf"), "the goldens are drawn in DejaVu Sans (fonts-dejavu-core); Sans is \(font)")
            let folder = TestPaths.scratchFolder("studio-hud-styles")
            func shot(_ name: String) -> URL { folder.appendingPathComponent("\(name).png") }
            // Something with edges under the HUD, so the blur shows: the avatar editor on bars.
            let photo = folder.appendingPathComponent("bars.png")
            try ImageEncoder.encode(Self.bars(), as: .png).write(to: photo)
            var script = ["wait avatar-ready"]
            // The coloured style again with the label alone in another colour, which must fail.
            let relabelled = (name: "hud-coloured-relabelled", step: Self.styles[3].step.replacingOccurrences(
                of: "label-color=ffffff", with: "label-color=80c0ff"))
            for style in Self.styles + [relabelled] {
                script += [style.step, "wait-hud visible", "screenshot \(shot(style.name).path) hud", "hud-hide", "wait-hud hidden"]
            }
            let run = try await StudioHarness.run(script, arguments: ["--light", "--library", folder.appendingPathComponent("lib").path,
                                                                      "--avatar", photo.path], in: folder)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            var pictures: [[UInt8]] = []
            for style in Self.styles {
                let comparison = try Goldens.compare(shot(style.name), with: style.name)
                #expect(comparison.matches, "\(style.name): \(comparison) — see \(shot(style.name).path)")
                pictures.append(try StudioHarness.pixels(of: shot(style.name)).bytes)
            }
            #expect(Set(pictures).count == Self.styles.count, "two styles drew the same picture")
            // The image custom view is the script's 64 × 48 picture pixel for pixel: four
            // quarters of 32 × 24 in their exact colours.
            let image = try StudioHarness.pixels(of: shot("hud-image"))
            for quarter: [UInt8] in [[220, 40, 40, 255], [40, 160, 60, 255], [40, 80, 220, 255], [240, 200, 30, 255]] {
                let exact = stride(from: 0, to: image.bytes.count, by: 4).filter { Array(image.bytes[$0..<($0 + 4)]) == quarter }.count
                #expect(exact == 32 * 24, "\(quarter): \(exact) pixels")
            }

            // The comparison can fail: the screenshot of the next style does not pass as this
            // style's golden, nor does the coloured style with only its label recoloured (the
            // tolerance test below checks the thresholds themselves).
            for (index, style) in Self.styles.enumerated() {
                let golden = try StudioHarness.pixels(of: Goldens.folder.appendingPathComponent("\(style.name).png"))
                let other = Self.styles[(index + 1) % Self.styles.count]
                let wrong = GoldenVerdict(try StudioHarness.pixels(of: shot(other.name)), golden)
                #expect(!wrong.matches, "\(other.name) passed as \(style.name): \(wrong)")
                #expect(GoldenVerdict(golden, golden).whole.differingPixels == 0)
            }
            let coloured = try StudioHarness.pixels(of: Goldens.folder.appendingPathComponent("hud-coloured.png"))
            let label = GoldenVerdict(try StudioHarness.pixels(of: shot(relabelled.name)), coloured)
            #expect(!label.matches && label.whole.matches, "a recoloured label: \(label)")
        }

        /// 600 × 600: eight saturated vertical bars crossed by a black line every 50 pixels.
        static func bars() -> PixelBuffer {
            let colours = [RGB(230, 30, 30), RGB(250, 160, 20), RGB(240, 230, 40), RGB(40, 180, 60),
                           RGB(30, 160, 220), RGB(40, 60, 200), RGB(150, 50, 190), RGB(250, 250, 250)]
            var picture = PixelBuffer(width: 600, height: 600)
            for (index, colour) in colours.enumerated() {
                picture.fill(x: index * 75, y: 0, width: 75, height: 600, with: colour)
            }
            for y in stride(from: 25, to: 600, by: 50) { picture.fill(x: 0, y: y, width: 600, height: 4, with: RGB(0, 0, 0)) }
            return picture
        }

        @Test("the app's own HUD follows the theme: a dark blur in the dark theme, light in the light, in a 150 × 100 box")
        func followsTheme() async throws {
            let folder = TestPaths.scratchFolder("studio-hud-theme")
            func shot(_ name: String) -> URL { folder.appendingPathComponent("\(name).png") }
            let run = try await StudioHarness.run([
                "wait library", "theme dark", "sleep 0.2",
                "hud-flash text Saved", "wait-hud visible", "screenshot \(shot("dark").path) hud",
                // Turning the theme while it shows turns the HUD too.
                "theme light", "sleep 0.3", "screenshot \(shot("light").path) hud",
            ], arguments: ["--library", folder.appendingPathComponent("lib").path], in: folder)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            for (name, dark) in [("dark", true), ("light", false)] {
                let image = try StudioHarness.pixels(of: shot(name))
                // The box's opaque extent through its middle: one line of text gets the wrapper's minimum.
                let (cx, cy) = (image.width / 2, image.height / 2)
                func opaque(_ x: Int, _ y: Int) -> Bool { image[x, y][image[x, y].startIndex + 3] == 255 }
                let row = (0..<image.width).filter { opaque($0, cy) }, column = (0..<image.height).filter { opaque(cx, $0) }
                #expect(row.count == 150 && column.count == 100, "\(name): \(row.count) × \(column.count)")
                // Inside the box, left of the checkmark: the tint over the blurred screen.
                let inside = image.meanColour(Rect(x: Double(cx - 60), y: Double(cy - 40), width: 10, height: 10))
                if dark {
                    #expect(inside.r < 70 && inside.g < 70 && inside.b < 70, "dark theme box \(inside)")
                } else {
                    #expect(inside.r > 200 && inside.g > 200 && inside.b > 200, "light theme box \(inside)")
                }
            }
            let comparison = try Goldens.compare(shot("dark"), with: "hud-app-dark")
            #expect(comparison.matches, "hud-app-dark: \(comparison)")
        }

        @Test("a named symbol comes from the icon theme in the content colour; a name it lacks draws a dot, never nothing")
        func namedSymbols() async throws {
            let folder = TestPaths.scratchFolder("studio-hud-icons")
            func shot(_ name: String) -> URL { folder.appendingPathComponent("\(name).png") }
            var script = ["wait library"]
            for (name, options) in [("camera", "icon=camera-photo-symbolic"), ("orange", "icon=camera-photo-symbolic content=ff8000"),
                                    ("folder", "icon=folder-pictures"), ("missing", "icon=no-such-icon-anywhere")] {
                script += ["hud text fade solid \(options)", "wait-hud visible", "screenshot \(shot(name).path) hud", "hud-hide", "wait-hud hidden"]
            }
            let run = try await StudioHarness.run(script, arguments: ["--light", "--library", folder.appendingPathComponent("lib").path],
                                                  in: folder)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            /// The 37-point square where the symbol is drawn, above the two labels.
            func symbol(_ name: String) throws -> [[UInt8]] {
                let image = try StudioHarness.pixels(of: shot(name))
                let rows = (0..<image.height).filter { image[image.width / 2, $0][image[image.width / 2, $0].startIndex + 3] > 0 }
                let top = try #require(rows.first) + 20
                return (top..<(top + 37)).flatMap { y in (image.width / 2 - 18...image.width / 2 + 18).map { Array(image[$0, y]) } }
            }
            func count(_ pixels: [[UInt8]], _ test: ([UInt8]) -> Bool) -> Int { pixels.filter(test).count }
            let camera = try symbol("camera"), orange = try symbol("orange"), folderIcon = try symbol("folder"), missing = try symbol("missing")
            // The box is dark grey: the symbolic camera is drawn light (white at 90%), in orange when asked.
            let light = count(camera) { $0[0] > 200 && $0[1] > 200 && $0[2] > 200 }
            #expect(light > 100, "\(light) light pixels in the camera")
            #expect(count(camera) { $0[0] > 200 && $0[1] < 160 } == 0)
            let orangeish = count(orange) { $0[0] > 200 && $0[1] > 90 && $0[1] < 170 && $0[2] < 60 }
            #expect(orangeish > 100 && count(orange) { $0[0] > 200 && $0[1] > 200 && $0[2] > 200 } == 0, "\(orangeish) orange pixels")
            // A full-colour icon keeps its own colours (the folder's blue-grey), not the content colour.
            #expect(folderIcon != camera && count(folderIcon) { $0[2] > $0[0] + 30 } > 50)
            // The missing name: the glyph, a small light dot — fewer light pixels than the camera, but some.
            let dot = count(missing) { $0[0] > 200 && $0[1] > 200 && $0[2] > 200 }
            #expect(dot > 10 && dot < light, "\(dot) light pixels for the missing icon")
        }

        @Test("the comparison's tolerance: small noise passes, a patch over 0.2% or a shifted colour fails")
        func tolerance() throws {
            let base = try #require(RasterImage(width: 100, height: 100, channels: 4,
                                                bytes: (0..<10_000).flatMap { [UInt8($0 % 256), 128, 64, 255] }))
            func changed(_ body: (inout UnsafeMutableBufferPointer<UInt8>) -> Void) -> RasterImage {
                var copy = base
                copy.withMutableBytes { body(&$0) }
                return copy
            }
            // ±20 on every green channel: nobody differs, but the mean (20) is far over 1.
            let tinted = changed { for p in 0..<10_000 { $0[p * 4 + 1] = 148 } }
            #expect(GoldenComparison(tinted, base).differingPixels == 0)
            #expect(!GoldenComparison(tinted, base).matches)
            // 20 pixels (0.2%) fully changed: allowed; 21: not.
            func patch(_ count: Int) -> RasterImage { changed { for p in 0..<count { $0[p * 4 + 2] = 255 } } }
            #expect(GoldenComparison(patch(20), base).matches)
            #expect(GoldenComparison(patch(20), base).differingPixels == 20)
            #expect(!GoldenComparison(patch(21), base).matches)
            // ±24 on one channel of every pixel is within the per-pixel tolerance.
            let noisy = changed { for p in 0..<10_000 where p % 50 == 0 { $0[p * 4 + 1] = 104 } }
            #expect(GoldenComparison(noisy, base).matches && GoldenComparison(noisy, base).differingPixels == 0)
            let other = try #require(RasterImage(width: 100, height: 99, channels: 4, bytes: [UInt8](repeating: 0, count: 39_600)))
            #expect(!GoldenComparison(other, base).matches)
        }
    }
}
